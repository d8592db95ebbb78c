import { performance } from 'node:perf_hooks';
import type { DropStatus, DropTicket } from '../../../common/contracts/drops';

/**
 * The waiting room's per-tick push to its event streams, cheap at 10,000 streams (ADR 010, "Status from
 * memory"; bench/attack/ten-thousand-waiting.scenario.ts):
 * - the drop-wide part of the status is serialised once per push; per stream only its ticket (a small
 *   object) is, and the frame is that fragment + the ticket + the closing brace: the same bytes as
 *   `sseEvent(status)` (the ticket is the status's last key);
 * - position-only changes (position, estimate, queue length, pieces left) are paced: a stream hears them
 *   on its own slot of a round of ticks (about every POSITION_PACE_MS, still within the 1 s the contract
 *   promises), the streams spread evenly over the ticks of a round; a change of state (phase, pause, the
 *   owner's message, nothing left, the ticket's status, pass or visibility of its position) goes out on
 *   the tick it is seen;
 * - a frame equal to the one a stream last got is not written.
 */

/** A waiting shopper hears a changed position at most this often (the contract: within 1 s). */
export const POSITION_PACE_MS = 700;
/** Until two pushes of a drop have been timed, they are taken to be this far apart (server/services.ts, DROP_TICK_MS). */
const ASSUMED_TICK_MS = 300;

/** What the waiting room keeps of each open GET /api/drops/:productId/events. */
export interface StatusStreamMeta {
  sessionId: string | null;
  /** This stream's tick in a round of position updates (spreads the writes evenly over the ticks). */
  slot: number;
  /** When this stream's position was last brought up to date (performance.now() ms). */
  checkedAt: number;
  /** The state (see above) its last frame carried; null: not known (a change then goes out at once). */
  sentState: string | null;
}

/** An open stream as the hub hands it out (server/lib/event-stream-hub.ts). */
export interface PushedStream {
  readonly meta: StatusStreamMeta;
  last: string | null;
  send(frame: string): void;
}

/** How a push reads the ticket of a stream's session (T: the room snapshot's ticket). */
export interface TicketSource<T> {
  of(sessionId: string): T | null | undefined;
  /** What of a ticket goes out at once when it changes (not its position). */
  state(ticket: T): string;
  render(ticket: T): DropTicket;
}

export type DropWide = Omit<DropStatus, 'ticket'>;

const FRAME_END = '}\n\n';

/** `event: status\ndata: {…drop-wide…,"ticket":` — a frame is this + the ticket's JSON (or null) + FRAME_END. */
export function frameHead(drop: DropWide): string {
  const json = JSON.stringify(drop);
  return `event: status\ndata: ${json.slice(0, -1)},"ticket":`;
}

/** The drop-wide state that goes out at once when it changes. */
const dropState = (d: DropWide) => `${d.phase}|${d.paused}|${d.message ?? ''}|${d.left > 0}`;

export function createStatusPusher(opts: { paceMs?: number; now?: () => number } = {}) {
  const paceMs = opts.paceMs ?? POSITION_PACE_MS;
  const now = opts.now ?? (() => performance.now());
  /** Per drop: how many pushes it has had, when the last one was, and the smoothed interval between them. */
  const rounds = new Map<string, { n: number; at: number; gap: number }>();
  let nextSlot = 0;

  return {
    /** The meta of a stream about to start. */
    meta(sessionId: string | null): StatusStreamMeta {
      return { sessionId, slot: nextSlot++ & 0xffff, checkedAt: now(), sentState: null };
    },

    /** Sends each stream of a drop its session's status if due and changed; answers the frames written. */
    push<T>(topic: string, streams: Iterable<PushedStream>, drop: DropWide, tickets: TicketSource<T>): number {
      const at = now();
      let r = rounds.get(topic);
      if (!r) rounds.set(topic, (r = { n: 0, at, gap: ASSUMED_TICK_MS }));
      else {
        const gap = at - r.at;
        if (gap > 0) r.gap = r.gap * 0.7 + gap * 0.3;
        r.at = at;
        r.n++;
      }
      // Ticks per round: every stream gets its position once per round, a round is at most paceMs long.
      const round = Math.max(1, Math.floor(paceMs / Math.max(1, r.gap)));
      const head = frameHead(drop);
      const common = dropState(drop);
      const anonymous = head + 'null' + FRAME_END;
      const bySession = new Map<string, string>();
      let written = 0;
      for (const s of streams) {
        const m = s.meta;
        const ticket = m.sessionId === null ? null : (tickets.of(m.sessionId) ?? null);
        const state = ticket === null ? common : `${common}|${tickets.state(ticket)}`;
        const changed = state !== m.sentState;
        if (!changed && (r.n + m.slot) % round !== 0 && at - m.checkedAt < paceMs) continue;
        let frame: string;
        if (ticket === null) frame = anonymous;
        else {
          const known = bySession.get(m.sessionId!);
          frame = known ?? head + JSON.stringify(tickets.render(ticket)) + FRAME_END;
          if (known === undefined) bySession.set(m.sessionId!, frame);
        }
        m.checkedAt = at;
        m.sentState = state;
        if (frame === s.last) continue;
        s.last = frame;
        s.send(frame);
        written++;
      }
      return written;
    },

    /** Forgets a drop nobody listens to any more. */
    forget(topic: string): void {
      rounds.delete(topic);
    },
  };
}

export type StatusPusher = ReturnType<typeof createStatusPusher>;
