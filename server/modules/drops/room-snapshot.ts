import type { PolledTicket, RoomRead } from './drops.repository';
import type { DropSizeStock } from './drops.ports';

/** A drop's waiting room as this instance last read it (one ranking query), with the stock it then had. */
export interface RoomSnapshot extends RoomRead {
  stock: number;
  /** The product's size run when split into sizes (ADR 015), read with the stock; [] for one pool. */
  sizes: DropSizeStock[];
  /** The drop's phase by the clock when read (ignoring sell-out): a read of another phase is not used. */
  phase: string;
  /** Date.now() when the read started. */
  readAt: number;
  /** Increases with every read this instance makes (tests and benches count ranking queries by it). */
  version: number;
}

/**
 * The in-memory waiting rooms (ADR 010, "Status from memory"): the ticker reads each live drop once per
 * tick (`refresh`) and every status read and stream start is answered from the last read (`get`). A drop
 * the ticker does not watch (the room not open yet, long over) is read on demand at most once per
 * `maxAgeMs` however many ask: concurrent misses share one read.
 */
export function createRoomSnapshots(opts: {
  read: (productId: string) => Promise<RoomRead | null>;
  stockOf: (productId: string) => Promise<number>;
  /** The product's sizes (ADR 015), read with every refresh; absent: none. */
  sizesOf?: (productId: string) => Promise<DropSizeStock[]>;
  maxAgeMs: number;
}) {
  const cache = new Map<string, RoomSnapshot>();
  const inflight = new Map<string, Promise<RoomSnapshot | null>>();
  let version = 0;

  async function load(productId: string, phase: string, stock?: number): Promise<RoomSnapshot | null> {
    const readAt = Date.now();
    const mine = ++version;
    const [room, left, sizes] = await Promise.all([
      opts.read(productId),
      stock === undefined ? opts.stockOf(productId) : stock,
      opts.sizesOf ? opts.sizesOf(productId) : [],
    ]);
    if (!room) {
      cache.delete(productId);
      return null;
    }
    const snapshot: RoomSnapshot = { ...room, stock: left, sizes, phase, readAt, version: mine };
    // A slower, older read never replaces a newer one.
    const current = cache.get(productId);
    if (!current || current.version < mine) cache.set(productId, snapshot);
    return cache.get(productId)!;
  }

  return {
    /** Reads the room now (the ticker, once per tick per live drop). `stock` when the caller has it. */
    refresh(productId: string, phase: string, stock?: number): Promise<RoomSnapshot | null> {
      return load(productId, phase, stock);
    },
    /** The last read if younger than maxAgeMs and of this phase, else one shared fresh read. */
    get(productId: string, phase: string): Promise<RoomSnapshot | null> {
      const hit = cache.get(productId);
      if (hit && hit.phase === phase && Date.now() - hit.readAt < opts.maxAgeMs) return Promise.resolve(hit);
      let pending = inflight.get(productId);
      if (!pending) {
        pending = load(productId, phase).finally(() => inflight.delete(productId));
        inflight.set(productId, pending);
      }
      return pending;
    },
    /**
     * A place just taken on this instance after the release (first come, first served: the end of the
     * queue), so this instance's reads show it at once; the next read replaces it. Raffle places are not
     * added (their order is the draw's, known at the next read; positions are hidden until the release).
     */
    joined(productId: string, ticket: PolledTicket): void {
      const hit = cache.get(productId);
      if (!hit || (hit.tickets.get(ticket.sessionId)?.status ?? 'left') !== 'left') return;
      hit.waiting += 1;
      hit.tickets.set(ticket.sessionId, { ...ticket, position: hit.waiting });
    },
    /**
     * This session gave its place up here ("Leave the line"): its own reads fall back to the point read of
     * its ticket (now 'left') at once, instead of showing the old place until the next ranking read.
     */
    left(productId: string, sessionId: string): void {
      cache.get(productId)?.tickets.delete(sessionId);
    },
    /** The owner changed the drop here: the next read is fresh. */
    invalidate(productId: string): void {
      cache.delete(productId);
    },
    /** Drops reads older than `ms` (rooms nobody looks at any more). */
    evict(ms: number): void {
      const before = Date.now() - ms;
      for (const [id, s] of cache) if (s.readAt < before) cache.delete(id);
    },
    /** Ranking reads made so far. */
    get reads(): number {
      return version;
    },
  };
}

export type RoomSnapshots = ReturnType<typeof createRoomSnapshots>;
