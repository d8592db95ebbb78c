import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppDeps } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import { migrateDatabase } from '../../server/db/migrate';
import { seedCatalogue } from '../../server/db/seed/seed';
import type { Services } from '../../server/services';

export type DbKind = 'pglite' | 'postgres';

const PG_BASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let pgProbe: Promise<string | null> | null = null;
/** null when PostgreSQL answers; otherwise the reason it is skipped. */
export function postgresUnavailableReason(): Promise<string | null> {
  pgProbe ??= (async () => {
    const client = new pg.Client({ connectionString: PG_BASE_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return null;
    } catch (err) {
      return `PostgreSQL at ${PG_BASE_URL} is not reachable (${(err as Error).message})`;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return pgProbe;
}

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `fifty_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_BASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_BASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_BASE_URL });
      c.on('error', () => undefined);
      await c.connect();
      try {
        // Sockets of the closed pool may still be leaving: wait for them rather than kill them
        // (a forced drop makes their late 57P01 "admin_shutdown" surface as an unhandled error).
        for (let attempt = 0; attempt < 30; attempt++) {
          const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if ((rows[0] as { n: number }).n === 0) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface TestApp {
  kind: DbKind;
  app: FastifyInstance;
  services: Services;
  database: Database;
  config: Config;
  dataDir: string;
  /** A shopper with their own cookie jar. */
  client(): TestClient;
  close(): Promise<void>;
}

export interface BuildTestAppOptions {
  kind?: DbKind;
  env?: Record<string, string>;
  /** Seed the demo catalogue (without rendering art). Default true. */
  seed?: boolean;
  deps?: Partial<AppDeps>;
}

export async function buildTestApp(opts: BuildTestAppOptions = {}): Promise<TestApp> {
  const kind = opts.kind ?? 'pglite';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-test-'));
  let dropDb: (() => Promise<void>) | null = null;
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    const created = await createPostgresDatabase();
    databaseUrl = created.url;
    dropDb = created.drop;
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: 'test-admin-password',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...opts.env,
  });
  const database = await openDatabase({ databaseUrl, poolSize: 20 });
  await migrateDatabase(database);
  if (opts.seed ?? true) await seedCatalogue(database.db, dataDir, { art: false });
  const app = await buildApp(config, {
    database,
    sessionSecret: 'test-session-secret-test-session-secret-0123',
    logger: false,
    ...opts.deps,
  });
  await app.ready();
  return {
    kind,
    app,
    services: app.services,
    database,
    config,
    dataDir,
    client: () => new TestClient(app),
    async close() {
      await app.close();
      await database.close();
      if (dropDb) await dropDb();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** app.inject with a cookie jar, so each instance is one anonymous shopper. */
export class TestClient {
  cookies = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(opts: InjectOptions): Promise<LightMyRequestResponse> {
    const headers = { ...(opts.headers ?? {}) } as Record<string, string>;
    if (this.cookies.size) headers.cookie = this.cookieHeader;
    const res = await this.app.inject({ ...opts, headers });
    for (const c of res.cookies) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }
  post(url: string, payload?: unknown) {
    return this.request({ method: 'POST', url, payload: (payload ?? {}) as object, headers: { 'content-type': 'application/json' } });
  }
  put(url: string, payload?: unknown) {
    return this.request({ method: 'PUT', url, payload: (payload ?? {}) as object, headers: { 'content-type': 'application/json' } });
  }
  delete(url: string) {
    return this.request({ method: 'DELETE', url });
  }
}

// Decided once at collection time so a skipped PostgreSQL suite is reported as skipped.
const pgSkipReason = await postgresUnavailableReason();
if (pgSkipReason) console.log(`SKIPPED on PostgreSQL: ${pgSkipReason}`);

/**
 * Runs a suite against PGlite always and against PostgreSQL when it answers
 * (skipped with a printed reason when it does not).
 */
export function describeEachDb(name: string, body: (ctx: () => TestApp) => void, opts: Omit<BuildTestAppOptions, 'kind'> = {}) {
  for (const kind of ['pglite', 'postgres'] as const) {
    const skip = kind === 'postgres' && pgSkipReason !== null;
    describe.skipIf(skip)(`${name} [${kind}]`, () => {
      let t: TestApp | null = null;
      beforeAll(async () => {
        t = await buildTestApp({ ...opts, kind });
      });
      afterAll(async () => {
        await t?.close();
      });
      body(() => {
        if (!t) throw new Error('test app not built');
        return t;
      });
    });
  }
}
