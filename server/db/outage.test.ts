import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { TestClient } from '../../tests/support/build-test-app';
import { customer } from '../../tests/support/shop-fixtures';
import { openDatabase, type Database } from './client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { migrateDatabase } from './migrate';
import { seedCatalogue } from './seed/seed';

/**
 * Issue 12 item 6: the shop's own PostgreSQL is stopped mid-test. Writes answer 503 + Retry-After at
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
