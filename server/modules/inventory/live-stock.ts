import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveStock } from '../../../common/contracts/catalog';

/** Re-reads after a change at most this often: a drop's burst of sales costs a few queries a second. */
const MIN_REFRESH_MS = 250;
export const HEARTBEAT_MS = 15_000;

interface Stream {
  productId: string;
  res: ServerResponse;
}

export interface LiveStockHubOptions {
  /** Fresh stock of these products from the database. */
  read: (productIds: readonly string[]) => Promise<LiveStock[]>;
  /** Open streams one instance serves; more get 503 + Retry-After. */
  maxStreams: number;
  heartbeatMs?: number;
  log: FastifyBaseLogger;
}

const frame = (stock: LiveStock) => `event: stock\ndata: ${JSON.stringify(stock)}\n\n`;

/**
 * Server-Sent Events of live stock (issue 14 item 6). Every catalogue change — a sale, a hold, a release,
 * here or on another instance (catalog's LISTEN/NOTIFY feed) — makes one coalesced re-read of the products
 * someone is watching; each stream gets an event only when its product's numbers changed.
 */
export function createLiveStockHub(opts: LiveStockHubOptions) {
  const { read, maxStreams, log } = opts;
  const streams = new Set<Stream>();
  const last = new Map<string, string>();
  let refreshing = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let lastRefreshAt = 0;
  let heartbeat: NodeJS.Timeout | null = null;
  let closed = false;

  const watched = () => [...new Set([...streams].map((s) => s.productId))];

  async function refresh(): Promise<void> {
    refreshing = true;
    try {
      do {
        again = false;
        lastRefreshAt = Date.now();
        const ids = watched();
        if (ids.length === 0) break;
        const rows = await read(ids);
        for (const stock of rows) {
          const data = frame(stock);
          if (last.get(stock.productId) === data) continue;
          last.set(stock.productId, data);
          for (const s of streams) if (s.productId === stock.productId) s.res.write(data);
        }
      } while (again && !closed);
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'live stock: re-reading stock failed; the next change tries again');
    } finally {
      refreshing = false;
    }
  }

  function stopHeartbeat(): void {
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
  }

  function remove(stream: Stream): void {
    if (!streams.delete(stream)) return;
    if (![...streams].some((s) => s.productId === stream.productId)) last.delete(stream.productId);
    if (streams.size === 0) stopHeartbeat();
  }

  return {
    get size() {
      return streams.size;
    },
    /** Another stream would pass the cap. */
    full(): boolean {
      return closed || streams.size >= maxStreams;
    },
    /** The catalogue changed (after its commit): re-read, coalesced. */
    changed(): void {
      if (closed || streams.size === 0) return;
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
    /** Starts a stream on `res` (headers not sent yet) with the current numbers; it ends when the client goes. */
    open(res: ServerResponse, current: LiveStock): void {
      const stream: Stream = { productId: current.productId, res };
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        // Never cached, never compressed or buffered by a proxy: each event must arrive when written.
        'cache-control': 'no-store, no-transform',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      res.write('retry: 3000\n\n');
      const data = frame(current);
      res.write(data);
      if (!last.has(current.productId)) last.set(current.productId, data);
      streams.add(stream);
      res.on('close', () => remove(stream));
      if (!heartbeat) {
        heartbeat = setInterval(() => {
          for (const s of streams) s.res.write(': heartbeat\n\n');
        }, opts.heartbeatMs ?? HEARTBEAT_MS);
        heartbeat.unref();
      }
    },
    /** Ends every stream (app close: the server must not wait for them). */
    close(): void {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      stopHeartbeat();
      for (const s of [...streams]) {
        streams.delete(s);
        s.res.end();
      }
      last.clear();
    },
  };
}

export type LiveStockHub = ReturnType<typeof createLiveStockHub>;
