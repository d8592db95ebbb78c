import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { openDatabase, type Database } from '../../db/client';
import { buildTestApp, type TestApp } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { confirmOffline, createProduct, readyShopper, startPayment } from '../../../tests/support/shop-fixtures';
import type { Product } from '../../../common/contracts/catalog';
import { products } from './catalog.tables';
import { CATALOG_CHANNEL, type CatalogChangeFeed } from './catalog-changes';
import { createCatalogService } from './catalog.service';

// Two app instances on one database (as behind a load balancer): a change made through one is
// seen by the other within a second, by LISTEN/NOTIFY; when that connection drops, snapshots fall
// back to a 1 s lifetime and the listener comes back by itself.

let a: TestApp;
let bDatabase: Database;
let b: FastifyInstance;

beforeAll(async () => {
  a = await buildTestApp();
  bDatabase = await openDatabase({ databaseUrl: a.config.DATABASE_URL, poolSize: 5 });
  b = await buildApp(a.config, {
    database: bDatabase,
    sessionSecret: 'test-session-secret-test-session-secret-0123',
    logger: false,
  });
  await b.ready();
});

afterAll(async () => {
  await b?.close();
  await bDatabase?.close();
  await a?.close();
});

const productOn = async (app: FastifyInstance, id: string) =>
  JSON.parse((await app.inject({ url: `/api/products/${id}` })).body) as Product;

/** Polls `read` on instance B until `done`; returns how long it took (fails after `limitMs`). */
async function waitOn<T>(read: () => Promise<T>, done: (v: T) => boolean, limitMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (done(await read())) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`not seen within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('catalogue changes across instances', () => {
  test('both instances listen once ready', () => {
    expect(a.services.catalog.isListening()).toBe(true);
    expect(b.services.catalog.isListening()).toBe(true);
  });

  test('an admin edit on A is on B (API and rendered page) within 1 s, and on A at once', async () => {
    const id = await createProduct(a.database.db, { name: 'Relay Tee', stock: 7 });
    a.services.catalog.invalidate();
    await waitOn(() => productOn(b, id), (p) => p.name === 'Relay Tee', 1000);
    // B caches the product page for this version.
    expect((await b.inject({ url: `/product/${id}` })).body).toContain('Relay Tee');

    const admin = await adminClient(a);
    const current = await productOn(a.app, id);
    const { id: _id, inStock: _i, editionSize: _e, soldCount: _s, ...payload } = current;
    const res = await admin.put(`/api/admin/products/${id}`, {
      ...payload,
      description: 'A relay of a tee. Passed between instances.',
      materials: 'Organic cotton',
      sustainabilityInfo: 'Made to order, never overproduced.',
      inStock: true,
      name: 'Relay Tee II',
      stock: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    // This instance: the very next request.
    expect(await productOn(a.app, id)).toMatchObject({ name: 'Relay Tee II', stock: 3 });
    const ms = await waitOn(() => productOn(b, id), (p) => p.name === 'Relay Tee II', 1000);
    expect(ms).toBeLessThan(1000);
    const page = await b.inject({ url: `/product/${id}` });
    expect(page.body).toContain('Relay Tee II');
    expect(page.body).not.toContain('>Relay Tee<');
  });

  test('stock held, sold and released on A shows on A at once and on B within 1 s', async () => {
    const id = await createProduct(a.database.db, { stock: 5 });
    a.services.catalog.invalidate();
    await waitOn(() => productOn(b, id), (p) => p.stock === 5, 1000);

    // A checkout hold takes 2 units.
    const shopper = await readyShopper(a, id, { quantity: 2 });
    const intent = await startPayment(shopper);
    expect((await productOn(a.app, id)).stock).toBe(3);
    expect(await waitOn(() => productOn(b, id), (p) => p.stock === 3, 1000)).toBeLessThan(1000);

    // Paying sells them: the sold count moves (edition numbers), stock stays taken.
    expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
    await waitOn(() => productOn(a.app, id), (p) => p.soldCount === 2, 1000);
    expect(await waitOn(() => productOn(b, id), (p) => p.soldCount === 2, 1000)).toBeLessThan(1000);

    // An abandoned checkout's hold goes back when it expires (the job's own path).
    const other = await readyShopper(a, id, { quantity: 1 });
    await startPayment(other);
    await waitOn(() => productOn(b, id), (p) => p.stock === 2, 1000);
    expect(await a.services.checkout.releaseExpiredHolds(new Date(Date.now() + 24 * 3600_000))).toBe(1);
    expect((await productOn(a.app, id)).stock).toBe(3);
    expect(await waitOn(() => productOn(b, id), (p) => p.stock === 3, 1000)).toBeLessThan(1000);
  });

  test('a change made on B reaches A too (both directions)', async () => {
    const id = await createProduct(bDatabase.db, { name: 'Backwards Tee' });
    b.services.catalog.invalidate();
    expect(await waitOn(() => productOn(a.app, id), (p) => p.name === 'Backwards Tee', 1000)).toBeLessThan(1000);
  });

  test('when the listening connection drops it reconnects by itself and re-reads what it may have missed', async () => {
    const id = await createProduct(a.database.db, { stock: 9 });
    a.services.catalog.invalidate();
    await waitOn(() => productOn(b, id), (p) => p.stock === 9, 1000);

    // Cut every listening connection on this database (a restart, a proxy timeout, a failover…).
    await a.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = ${`LISTEN ${CATALOG_CHANNEL}`}`,
    );
    await waitOn(async () => b.services.catalog.isListening(), (live) => !live, 2000);

    // A change nobody announces while B is not listening is still seen (by the 1 s fallback or the
    // re-read on reconnect, whichever comes first).
    await a.database.db.update(products).set({ stock: 4 }).where(eq(products.id, id));
    expect(await waitOn(() => productOn(b, id), (p) => p.stock === 4, 2500)).toBeLessThan(2500);

    // The listener comes back with backoff, and announced changes are instant again.
    await waitOn(async () => a.services.catalog.isListening() && b.services.catalog.isListening(), Boolean, 5000);
    await a.database.db.update(products).set({ stock: 2 }).where(eq(products.id, id));
    a.services.catalog.invalidate();
    expect(await waitOn(() => productOn(b, id), (p) => p.stock === 2, 1000)).toBeLessThan(1000);
  });
});

