import path from 'node:path';
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';

// Both drivers expose the same PgDatabase query API; code is written against one type.
export type Db = NodePgDatabase<Record<string, never>>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  pool?: pg.Pool;
  pglite?: PGlite;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Directory for the embedded database; omit for an in-memory one (tests). */
  dataDir?: string;
  /** Reuse an already-open PGlite (tests that clone a migrated template). */
  pglite?: PGlite;
  poolSize?: number;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle client whose connection dies (server restart, terminated backend) is dropped by the pool and
    // replaced on demand; without a listener that 'error' event would crash the process.
    pool.on('error', () => undefined);
    // numeric stays a string (money is never a float); bigint count(*) too.
    const db = drizzlePg(pool) as Db;
    return { db, kind: 'postgres', pool, close: () => pool.end() };
  }
  let client = opts.pglite;
  if (!client) {
    if (opts.dataDir) {
      const dir = path.join(opts.dataDir, 'pglite');
      fs.mkdirSync(dir, { recursive: true });
      client = await PGlite.create(dir);
    } else {
      client = await PGlite.create();
    }
  }
  const owned = client;
  const db = drizzlePglite(owned) as unknown as Db;
  return { db, kind: 'pglite', pglite: owned, close: () => owned.close() };
}
