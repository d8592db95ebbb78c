import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { confirmOffline, customer, productState, startPayment } from '../../../tests/support/shop-fixtures';
import { openDatabase } from '../client';
import { prepareDatabase } from '../prepare';
import { discountSeeds, seedProducts } from './catalog-data';
import { seedCatalogue } from './seed';
import { readSizeStock } from '../../modules/inventory/variants.repository';

describeEachDb('demo catalogue edition history', (t) => {
  test('every seeded product accounts for its fifty pieces: sold + left = edition size', async () => {
    const products = await t().services.catalog.listProducts();
    expect(products).toHaveLength(seedProducts.length);
    for (const p of products) {
      const state = await productState(t().database.db, p.id);
      expect(p.editionSize, p.name).toBe(50);
      expect(state.soldCount + state.stock, p.name).toBe(p.editionSize);
    }
  });

  test('the next pieces sold get the next numbers, in the same words on every surface', async () => {
    const product = (await t().services.catalog.listProducts()).find((p) => p.name === 'Night Shift Tee')!;
    expect(product.stock).toBe(7);
    const shopper = t().client();
    const add = await shopper.post('/api/cart', {
      productId: product.id,
      quantity: 2,
      selectedSize: 'M',
      selectedColor: 'Charcoal',
    });
    expect(add.statusCode, add.body).toBe(200);
    expect(
      (await shopper.post('/api/customer-info', customer({ email: 'night@example.com' }))).statusCode,
    ).toBe(200);
    const intent = await startPayment(shopper);
    expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);

    const order = (await shopper.get('/api/orders/latest')).json() as {
      orderNumber: string;
      items: Array<{ editionNumbers: number[]; editionSize: number; selectedColor: string | null }>;
    };
    expect(order.items[0]).toMatchObject({
      editionNumbers: [44, 45],
      editionSize: 50,
      selectedColor: 'Charcoal',
    });
    expect(await productState(t().database.db, product.id)).toEqual({ stock: 5, soldCount: 45 });

    await t().services.fulfilment.drain();
    const outbox = path.join(t().dataDir, 'outbox');
    const mail = fs
      .readdirSync(outbox)
      .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
      .find((m) => m.includes('night@example.com'));
    expect(mail).toContain('Nos. 44, 45 of 50');

    const admin = await adminClient(t());
    const csv = (await admin.get('/api/admin/orders.csv')).body;
    expect(csv).toContain('Night Shift Tee (M, Charcoal) x2 @ ');
    expect(csv).toContain('[Nos. 44, 45 of 50]');
  });
});

describe('three instances starting together on one empty database', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-seed-race-'));
  const name = `fifty_seed_race_${crypto.randomBytes(4).toString('hex')}`;
  const baseUrl = inject('testDatabaseUrl');
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;

  async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
    const c = new pg.Client({ connectionString: baseUrl });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  }

  const migrated = `${name}_migrated`;
  const migratedUrl = new URL(baseUrl);
  migratedUrl.pathname = `/${migrated}`;

  beforeAll(() =>
    admin(async (c) => {
      await c.query(`create database ${name}`);
      await c.query(`create database ${migrated} template ${inject('testTemplateDatabase')}`);
    }),
  );
  afterAll(async () => {
    await admin(async (c) => {
      await c.query(`drop database if exists ${name} with (force)`);
      await c.query(`drop database if exists ${migrated} with (force)`);
    });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('migrate and seed the demo catalogue once: 18 products, not 54', async () => {
    const instances = await Promise.all([0, 1, 2].map(() => openDatabase({ databaseUrl: url.toString(), poolSize: 3 })));
    const seeded: string[] = [];
    try {
      // What each server does before it listens (server/main.ts).
      await Promise.all(instances.map((d, i) => prepareDatabase(d, dataDir, { art: false, log: (m) => seeded.push(`${i}: ${m}`) })));
      const { rows } = await instances[0].pool.query<{ n: number; names: number }>(
        'select count(*)::int as n, count(distinct name)::int as names from products',
      );
      expect(rows[0]).toEqual({ n: seedProducts.length, names: seedProducts.length });
      expect(seedProducts.length).toBe(18);
      expect(seeded).toHaveLength(1);
      const codes = await instances[0].pool.query<{ n: number }>('select count(*)::int as n from discount_codes');
      expect(codes.rows[0].n).toBe(discountSeeds.length);
    } finally {
      await Promise.all(instances.map((d) => d.close()));
    }
  });

  test('the instance writing the catalogue holds the migration lock while it does, so the others wait and find it seeded', async () => {
    // The test holds the products table: the first instance to insert the catalogue waits there.
    const blocker = new pg.Client({ connectionString: migratedUrl.toString() });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('lock table products in share row exclusive mode');
    const instances = await Promise.all([0, 1, 2].map(() => openDatabase({ databaseUrl: migratedUrl.toString(), poolSize: 3 })));
    try {
      const preparing = Promise.all(instances.map((d) => prepareDatabase(d, dataDir, { art: false, log: () => undefined })));
      const waiting = async () =>
        (
          await blocker.query<{ pid: number; holds_migration_lock: boolean }>(
            `select l.pid, exists (select 1 from pg_locks a where a.pid = l.pid and a.locktype = 'advisory' and a.objid = 505050 and a.granted)
                    as holds_migration_lock
               from pg_locks l
              where l.relation = 'products'::regclass and not l.granted
                -- pg_locks lists the whole cluster: another test file's database, cloned from the same
                -- template, has a products table with the same oid and may have a waiter of its own.
                and l.database = (select oid from pg_database where datname = current_database())`,
          )
        ).rows;
      await expect.poll(async () => (await waiting()).length, { timeout: 10_000 }).toBeGreaterThan(0);
      // Seeding outside the lock would show here as an inserter without it (and, released, as 54 products).
      expect((await waiting()).every((w) => w.holds_migration_lock)).toBe(true);
      await blocker.query('commit');
      await preparing;
      const { rows } = await instances[0].pool.query<{ n: number }>('select count(*)::int as n from products');
      expect(rows[0].n).toBe(seedProducts.length);
    } finally {
      await blocker.end();
      await Promise.all(instances.map((d) => d.close()));
    }
  });
});

describeEachDb(
  'demo size runs (ADR 015)',
  (t) => {
    test('every product with sizes is split into a realistic run whose pieces, left and sold add up to the product', async () => {
      const db = t().database.db;
      await seedCatalogue(db, fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-seed-runs-')), { art: false, sizeRuns: true });
      const products = await t().services.catalog.listProducts();
      const runs = await readSizeStock(db, products.map((p) => p.id));
      for (const p of products) {
        const run = runs.get(p.id) ?? [];
        expect(run.map((s) => s.size), p.name).toEqual(p.sizes);
        if (p.sizes.length === 0) continue;
        expect(run.reduce((a, s) => a + s.pieces, 0), p.name).toBe(p.editionSize);
        expect(run.reduce((a, s) => a + s.left, 0), p.name).toBe(p.stock);
        expect(run.reduce((a, s) => a + s.sold, 0), p.name).toBe(p.soldCount);
        for (const s of run) expect(s.soldOutAt !== null, `${p.name} ${s.size}`).toBe(s.left === 0);
      }
      // A tee of 50: 5/10/15/10/5/5 over XS–XXL.
      const tee = products.find((p) => p.sizes.join() === 'XS,S,M,L,XL,XXL')!;
      expect(runs.get(tee.id)!.map((s) => s.pieces)).toEqual([5, 10, 15, 10, 5, 5]);
    });
  },
  { seed: false },
);
