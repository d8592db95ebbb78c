import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';

export type Db = NodePgDatabase<Record<string, never>>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  pool: pg.Pool;
  /** Opens the connections the pool keeps (keepConnections); resolves when they are open or have failed. */
  warm(): Promise<void>;
  /** The server this process started from DATA_DIR, when DATABASE_URL is not set. */
  embedded?: EmbeddedPostgres;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** An external PostgreSQL; when unset the embedded server in `dataDir` is started. */
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /**
   * Connections the pool keeps open even when idle (opened by `warm()`): a rush's first second (a drop's
   * release, a draw's opening) then does not start with PostgreSQL starting backends and checking passwords
   * for every request in flight (bench/README.md, bench:draw). Default 0: opened on demand, closed after 10 s idle.
   */
  keepConnections?: number;
  /** The shop owns its embedded database ('exclusive'); scripts may share a running one. */
  embeddedMode?: 'exclusive' | 'shared';
  log?: (msg: string) => void;
  /**
   * The embedded server could not be got back by its supervisor (another process took it while it
   * restarted): the shop must stop (main.ts exits non-zero). ADR 007, docs/operations.md.
   */
  onLost?: (err: Error) => void;
}

/** How long a stop waits for checked-out connections to come back before it stops the server anyway. */
const POOL_END_WAIT_MS = 3_000;

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  let embedded: EmbeddedPostgres | undefined;
  let url = opts.databaseUrl;
  if (!url) {
    if (!opts.dataDir) throw new Error('openDatabase needs DATABASE_URL or a data directory');
    // The app's pool connects as its own non-superuser role (embedded.url); the superuser stays with the
    // supervisor (start/stop, the owner lock, maintenance).
    embedded = await startEmbeddedPostgres({
      dir: path.join(opts.dataDir, 'postgres'),
      mode: opts.embeddedMode ?? 'exclusive',
      log: opts.log,
      onLost: opts.onLost,
    });
    url = embedded.url;
  }
  // A database that is down or cut off answers within seconds instead of hanging every request
  // (docs/operations.md, When the database goes away): the error handler turns these failures into 503 + Retry-After.
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    min: opts.keepConnections ?? 0,
    connectionTimeoutMillis: 2_000,
    statement_timeout: 10_000,
    query_timeout: 15_000,
    idle_in_transaction_session_timeout: 30_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle client whose connection dies (server restart, terminated backend) is dropped by the pool and
  // replaced on demand; without a listener that 'error' event would crash the process.
  pool.on('error', () => undefined);
  // The pool listens only while a client is idle: one checked out (a transaction, a held connection) whose
  // connection dies would emit 'error' to nobody, an uncaught exception that stops the shop. Its query in
  // flight, or its next one, fails with the connection error instead (a 503), and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  // bigint stays a string in raw SQL (count(*)); money columns are bigint cents that Drizzle reads as numbers (ADR 016).
  const db = drizzle(pool) as Db;
  return {
    db,
    pool,
    async warm() {
      // All at once, then handed back: the pool keeps `min` of them open (it closes only those above it).
      const opened = await Promise.allSettled(Array.from({ length: opts.keepConnections ?? 0 }, () => pool.connect()));
      for (const o of opened) if (o.status === 'fulfilled') o.value.release();
    },
    embedded,
    async close() {
      // pool.end() waits for every checked-out client to come back; one that never does (a bug, or a
      // request still waiting on a dead server) must not keep the stop past its bound: the embedded
      // server's stop ends those connections anyway.
      const checkedOut = pool.totalCount - pool.idleCount;
      const ended = pool.end();
      const waited = await Promise.race([ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), POOL_END_WAIT_MS).unref())]);
      if (!waited) opts.log?.(`closing the database: ${checkedOut} connection(s) still checked out after ${POOL_END_WAIT_MS / 1000} s; stopping anyway`);
      await embedded?.stop();
    },
  };
}
