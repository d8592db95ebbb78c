import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isDatabaseUnavailable } from '../../db/db-errors';
import { rateLimits } from './rate-limit.tables';

/** What @fastify/rate-limit expects back from a store's `incr`. */
export interface RateLimitCount {
  /** Requests counted for the key in its current window, this one included. */
  current: number;
  /** Milliseconds until the window ends (the count starts again from 1 after it). */
  ttl: number;
}
type IncrCallback = (err: Error | null, res?: RateLimitCount) => void;

interface Pending {
  key: string;
  windowMs: number;
  cb: IncrCallback;
}

export interface RateLimitCounterOptions {
  /** One counting statement may take this long before the request is let through uncounted. */
  statementTimeoutMs?: number;
  /** After the database failed, requests pass uncounted for this long without trying it. */
  openAfterFailureMs?: number;
}

/**
 * Counts requests per key in PostgreSQL, so every instance on the database shares the same counts.
 *
 * Each count is one atomic upsert (`insert … on conflict do update set count = case when the window
 * expired then n else count + n end … returning count, reset_at`): the row lock orders racing requests
 * of every instance, and no request reads a count it did not itself move. Increments arriving while a
 * statement is under way are coalesced by key into the next statement (one row per key, keys in a fixed
 * order so two instances never lock each other's rows in opposite order): 5,000 shoppers behind one
 * address are a handful of statements on one hot row, not 5,000 queued row locks, and the limiter uses
 * at most one pooled connection per instance.
 *
 * Failures (database down, slow) are reported to the caller, which lets the request through
 * (`skipOnError`); after one, the database is not asked again for `openAfterFailureMs`, so an outage
 * does not add a connection timeout to every request.
 */
export function createRateLimitCounter(db: Db, opts: RateLimitCounterOptions = {}) {
  const statementTimeoutMs = opts.statementTimeoutMs ?? 1_000;
  const openAfterFailureMs = opts.openAfterFailureMs ?? 2_000;
  let queue: Pending[] = [];
  let running: Promise<void> | null = null;
  let scheduled = false;
  let skipUntil = 0;

  async function countBatch(batch: Pending[]): Promise<Map<string, { count: number; ttlMs: number }>> {
    const byKey = new Map<string, { n: number; w: number }>();
    for (const p of batch) {
      const entry = byKey.get(p.key);
      if (entry) {
        entry.n++;
        entry.w = Math.max(entry.w, p.windowMs);
      } else byKey.set(p.key, { n: 1, w: p.windowMs });
    }
    const rows = [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, { n, w }]) => ({ k, n, w }));
    let timer: NodeJS.Timeout | undefined;
    // Promise.resolve: Drizzle's query runs once per `then`, so it is subscribed to exactly once here.
    const statement = Promise.resolve(db.execute<{ key: string; count: number; ttl_ms: number }>(sql`
      insert into ${rateLimits} as r (key, count, reset_at)
      select t.k, t.n, now() + t.w * interval '1 millisecond'
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as t(k text, n int, w int)
        order by t.k
      on conflict (key) do update set
        count = case when r.reset_at <= now() then excluded.count else r.count + excluded.count end,
        reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
      returning r.key, r.count, greatest(0, ceil(extract(epoch from (r.reset_at - now())) * 1000))::int as ttl_ms`));
    try {
      const result = await Promise.race([
        statement,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('rate limit count timed out')), statementTimeoutMs);
        }),
      ]);
      return new Map(result.rows.map((r) => [r.key, { count: Number(r.count), ttlMs: Number(r.ttl_ms) }]));
    } finally {
      clearTimeout(timer);
      statement.catch(() => undefined); // a late failure after the timeout is already answered
    }
  }

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    try {
      const counts = await countBatch(batch);
      // Within a batch, the requests of one key take the last n values of its count, in arrival order.
      const seen = new Map<string, number>();
      const total = new Map<string, number>();
      for (const p of batch) total.set(p.key, (total.get(p.key) ?? 0) + 1);
      for (const p of batch) {
        const row = counts.get(p.key);
        if (!row) {
          p.cb(new Error('rate limit count missing'));
          continue;
        }
        const index = seen.get(p.key) ?? 0;
        seen.set(p.key, index + 1);
        p.cb(null, { current: row.count - (total.get(p.key)! - 1 - index), ttl: row.ttlMs });
      }
    } catch (err) {
      if (isDatabaseUnavailable(err) || (err as Error).message === 'rate limit count timed out')
        skipUntil = Date.now() + openAfterFailureMs;
      for (const p of batch) p.cb(err as Error);
    }
  }

  function kick(): void {
    if (running || scheduled || queue.length === 0) return;
    scheduled = true;
    // Let the requests of this turn of the event loop join the batch.
    setImmediate(() => {
      running = flush().finally(() => {
        running = null;
        kick();
      });
    });
  }

  return {
    /** Counts one request for `key` in a window of `windowMs` (the store contract's `incr`). */
    incr(key: string, windowMs: number, cb: IncrCallback): void {
      if (Date.now() < skipUntil) {
        cb(new Error('rate limit store unavailable'));
        return;
      }
      queue.push({ key, windowMs, cb });
      kick();
    },
    /** Deletes the counters whose window has ended (the prune job). */
    async pruneExpired(): Promise<number> {
      const result = await db.delete(rateLimits).where(lt(rateLimits.resetAt, sql`now()`));
      return result.rowCount ?? 0;
    },
    /** Resolves once nothing is queued or counting (tests, shutdown). */
    async idle(): Promise<void> {
      while (running || scheduled || queue.length > 0) await (running ?? new Promise((r) => setImmediate(r)));
    },
  };
}

export type RateLimitCounter = ReturnType<typeof createRateLimitCounter>;

/**
 * The `store` class handed to @fastify/rate-limit: the plugin builds one with its global options and
 * asks it for a `child` per limit; every one of them counts in the shared table through `counter`.
 */
export function pgRateLimitStore(counter: RateLimitCounter) {
  return class PgRateLimitStore {
    constructor(readonly options: object = {}) {}

    incr(key: string, cb: IncrCallback, timeWindow: number): void {
      counter.incr(key, timeWindow, cb);
    }

    child(routeOptions: object): PgRateLimitStore {
      return new PgRateLimitStore({ ...this.options, ...routeOptions });
    }
  };
}
