import { eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { confirmOffline, createProduct, readyShopper, startPayment } from '../../../tests/support/shop-fixtures';
import type { Db } from '../../db/client';
import { products } from '../catalog/catalog.tables';
import { checkouts } from '../checkout/checkout.tables';

/** The edition cap (docs/operations.md): sold + held + stock never exceeds the edition size, whoever writes. */
describeEachDb('the edition cap', (t) => {
  async function counts(db: Db, id: string) {
    const [row] = await db
      .select({ stock: products.stock, held: products.heldCount, sold: products.soldCount, size: products.editionSize })
      .from(products)
      .where(eq(products.id, id));
    return row!;
  }

  test('a CHECK constraint refuses more pieces than the edition has, even from raw SQL', async () => {
    const db = t().database.db;
    const id = await createProduct(db, { stock: 10 });
    await db.update(products).set({ soldCount: 40 }).where(eq(products.id, id));
    await expect(db.update(products).set({ stock: 11 }).where(eq(products.id, id))).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '23514', constraint: 'products_within_edition' }) as unknown,
    });
    await expect(db.update(products).set({ stock: 1_000_000 }).where(eq(products.id, id))).rejects.toThrow();
    expect(await counts(db, id)).toEqual({ stock: 10, held: 0, sold: 40, size: 50 });
  });

  test('held units are counted on the product through hold, expiry, and sale', async () => {
    const db = t().database.db;
    const id = await createProduct(db, { stock: 5 });
    const shopper = await readyShopper(t(), id, { quantity: 2 });
    const intent = await startPayment(shopper);
    expect(await counts(db, id)).toMatchObject({ stock: 3, held: 2, sold: 0 });
    await db.update(checkouts).set({ holdExpiresAt: sql`now() - interval '1 second'` }).where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
    expect(await t().services.checkout.releaseExpiredHolds()).toBe(1);
    expect(await counts(db, id)).toMatchObject({ stock: 5, held: 0, sold: 0 });
    // Paid late while the units are still there: taken again, then sold.
    expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
    expect((await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId })).statusCode).toBe(200);
    expect(await counts(db, id)).toMatchObject({ stock: 3, held: 0, sold: 2 });
  });

  test('a sold-out edition cannot be restocked; the admin says how many pieces remain unmade', async () => {
    const admin = await adminClient(t());
    const db = t().database.db;
    const product = (await t().services.catalog.listProducts())[0]!;
    await db.update(products).set({ stock: 0, soldCount: 50, editionSize: 50 }).where(eq(products.id, product.id));
    const restock = await admin.put(`/api/admin/products/${product.id}`, { ...product, stock: 5 });
    expect(restock.statusCode).toBe(400);
    expect(restock.json()).toEqual({ message: 'All 50 pieces of this edition are made: a sold-out edition cannot be restocked' });
    expect(await counts(db, product.id)).toMatchObject({ stock: 0, sold: 50, size: 50 });

    await db.update(products).set({ stock: 0, soldCount: 47 }).where(eq(products.id, product.id));
    const over = await admin.put(`/api/admin/products/${product.id}`, { ...product, stock: 1_000_000 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ message: 'Only 3 pieces of this edition remain unmade: 47 of 50 are sold' });
    expect((await admin.put(`/api/admin/products/${product.id}`, { ...product, stock: 3 })).statusCode).toBe(200);
  });

  test('the edition size is set per product, defaults to 50 and never drops below the pieces sold', async () => {
    const admin = await adminClient(t());
    const db = t().database.db;
    const { editionSize: _, ...base } = (await t().services.catalog.listProducts())[1]!;
    const created = await admin.post('/api/admin/products', { ...base, name: 'Small Run Tee', images: [], stock: 10 });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    expect(await counts(db, id)).toMatchObject({ size: 50 });
    const tiny = await admin.post('/api/admin/products', { ...base, name: 'Tiny', images: [], stock: 13, editionSize: '12' });
    expect(tiny.json()).toEqual({ message: 'Only 12 pieces of this edition remain unmade: 0 of 12 are sold' });

    await db.update(products).set({ soldCount: 30 }).where(eq(products.id, id));
    const product = (await t().services.catalog.listProducts()).find((p) => p.id === id)!;
    const below = await admin.put(`/api/admin/products/${id}`, { ...product, stock: 0, editionSize: 29 });
    expect(below.statusCode).toBe(400);
    expect(below.json()).toEqual({ message: 'The edition size cannot be below the 30 pieces already sold' });
    const bigger = await admin.put(`/api/admin/products/${id}`, { ...product, stock: 20, editionSize: 50 });
    expect(bigger.statusCode).toBe(200);
    const smaller = await admin.put(`/api/admin/products/${id}`, { ...product, stock: 5, editionSize: 35 });
    expect(smaller.statusCode, smaller.body).toBe(200);
    expect(await counts(db, id)).toEqual({ stock: 5, held: 0, sold: 30, size: 35 });
    expect((smaller.json() as { editionSize: number }).editionSize).toBe(35);
    const bad = await admin.put(`/api/admin/products/${id}`, { ...product, stock: 0, editionSize: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Edition size must be a whole number from 1 to 10,000' });
  });
});
