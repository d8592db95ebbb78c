import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/** The PostgreSQL channel every instance sharing a database listens on for catalogue changes. */
export const CATALOG_CHANNEL = 'fifty_catalog';

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

export interface CatalogChangeFeed {
  /** True while the listening connection is up: remote changes then arrive within milliseconds. */
  readonly live: boolean;
  /** Tells the other instances that the catalogue changed (after the change committed). */
  publish(): void;
  /** Called when another instance changed the catalogue, or when changes may have been missed. */
  onRemoteChange(listener: () => void): void;
  /** Opens the listening connection; resolves after the first attempt, whether or not it worked. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * LISTEN/NOTIFY between app instances sharing one database. A dedicated client (connection settings
 * from the pool, but not one of its slots: it is held for ever) listens; it reconnects with backoff
 * when the connection drops, and every (re)connect counts as a change, since notifications sent
 * while it was away are lost. Publishing is coalesced: at most one NOTIFY in flight plus one queued,
 * so a burst of stock moves during a drop costs a handful of queries, not one each.
 */
export function createCatalogChangeFeed(deps: { pool: pg.Pool; log: FastifyBaseLogger }): CatalogChangeFeed {
  const { pool, log } = deps;
  // Our own notifications come back to our listener: the payload says who sent them.
  const instanceId = crypto.randomBytes(8).toString('hex');
  const listeners: Array<() => void> = [];
  let client: pg.Client | null = null;
  let live = false;
  let stopped = false;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | null = null;
  let publishing = false;
  let publishAgain = false;

  const emit = () => {
    for (const listener of listeners) listener();
  };

  function scheduleReconnect(): void {
    if (stopped || retryTimer) return;
    const base = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** attempt);
    attempt++;
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        void connect();
      },
      base / 2 + Math.random() * (base / 2),
    );
    retryTimer.unref();
  }

  function dropConnection(c: pg.Client): void {
    if (client !== c) return;
    client = null;
    live = false;
    c.removeAllListeners('notification');
    c.end().catch(() => undefined);
    scheduleReconnect();
  }

  async function connect(): Promise<void> {
    if (stopped || client) return;
    const c = new pg.Client(pool.options);
    client = c;
    c.on('error', (err) => {
      if (client === c) log.warn({ err: err.message }, 'catalogue change listener lost its connection; reconnecting');
      dropConnection(c);
    });
    c.on('end', () => dropConnection(c));
    c.on('notification', (msg) => {
      if (msg.channel === CATALOG_CHANNEL && msg.payload !== instanceId) emit();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CATALOG_CHANNEL}`);
      if (client !== c || stopped) {
        await c.end().catch(() => undefined);
        return;
      }
      if (attempt > 0) log.info('catalogue change listener reconnected');
      attempt = 0;
      live = true;
      // Whatever changed while nobody was listening is unknown: start from the database again.
      emit();
    } catch (err) {
      if (client === c) {
        log.warn({ err: (err as Error).message }, 'catalogue change listener could not connect; retrying');
        dropConnection(c);
      }
    }
  }

  async function sendNotify(): Promise<void> {
    publishing = true;
    try {
      do {
        publishAgain = false;
        await pool.query('select pg_notify($1, $2)', [CATALOG_CHANNEL, instanceId]);
      } while (publishAgain && !stopped);
    } catch (err) {
      // Other instances then see the change when their snapshot ages out (see catalog.service).
      log.warn({ err: (err as Error).message }, 'could not notify other instances of a catalogue change');
    } finally {
      publishing = false;
    }
  }

  return {
    get live() {
      return live;
    },
    publish() {
      if (stopped) return;
      if (publishing) publishAgain = true;
      else void sendNotify();
    },
    onRemoteChange(listener) {
      listeners.push(listener);
    },
    start: connect,
    async stop() {
      stopped = true;
      live = false;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners('notification');
        await c.end().catch(() => undefined);
      }
    },
  };
}
