import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DataDirInUseError } from './embedded-postgres';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { TestClient } from '../../tests/support/build-test-app';
import { createProduct, customer } from '../../tests/support/shop-fixtures';
import { floodCard, floodCustomer } from '../../tests/support/purchase-flood';
import { openDatabase, type Database } from './client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { migrateDatabase } from './migrate';
import { seedCatalogue } from './seed/seed';

/**
 * docs/operations.md, When the database goes away: the shop's own PostgreSQL is stopped mid-test. Writes answer 503 + Retry-After at
 * once, browsing keeps the last catalogue, /healthz answers within a second, and the shop recovers
 * within 2 s of the database coming back.
 */
let dir: string;
let server: EmbeddedPostgres;
let database: Database;
let app: FastifyInstance;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-outage-'));
  server = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), durable: false });
  database = await openDatabase({ databaseUrl: server.url, poolSize: 10 });
  await migrateDatabase(database);
  await seedCatalogue(database.db, dir, { art: false });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: 'test-admin-password',
    DATABASE_URL: server.url,
  });
  app = await buildApp(config, { database, sessionSecret: 'test-session-secret-test-session-secret-0123', logger: false });
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const out = await fn();
  return [out, Date.now() - started];
}

test('database stopped: 503 + Retry-After for what needs it, browsing served, recovery within 2 s', async () => {
  const shopper = new TestClient(app);
  const products = await shopper.get('/api/products');
  expect(products.statusCode).toBe(200);
  const product = (products.json() as Array<{ id: string; category: string; colors: Array<{ name: string }>; stock: number }>).find((p) => p.stock > 0)!;
  const categories = await shopper.get('/api/categories');
  expect((await shopper.post('/api/customer-info', customer())).statusCode).toBe(200);
  expect((await shopper.post('/api/cart', { productId: product.id, quantity: 1, selectedSize: 'M', selectedColor: product.colors[0]?.name })).statusCode).toBe(200);
  const page = await shopper.get(`/product/${product.id}`);

  await server.stop();
  // A local write dropped the snapshot just before: the last one is still what browsing gets.
  app.services.catalog.invalidate();

  for (let round = 0; round < 3; round++) {
    const [browse, browseMs] = await timed(() => shopper.get('/api/products'));
    expect(browse.statusCode).toBe(200);
    expect(browse.body).toBe(products.body);
    expect(browseMs).toBeLessThan(3_000);
    expect((await shopper.get(`/api/products/${product.id}`)).statusCode).toBe(200);
    expect((await shopper.get('/api/categories')).body).toBe(categories.body);
    expect((await shopper.get(`/api/categories/${product.category}`)).statusCode).toBe(200);
    expect((await shopper.get(`/product/${product.id}`)).statusCode).toBe(page.statusCode);

    for (const res of await Promise.all([
      shopper.get('/api/cart'),
      shopper.post('/api/customer-info', customer()),
      shopper.post('/api/create-payment-intent', {}),
      shopper.post('/api/newsletter', { email: 'outage@example.com' }),
    ])) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ message: 'The shop is briefly unavailable. Please try again in a few seconds.' });
    }
    const [health, healthMs] = await timed(() => shopper.get('/healthz'));
    expect(health.statusCode).toBe(503);
    expect(healthMs).toBeLessThan(1_000);
    await new Promise((r) => setTimeout(r, 600));
  }

  server = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), durable: false });
  const back = Date.now();
  let cart = await shopper.get('/api/cart');
  while (cart.statusCode !== 200 && Date.now() - back < 5_000) {
    await new Promise((r) => setTimeout(r, 50));
    cart = await shopper.get('/api/cart');
  }
  expect(cart.statusCode).toBe(200);
  expect(Date.now() - back).toBeLessThan(2_000);
  expect((cart.json() as unknown[]).length).toBe(1);
  const [health, healthMs] = await timed(() => shopper.get('/healthz'));
  expect(health.statusCode).toBe(200);
  expect(healthMs).toBeLessThan(1_000);
}, 60_000);

