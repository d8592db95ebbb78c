import { describe, expect, test } from 'vitest';
import type { DropStatus, DropTicket } from '../../../common/contracts/drops';
import { sseEvent } from './drops.service';
import { createStatusPusher, POSITION_PACE_MS, type DropWide, type PushedStream, type StatusStreamMeta, type TicketSource } from './status-push';

const TICK_MS = 300;

interface Place {
  id: string;
  status: DropTicket['status'];
  position: number | null;
}

const drop = (over: Partial<DropWide> = {}): DropWide => ({
  productId: 'p-1',
  releaseAt: '2026-11-25T12:00:00.000Z',
  roomOpensAt: '2026-11-25T11:45:00.000Z',
  phase: 'open',
  paused: false,
  message: null,
  queueLength: 100,
  left: 10,
  held: 0,
  editionSize: 50,
  ...over,
});

const ticketOf = (p: Place): DropTicket => ({
  id: p.id,
  status: p.status,
  raffle: false,
  position: p.status === 'waiting' ? p.position : null,
  estimatedWaitSeconds: p.status === 'waiting' ? (p.position ?? 0) * 12 : null,
  passExpiresAt: p.status === 'admitted' ? '2026-11-25T12:10:00.000Z' : null,
});

/** A fake stream: records every frame written, with the (fake) time it was written. */
function stream(meta: StatusStreamMeta) {
  const frames: Array<{ at: number; status: DropStatus; raw: string }> = [];
  const s: PushedStream & { frames: typeof frames; clockAt: () => number } = {
    meta,
    last: null,
    frames,
    clockAt: () => 0,
    send(frame: string) {
      const data = frame.split('\n').find((l) => l.startsWith('data: '))!;
      frames.push({ at: s.clockAt(), status: JSON.parse(data.slice(6)) as DropStatus, raw: frame });
    },
  };
  return s;
}

function room(streams: number) {
  let clock = 0;
  const pusher = createStatusPusher({ now: () => clock });
  const places = new Map<string, Place>();
  const list = Array.from({ length: streams }, (_, i) => {
    places.set(`s-${i}`, { id: `t-${i}`, status: 'waiting', position: i + 1 });
    const s = stream(pusher.meta(`s-${i}`));
    s.clockAt = () => clock;
    return s;
  });
  const source: TicketSource<Place> = {
    of: (sid) => places.get(sid),
    state: (p) => `${p.id}|${p.status}`,
    render: ticketOf,
  };
  let wide = drop();
  return {
    places,
    streams: list,
    set wide(d: DropWide) {
      wide = d;
    },
    get now() {
      return clock;
    },
    /** One tick: time moves on TICK_MS, then the push. Answers the frames written. */
    tick(): number {
      clock += TICK_MS;
      return pusher.push('p-1', list, wide, source);
    },
    /** Everyone waiting moves up one place. */
    admitOne(): void {
      for (const p of places.values()) if (p.status === 'waiting' && p.position !== null) p.position -= 1;
    },
  };
}