describe('catalogue snapshot lifetime', () => {
  const feed = (live: boolean): CatalogChangeFeed => ({
    live,
    publish: () => undefined,
    onRemoteChange: () => undefined,
    start: async () => undefined,
    stop: async () => undefined,
  });

  test('without a live listener a snapshot is re-read after the fallback lifetime', async () => {
    const id = await createProduct(a.database.db, { stock: 8 });
    const catalog = createCatalogService(a.database.db, { changes: feed(false), fallbackMaxAgeMs: 300 });
    expect((await catalog.getProduct(id))?.stock).toBe(8);
    await a.database.db.update(products).set({ stock: 6 }).where(eq(products.id, id));
    expect((await catalog.getProduct(id))?.stock).toBe(8);
    await new Promise((r) => setTimeout(r, 350));
    expect((await catalog.getProduct(id))?.stock).toBe(6);
  });

  test('with a live listener it is kept until a change is announced; equal content keeps its version', async () => {
    const id = await createProduct(a.database.db, { stock: 8 });
    const catalog = createCatalogService(a.database.db, { changes: feed(true), fallbackMaxAgeMs: 1 });
    const first = await catalog.current();
    await a.database.db.update(products).set({ stock: 1 }).where(eq(products.id, id));
    await new Promise((r) => setTimeout(r, 20));
    expect(await catalog.current()).toBe(first);
    catalog.invalidate();
    const second = await catalog.current();
    expect(second.byId.get(id)?.stock).toBe(1);
    expect(second.version).toBeGreaterThan(first.version);
    catalog.invalidate();
    expect((await catalog.current()).version).toBe(second.version);
  });

  test('an invalidation during a load is not answered with what that load read', async () => {
    const id = await createProduct(a.database.db, { stock: 8 });
    const catalog = createCatalogService(a.database.db, { changes: feed(true) });
    const loading = catalog.current();
    await a.database.db.update(products).set({ stock: 5 }).where(eq(products.id, id));
    catalog.invalidate();
    await loading;
    expect((await catalog.getProduct(id))?.stock).toBe(5);
  });
});
