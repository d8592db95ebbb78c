// Three shop instances on an external PostgreSQL (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432),
// restarted (`pg_ctlcluster 15 main restart -m fast`, BENCH_PG_CLUSTER) twice during a purchase flood of 200
// shoppers spread over the three (FAULTS_PG_RESTARTS, FAULTS_FLOOD_SHOPPERS). Per restart: instances that
// exited (none may: a lost connection is the request's 503, docs/operations.md), and the time until
// purchases go through again; over the whole run, paid-lost and answers other than 2xx / 4xx / 503.
// Skipped, with a line, when that server is not up (CI has none): the fault tests restart the embedded one.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Scenario } from '../scenario-runner';
import { createPgDatabase } from '../support/pg-database';
import { spawnShop, waitHealthy, type ShopProcess } from '../../tests/support/shop-process';
import { startPurchaseFlood, type Flood } from '../../tests/support/purchase-flood';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLUSTER = (process.env.BENCH_PG_CLUSTER ?? '15 main').split(' ');
const RESTARTS = Number(process.env.FAULTS_PG_RESTARTS ?? 2);
const SHOPPERS = Number(process.env.FAULTS_FLOOD_SHOPPERS ?? 200);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function reachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2_000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/** Restarts the server; resolves when pg_ctlcluster is done (the floods go on meanwhile: not spawnSync). */
function restartServer(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('pg_ctlcluster', [...CLUSTER, 'restart', '-m', 'fast'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctlcluster ${CLUSTER.join(' ')} restart: ${err}`))));
  });
}

const scenario: Scenario = async () => {
  if (!(await reachable()) || spawnSync('pg_ctlcluster', ['--help']).error) {
    console.log(`skipped: no PostgreSQL at ${PG_URL.replace(/\/\/[^@]*@/, '//')} (or no pg_ctlcluster to restart it)`);
    return { rows: [{ what: 'external PostgreSQL restarted under three instances', target: 'run', measured: 'skipped: no server', ok: true }] };
  }
  const database = await createPgDatabase(PG_URL);
  const dirs: string[] = [];
  const shops: ShopProcess[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-bench-pgrestart-'));
      dirs.push(dataDir);
      const shop = await spawnShop({ dataDir, env: { DATABASE_URL: database.url, RATE_LIMITS: 'off', LOG_LEVEL: 'error' } });
      shops.push(shop);
      await waitHealthy(shop, 120_000);
    }
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const { rows } = await db.query<{ id: string }>(
      `insert into products (name, price_cents, category, stock, edition_size, sizes, colors, max_per_shopper)
       values ('Flood Tee', 4500, 'tshirts', 100000, 100000, '["M"]', '[{"name":"White","value":"#FFFFFF"}]', 50) returning id`,
    );
    await db.query("select pg_notify('fifty_catalog', 'bench')");
    await db.end();
    const productId = rows[0]!.id;

    // Idle first: the same restart with nobody buying.
    const idleStarted = Date.now();
    await restartServer();
    await Promise.all(shops.map((s) => waitHealthy(s, 30_000)));
    const idleMs = Date.now() - idleStarted;

    const floods: Flood[] = shops.map((s, i) =>
      startPurchaseFlood(s.base, { shoppers: Math.ceil(SHOPPERS / 3), productId, firstShopper: i * 1_000_000 }),
    );
    const ordered = () => floods.reduce((n, f) => n + f.ordered, 0);
    while (ordered() < 100) await sleep(50);
    const restarts: Array<{ exited: number; backMs: number; restartMs: number }> = [];
    for (let r = 0; r < RESTARTS; r++) {
      const started = Date.now();
      const before = ordered();
      await restartServer();
      const restartMs = Date.now() - started;
      const afterRestart = ordered();
      let backMs = Infinity;
      let firstMs = Infinity;
      while (Date.now() - started < 40_000 && shops.every((s) => s.child.exitCode === null)) {
        if (firstMs === Infinity && ordered() > afterRestart) firstMs = Date.now() - started;
        if (ordered() > afterRestart + 30) {
          backMs = Date.now() - started;
          break;
        }
        await sleep(20);
      }
      restarts.push({ exited: shops.filter((s) => s.child.exitCode !== null).length, backMs, restartMs });
      console.log(
        `restart ${r + 1}: ${restarts[r]!.exited} of 3 instances exited; pg_ctlcluster took ${restartMs} ms ` +
          `(${afterRestart - before} orders meanwhile); the next order ${firstMs} ms, 30 more ${backMs} ms after the restart began`,
      );
      await sleep(3_000);
    }
    const reports = await Promise.all(floods.map((f) => f.stop()));
    const exits = shops.filter((s) => s.child.exitCode !== null).length;
    for (const s of shops) if (s.child.exitCode === null) s.child.kill('SIGTERM');
    const codes = await Promise.all(shops.map((s) => s.exited.then((e) => e.code)));
    const check = new pg.Client({ connectionString: database.url });
    await check.connect();
    const shown = reports.flatMap((r) => r.orders);
    const charged = reports.flatMap((r) => r.charged.map((c) => c.intentId));
    const found = await check.query<{ n: number }>('select count(*)::int as n from orders where order_number = any($1)', [shown]);
    const paidNoOrder = await check.query<{ n: number }>(
      'select count(*)::int as n from unnest($1::text[]) as i(id) where not exists (select 1 from orders o where o.stripe_payment_intent_id = i.id)',
      [charged],
    );
    await check.end();
    const lost = shown.length - found.rows[0]!.n + paidNoOrder.rows[0]!.n;
    const bad = reports.reduce((n, r) => n + r.bad.length, 0);
    console.log(
      `idle restart: healthy again in ${idleMs} ms; ${shown.length} orders over ${RESTARTS} restarts; lost ${lost}; other failures ${bad}` +
        `${bad ? ` (${reports.flatMap((r) => r.bad).slice(0, 3).join(' | ')})` : ''}; exit codes ${codes.join(', ')}`,
    );
    const maxBack = Math.max(...restarts.map((r) => r.backMs));
    return {
      rows: [
        { what: `instances that exited (3 instances, ${RESTARTS} restarts under ${SHOPPERS} shoppers)`, target: '0', measured: String(exits), ok: exits === 0 },
        { what: 'paid lost: shown orders missing + charged without an order', target: '0', measured: `${lost} of ${shown.length}`, ok: lost === 0 },
        { what: 'answers other than 2xx / 4xx / 503 + Retry-After', target: '0', measured: String(bad), ok: bad === 0 },
        {
          what: 'restart under the flood → 30 more orders (max; the restart itself, max)',
          target: '≤ 10 s after the restart is done',
          measured: `${maxBack} ms (${Math.max(...restarts.map((r) => r.restartMs))} ms; idle: healthy in ${idleMs} ms)`,
          ok: restarts.every((r) => r.backMs - r.restartMs <= 10_000),
        },
        { what: 'SIGTERM afterwards → exit 0', target: '3/3', measured: `${codes.filter((c) => c === 0).length}/3`, ok: codes.every((c) => c === 0) },
      ],
    };
  } finally {
    for (const s of shops) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await database.drop().catch(() => undefined);
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
};
export default scenario;
