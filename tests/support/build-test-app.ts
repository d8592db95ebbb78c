import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppDeps } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import { migrateDatabase } from '../../server/db/migrate';
import { seedCatalogue } from '../../server/db/seed/seed';
import type { Services } from '../../server/services';
import { solvePow } from './pow';

/** The PostgreSQL server of this test run (tests/support/global-setup.ts): embedded, or TEST_DATABASE_URL. */
function baseUrl(): string {
  return inject('testDatabaseUrl');
}

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `fifty_test_${crypto.randomBytes(6).toString('hex')}`;
  const PG_BASE_URL = baseUrl();
  const admin = new pg.Client({ connectionString: PG_BASE_URL });
  await admin.connect();
  // A copy of the run's migrated template: no migrations to run per suite.
  await admin.query(`create database ${name} template ${inject('testTemplateDatabase')}`);
  await admin.end();
  const url = new URL(PG_BASE_URL);
  url.pathname = `/${name}`; // a socket URL keeps its ?host=
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
  env?: Record<string, string>;
  /** Seed the demo catalogue (without rendering art). Default true. */
  seed?: boolean;
  deps?: Partial<AppDeps>;
}

export async function buildTestApp(opts: BuildTestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-test-'));
  const created = await createPostgresDatabase();
  const databaseUrl = created.url;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: 'test-admin-password',
    DATABASE_URL: databaseUrl,
    // A solve is still required and checked everywhere, but costs ~20 tries instead of ~2,000: the proof of
    // work's strength is the bot check's own tests' subject (server/modules/bot-check), and at full size
    // the hundreds of solves of the suite took minutes (a 50-join test ran past its minute on a busy box).
    POW_TRIES: '20',
    ...opts.env,
  });
  const database = await openDatabase({ databaseUrl, poolSize: 20 });
  await migrateDatabase(database);
  if (opts.seed ?? true) await seedCatalogue(database.db, dataDir, { art: false });
  const app = await buildApp(config, {
    database,
    sessionSecret: 'test-session-secret-test-session-secret-0123',
    logger: false,
    // The suite runs beside the browser run: on a loaded 2-core box one count took over the shop's 1 s, and
    // the limiter let requests through uncounted (as it should) while a test asserted its budget. Budgets
    // are this harness's subject; the pass-through on a slow count is tested on a counter of its own.
    rateLimitCounter: { statementTimeoutMs: 15_000 },
    ...opts.deps,
  });
  await app.ready();
  return {
    app,
    services: app.services,
    database,
    config,
    dataDir,
    client: () => new TestClient(app),
    async close() {
      await app.close();
      await database.close();
      await created.drop();
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
  /**
   * Like a browser on the storefront, a newsletter signup solves the bot check first (GET
   * /api/pow-challenge) unless the payload names its own `altcha` (undefined: send none).
   */
  async post(url: string, payload?: unknown) {
    let body = (payload ?? {}) as Record<string, unknown>;
    if (url === '/api/newsletter' && typeof body === 'object' && !Array.isArray(body) && !Object.hasOwn(body, 'altcha')) {
      const challenge = await this.get('/api/pow-challenge');
      body = { ...body, altcha: await solvePow(challenge.json()) };
    }
    return this.request({ method: 'POST', url, payload: body, headers: { 'content-type': 'application/json' } });
  }
  put(url: string, payload?: unknown) {
    return this.request({ method: 'PUT', url, payload: (payload ?? {}) as object, headers: { 'content-type': 'application/json' } });
  }
  delete(url: string) {
    return this.request({ method: 'DELETE', url });
  }
}

/** A suite with its own shop on its own database (created on the run's PostgreSQL, dropped after). */
export function describeEachDb(name: string, body: (ctx: () => TestApp) => void, opts: BuildTestAppOptions = {}) {
  describe(name, () => {
    let t: TestApp | null = null;
    beforeAll(async () => {
      t = await buildTestApp(opts);
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