/** The postmaster's pid from its pid file. */
function postmasterPid(): number {
  return Number(fs.readFileSync(path.join(dir, 'postgres', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

async function expectWritesBack(shopper: TestClient, withinMs: number) {
  const started = Date.now();
  await expect
    .poll(async () => (await shopper.post('/api/customer-info', customer())).statusCode, { timeout: withinMs, interval: 100 })
    .toBe(200);
  return Date.now() - started;
}

test('the app connects as its own role: no superuser, owner of the shop database and of every table', async () => {
  const { rows } = await database.pool.query<{ who: string; superuser: boolean; createdb: boolean; dbOwner: string }>(
    `select current_user as who, rolsuper as superuser, rolcreatedb as createdb,
            (select pg_get_userbyid(datdba) from pg_database where datname = current_database()) as "dbOwner"
       from pg_roles where rolname = current_user`,
  );
  expect(rows[0]).toEqual({ who: 'fifty_app', superuser: false, createdb: false, dbOwner: 'fifty_app' });
  const foreign = await database.pool.query(
    `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'S', 'v') and pg_get_userbyid(c.relowner) <> 'fifty_app'`,
  );
  expect(foreign.rows).toEqual([]);
  // What only a superuser may do is refused.
  await expect(database.pool.query("copy (select 1) to program 'true'")).rejects.toMatchObject({ code: '42501' });
});

test('disk full, I/O error, out of memory in the database: 503 + Retry-After + { message }, /healthz red, never 500', async () => {
  const shopper = new TestClient(app);
  expect((await shopper.post('/api/customer-info', customer())).statusCode).toBe(200);
  for (const code of ['53100', '58030', '53200']) {
    // A trigger stands in for the real failure (a real full disk runs in bench/faults/disk-full.scenario.ts).
    await database.pool.query(
      `create or replace function fail_like_a_full_disk() returns trigger language plpgsql as
       $$ begin raise exception 'could not extend file: No space left on device' using errcode = '${code}'; end $$`,
    );
    await database.pool.query(
      'create or replace trigger fail_like_a_full_disk before insert or update on customer_info for each row execute function fail_like_a_full_disk()',
    );
    try {
      const res = await shopper.post('/api/customer-info', customer({ firstName: `Disk${code}` }));
      expect(res.statusCode, `${code}: ${res.body}`).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ message: 'The shop cannot save anything right now. Please try again in a few moments.' });
      const health = await shopper.get('/healthz');
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({ status: 'unavailable', message: expect.stringMatching(/full disk or an I\/O error/) });
    } finally {
      await database.pool.query('drop trigger fail_like_a_full_disk on customer_info');
    }
  }
  expect((await shopper.post('/api/customer-info', customer())).statusCode).toBe(200);
  // Green again once no such failure was seen for a few seconds.
  await expect.poll(async () => (await shopper.get('/healthz')).statusCode, { timeout: 10_000, interval: 250 }).toBe(200);
}, 60_000);

test('kill -9 of the postmaster: the shop starts it again itself, owns it again, and writes work within 10 s', async () => {
  const shopper = new TestClient(app);
  expect((await shopper.post('/api/customer-info', customer())).statusCode).toBe(200);
  const before = server.recoveries;
  const killedAt = Date.now();
  process.kill(postmasterPid(), 'SIGKILL');
  // A backend outlives its postmaster for a moment (a write can still pass through it), so first the
  // restart, then a write on the new server, all within the 10 s.
  await expect.poll(() => server.recoveries, { timeout: 10_000, interval: 100 }).toBe(before + 1);
  await expectWritesBack(shopper, 10_000);
  expect(Date.now() - killedAt).toBeLessThan(10_000);
  await server.healthy();
  expect(server.recoveries).toBe(before + 1);
  // The single-owner lock was taken again: a second owner is still refused.
  await expect(startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), durable: false })).rejects.toBeInstanceOf(DataDirInUseError);
}, 60_000);