describe('paced status push', () => {
  test('the frame is byte for byte the whole status serialised (drop-wide part once, the ticket per stream)', () => {
    const r = room(2);
    r.wide = drop({ message: 'Back at 12:05 "sharp"', held: 3 });
    r.tick();
    for (const [i, s] of r.streams.entries()) {
      const status: DropStatus = { ...drop({ message: 'Back at 12:05 "sharp"', held: 3 }), ticket: ticketOf(r.places.get(`s-${i}`)!) };
      expect(s.frames.at(-1)!.raw).toBe(sseEvent(status));
    }
    // A stream without a session: ticket null, message absent when undefined (as JSON.stringify leaves it out).
    const pusher = createStatusPusher({ now: () => 0 });
    const anonymous = stream(pusher.meta(null));
    const wide = drop();
    delete wide.message;
    delete wide.held;
    pusher.push('p-2', [anonymous], wide, { of: () => undefined, state: () => '', render: ticketOf });
    expect(anonymous.frames[0]!.raw).toBe(sseEvent({ ...wide, ticket: null }));
  });

  test('a position change reaches every stream within 1 s; writes are spread over the ticks, not all on one', () => {
    const r = room(100);
    r.tick();
    r.tick(); // every stream has its first frame and the round is timed
    const start = r.now;
    const perTick: number[] = [];
    for (let i = 0; i < 20; i++) {
      r.admitOne();
      perTick.push(r.tick());
    }
    for (const s of r.streams) {
      // Positions change on every tick from here on: the first frame comes at most a pace later, and then
      // one at least every pace.
      const ats = [start, ...s.frames.map((f) => f.at).filter((at) => at > start)];
      for (let i = 1; i < ats.length; i++) expect(ats[i]! - ats[i - 1]!).toBeLessThanOrEqual(POSITION_PACE_MS);
      // Each frame shows the position of the moment it is sent: 1 s after any change it is current.
      expect(ats.at(-1)!).toBeGreaterThanOrEqual(r.now - 1000);
    }
    // Paced: at 300 ms ticks half the streams hear their new position on each tick, not all of them on every tick.
    for (const n of perTick) {
      expect(n).toBeGreaterThan(30);
      expect(n).toBeLessThan(70);
    }
    const total = perTick.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(100 * 20 * 0.6);
  });

  test('a position change is heard within 1 s of the tick that saw it, whichever slot the stream has', () => {
    const r = room(10);
    r.tick();
    r.tick();
    for (const [i, s] of r.streams.entries()) {
      const before = s.frames.length;
      const at = r.now;
      r.admitOne();
      while (s.frames.length === before) {
        r.tick();
        expect(r.now - at).toBeLessThan(1000);
      }
      expect(s.frames.at(-1)!.status.ticket!.position).toBe(r.places.get(`s-${i}`)!.position);
    }
  });

  test('a change of state goes out on the tick it is seen, to every stream it concerns', () => {
    const r = room(40);
    r.tick();
    r.tick();
    r.tick();
    // Admitted: that shopper hears it on this very tick, whatever its slot.
    for (const n of [0, 1, 2, 3]) r.places.set(`s-${n}`, { id: `t-${n}`, status: 'admitted', position: null });
    const counts = r.streams.map((s) => s.frames.length);
    r.tick();
    for (const n of [0, 1, 2, 3]) {
      expect(r.streams[n]!.frames.length).toBe(counts[n]! + 1);
      expect(r.streams[n]!.frames.at(-1)!.status.ticket).toMatchObject({ status: 'admitted', position: null });
    }
    // Paused, sold out, the owner's message: everyone at once.
    for (const change of [{ paused: true }, { paused: true, message: 'Restocking, hold on' }, { phase: 'sold_out' as const, left: 0 }]) {
      r.wide = drop(change);
      const before = r.streams.map((s) => s.frames.length);
      expect(r.tick()).toBe(40);
      for (const [i, s] of r.streams.entries()) {
        expect(s.frames.length).toBe(before[i]! + 1);
        expect(s.frames.at(-1)!.status).toMatchObject(change);
      }
    }
    // Nothing changed: nothing written.
    expect(r.tick()).toBe(0);
    expect(r.tick()).toBe(0);
  });

  test('slow ticks: every stream hears each position change on the next tick', () => {
    let clock = 0;
    const pusher = createStatusPusher({ now: () => clock });
    const s = stream(pusher.meta('a'));
    let position = 50;
    const source: TicketSource<number> = {
      of: () => position,
      state: () => 'waiting',
      render: (p) => ticketOf({ id: 't', status: 'waiting', position: p }),
    };
    for (let i = 0; i < 10; i++) {
      clock += 900;
      position -= 1;
      pusher.push('p-1', [s], drop(), source);
      expect(s.last).toContain(`"position":${position},`);
    }
  });
});
