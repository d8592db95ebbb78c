import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { PROCESS_LOCKS } from '../lib/advisory-locks';
import { projectRoot } from '../lib/project-root';
import type { Database, Db } from './client';

export const migrationsFolder = path.join(projectRoot, 'server', 'db', 'migrations');

/** Session advisory lock keys (server/lib/advisory-locks.ts). */
const MIGRATION_LOCK_KEY = PROCESS_LOCKS.migration;
/**
 * Held SHARED by every serving shop instance for its whole life; `db:restore` takes it EXCLUSIVE, so a
 * restore never truncates a database that instances are writing orders into (docs/operations.md).
 */
export const SHOP_PRESENCE_LOCK_KEY = PROCESS_LOCKS.shopPresence;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits for a session advisory lock by polling pg_try_advisory_lock rather than one blocking call: the
 * pool's statement and query timeouts (seconds) would fail a wait behind a first start that is still
 * drawing the demo art.
 */
async function acquire(client: pg.ClientBase, key: number, fn: 'pg_try_advisory_lock' | 'pg_try_advisory_lock_shared', waitMs: number) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { rows } = await client.query<{ ok: boolean }>(`select ${fn}($1) as ok`, [key]);
    if (rows[0].ok) return;
    if (Date.now() > deadline) {
      throw new Error(`Gave up after ${Math.round(waitMs / 1000)} s waiting for another Fifty process (advisory lock ${key}).`);
    }
    await sleep(100);
  }
}

/**
 * Runs `work` while holding the migration lock, on the lock's own connection (so a pool of one is
 * enough): several instances starting together on one PostgreSQL migrate and seed one after another,
 * and each sees what the one before it did.
 */
export async function withMigrationLock<T>(database: Database, work: (db: Db) => Promise<T>): Promise<T> {
  const client = await database.pool.connect();
  try {
    await acquire(client, MIGRATION_LOCK_KEY, 'pg_try_advisory_lock', 10 * 60_000);
    try {
      return await work(drizzle(client) as Db);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}

export async function migrateDatabase(database: Database): Promise<void> {
  await withMigrationLock(database, (db) => migrate(db, { migrationsFolder }));
}

export interface ShopPresence {
  release(): Promise<void>;
}

/**
 * Marks this process as a shop serving `database` until release(): a shared advisory lock on a
 * connection of its own (outside the pool, so it never takes a request's connection and pool.end()
 * does not wait for it). The lock goes with the connection: a killed instance frees it at once. When
 * the connection drops (a database restart), it reconnects and takes the lock again.
 */
export async function holdShopPresence(database: Database, opts: { waitMs?: number } = {}): Promise<ShopPresence> {
  const config = database.pool.options as pg.ClientConfig;
  let client: pg.Client | null = null;
  let released = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async () => {
    const c = new pg.Client({ ...config, statement_timeout: undefined, query_timeout: undefined });
    c.on('error', () => undefined);
    c.on('end', () => {
      if (released || client !== c) return;
      client = null;
      // Reconnect in the background; a database that is down is retried every second.
      const again = () => {
        retry = null;
        if (released) return;
        connect().catch(() => {
          if (!released) retry = setTimeout(again, 1000).unref();
        });
      };
      retry = setTimeout(again, 200).unref();
    });
    await c.connect();
    try {
      // A restore in progress holds the lock exclusively: wait for it, then serve what it restored.
      await acquire(c, SHOP_PRESENCE_LOCK_KEY, 'pg_try_advisory_lock_shared', opts.waitMs ?? 10 * 60_000);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    if (released) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
  };

  await connect();
  return {
    async release() {
      released = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