test('a backend killed (PostgreSQL restarts all sessions): the owner lock is taken again and a second owner is refused', async () => {
  const shopper = new TestClient(app);
  const before = server.recoveries;
  // A connection the pool kept from before the last restart may fail once (EPIPE): the next one is fresh.
  let pid: number | undefined;
  for (let tries = 0; pid === undefined && tries < 20; tries++) {
    pid = await database.pool
      .query<{ pid: number }>('select pg_backend_pid() as pid')
      .then(({ rows }) => rows[0]!.pid)
      .catch(() => new Promise<undefined>((r) => setTimeout(() => r(undefined), 100)));
  }
  process.kill(pid!, 'SIGKILL');
  await expect.poll(() => server.recoveries, { timeout: 10_000, interval: 100 }).toBe(before + 1);
  await expectWritesBack(shopper, 10_000);
  await expect(startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), durable: false })).rejects.toBeInstanceOf(DataDirInUseError);
}, 60_000);

test('PostgreSQL restarted during a purchase flood (as an external server is): 503 + Retry-After meanwhile, nothing uncaught, purchases again after, nothing paid lost', async () => {
  const uncaught: unknown[] = [];
  const note = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', note);
  process.on('unhandledRejection', note);
  try {
    const productId = await createProduct(database.db, { stock: 50, maxPerShopper: 50 });
    await database.pool.query('update products set edition_size = 5000, stock = 5000 where id = $1', [productId]);
    const answers = { ok: 0, unavailable: 0, refused: 0 };
    const bad: string[] = [];
    const charged: Array<{ intentId: string; orderNumber: string | null }> = [];
    let stopping = false;
    let next = 0;
    /** A step's answer: a 2xx, a 4xx with its message, or the 503 + Retry-After of a database away; anything else is bad. */
    const step = async (shopper: TestClient, url: string, body: unknown) => {
      const res = await shopper.post(url, body);
      const json = res.json() as Record<string, unknown>;
      if (res.statusCode < 300) answers.ok++;
      else if (res.statusCode === 503 && res.headers['retry-after'] === '5' && json.message === 'The shop is briefly unavailable. Please try again in a few seconds.') answers.unavailable++;
      else if (res.statusCode >= 400 && res.statusCode < 500 && typeof json.message === 'string') answers.refused++;
      else bad.push(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res.statusCode < 300 ? json : null;
    };
    const purchase = async (i: number) => {
      const shopper = new TestClient(app);
      if (!(await step(shopper, '/api/cart', { productId, quantity: 1, selectedSize: 'M' }))) return;
      if (!(await step(shopper, '/api/customer-info', floodCustomer(i)))) return;
      const intent = await step(shopper, '/api/create-payment-intent', {});
      if (!intent) return;
      if (!(await step(shopper, '/api/payments/offline/confirm', { clientSecret: intent.clientSecret, ...floodCard(i) }))) return;
      const record = { intentId: String(intent.paymentIntentId), orderNumber: null as string | null };
      charged.push(record);
      // Charged: the success page asks again after a 503 until the order is there.
      for (let tries = 0; tries < 200 && !record.orderNumber; tries++) {
        const done = await step(shopper, '/api/payment-success', { paymentIntentId: record.intentId });
        if (done) record.orderNumber = String(done.orderNumber);
        else await new Promise((r) => setTimeout(r, 100));
      }
    };
    const shoppers = Array.from({ length: 20 }, async () => {
      while (!stopping) await purchase(next++);
    });
    const ordered = () => charged.filter((c) => c.orderNumber).length;
    await expect.poll(ordered, { timeout: 20_000, interval: 20 }).toBeGreaterThan(5);
    // A fast restart: PostgreSQL ends every session (transactions in flight among them), then comes back.
    await server.stop();
    await expect.poll(() => answers.unavailable, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    server = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), durable: false });
    const before = ordered();
    await expect.poll(ordered, { timeout: 15_000, interval: 50 }).toBeGreaterThan(before + 5);
    stopping = true;
    await Promise.all(shoppers);
    expect(bad).toEqual([]);
    expect(uncaught).toEqual([]);
    // Every charged shopper got their order, and every order shown is in the database.
    expect(charged.filter((c) => !c.orderNumber)).toEqual([]);
    const shown = charged.map((c) => c.orderNumber!);
    const { rows } = await database.pool.query<{ n: number }>('select count(*)::int as n from orders where order_number = any($1)', [shown]);
    expect(rows[0]!.n).toBe(shown.length);
  } finally {
    process.off('uncaughtException', note);
    process.off('unhandledRejection', note);
  }
}, 90_000);
