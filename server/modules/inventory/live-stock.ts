import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveStock } from '../../../common/contracts/catalog';
import { PER_ADDRESS_MESSAGE, type EventStreamHub, type StreamRefusal, type StreamSlot } from '../../lib/event-stream-hub';

/** Re-reads after a change at most this often: a drop's burst of sales costs a few queries a second. */
const MIN_REFRESH_MS = 250;
export { HEARTBEAT_MS } from '../../lib/event-stream-hub';

export const LIVE_STOCK_BUSY_MESSAGE = 'Too many live stock streams on this server; try again shortly.';

export interface LiveStockHubOptions {
  /** Fresh stock of these products from the database. */
  read: (productIds: readonly string[]) => Promise<LiveStock[]>;
  /**
   * The instance's one event-stream hub (server/services.ts): its caps (STREAMS_MAX per instance → 503,
   * STREAMS_PER_ADDRESS per network address → 429) count the waiting room's streams and these together.
   */
  hub: EventStreamHub<unknown>;
  log: FastifyBaseLogger;
}

const frame = (stock: LiveStock) => `event: stock\ndata: ${JSON.stringify(stock)}\n\n`;

/**
 * Server-Sent Events of live stock (ADR 011), a channel of the instance's one event-stream hub
 * (server/lib/event-stream-hub.ts: slots, caps, heartbeat, shutdown, shared with the waiting room). Every catalogue change — a sale, a hold, a release, here or on another
 * instance (catalog's LISTEN/NOTIFY feed) — makes one coalesced re-read of the products someone is watching;
 * each stream gets an event only when its product's numbers changed.
 */
export function createLiveStockHub(opts: LiveStockHubOptions) {
  const { read, log } = opts;
  // Live stock's channel of the shared hub: topics are product ids, no meta per stream.
  const hub = opts.hub.channel<undefined>('stock', {
    retryMs: 3000,
    messages: { full: LIVE_STOCK_BUSY_MESSAGE, perAddress: PER_ADDRESS_MESSAGE },
    retryAfterSeconds: { full: 10, perAddress: 30 },
  });
  const last = new Map<string, string>();
  let refreshing = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let lastRefreshAt = 0;
  let closed = false;

  async function refresh(): Promise<void> {
    refreshing = true;
    try {
      do {
        again = false;
        lastRefreshAt = Date.now();
        const ids = hub.topics();
        for (const id of last.keys()) if (!hub.has(id)) last.delete(id);
        if (ids.length === 0) break;
        const rows = await read(ids);
        for (const stock of rows) {
          const data = frame(stock);
          if (last.get(stock.productId) === data) continue;
          last.set(stock.productId, data);
          hub.broadcast(stock.productId, data);
        }
      } while (again && !closed);
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'live stock: re-reading stock failed; the next change tries again');
    } finally {
      refreshing = false;
    }
  }

  return {
    /** Live-stock slots in use (the hub's `size` counts every channel). */
    get size() {
      return hub.size;
    },
    /** Slots one network address holds, every channel of the hub together. */
    heldBy: (ip: string) => opts.hub.heldBy(ip),
    /** The catalogue changed (after its commit): re-read, coalesced. */
    changed(): void {
      if (closed || hub.size === 0) return;
      if (refreshing) {
        again = true;
        return;
      }
      if (timer) return;
      const wait = Math.max(0, lastRefreshAt + MIN_REFRESH_MS - Date.now());
      timer = setTimeout(() => {
        timer = null;
        void refresh();
      }, wait);
      timer.unref();
    },
    /** Takes a stream slot before the route reads anything (see the hub): a slot, or what to refuse with. */
    reserve(req: IncomingMessage, res: ServerResponse, ip: string): StreamSlot<undefined> | StreamRefusal {
      return hub.reserve(req, res, ip);
    },
    /** Starts the reserved stream with the current numbers; false when the client already left. */
    open(slot: StreamSlot<undefined>, current: LiveStock): boolean {
      const data = frame(current);
      if (!slot.start(current.productId, undefined, data)) return false;
      if (!last.has(current.productId)) last.set(current.productId, data);
      return true;
    },
    /** App close: stops re-reading and ends every stream of the hub (the server must not wait for them). */
    close(): void {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      opts.hub.closeAll();
      last.clear();
    },
  };
}

export type LiveStockHub = ReturnType<typeof createLiveStockHub>;
