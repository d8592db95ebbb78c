import { asc, eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { confirmOffline, createProduct, readyShopper } from '../../../tests/support/shop-fixtures';
import { products } from '../catalog/catalog.tables';
import { orderItems } from '../orders/orders.tables';
import { stockHolds } from './inventory.tables';
import { productVariants } from './variants.tables';
import { replaceSizeRun } from './variants.repository';

/** Stock per size on the real buying path (ADR 015): a size sells out on its own, never oversold. */
describeEachDb('sizes on the buying path', (t) => {
  /** A tee of 12 split into 2 M and 10 L (S is listed but not in the run). */
  async function splitTee(name: string): Promise<string> {
    const db = t().database.db;
    const id = await createProduct(db, { name, stock: 12, sizes: ['S', 'M', 'L'] });
    await db.update(products).set({ editionSize: 12 }).where(eq(products.id, id));
    const split = await db.transaction((tx) =>
      replaceSizeRun(tx, id, [
        { size: 'M', pieces: 2 },
        { size: 'L', pieces: 10 },
      ]),
    );
    expect(split.ok).toBe(true);
    return id;
  }

  async function state(id: string) {
    const db = t().database.db;
    const [p] = await db
      .select({ stock: products.stock, held: products.heldCount, sold: products.soldCount, edition: products.editionSize })
      .from(products)
      .where(eq(products.id, id));
    const sizes = await db
      .select({ size: productVariants.size, stock: productVariants.stock, held: productVariants.heldCount, sold: productVariants.soldCount })
      .from(productVariants)
      .where(eq(productVariants.productId, id))
      .orderBy(asc(productVariants.position));
    const sum = (k: 'stock' | 'held' | 'sold') => sizes.reduce((a, s) => a + s[k], 0);
    // The product row is the sum of its sizes, and the edition is never exceeded.
    expect({ stock: p!.stock, held: p!.held, sold: p!.sold }).toEqual({ stock: sum('stock'), held: sum('held'), sold: sum('sold') });
    expect(p!.stock + p!.held + p!.sold).toBeLessThanOrEqual(p!.edition);
    return Object.fromEntries(sizes.map((s) => [s.size ?? '', { stock: s.stock, held: s.held, sold: s.sold }]));
  }

  async function buy(shopper: Awaited<ReturnType<typeof readyShopper>>) {
    const res = await shopper.post('/api/create-payment-intent', {});
    if (res.statusCode !== 200) return { status: res.statusCode, message: (res.json() as { message: string }).message };
    const intent = res.json() as { clientSecret: string; paymentIntentId: string };
    await confirmOffline(shopper, intent.clientSecret);
    const done = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
    return { status: done.statusCode };
  }

  test('10 shoppers race for the last 2 M while L is plenty: exactly 2 M sold, L unaffected, sums kept', async () => {
    const id = await splitTee('Race Tee');
    const forM = await Promise.all(Array.from({ length: 10 }, () => readyShopper(t(), id, { size: 'M' })));
    const forL = await Promise.all(Array.from({ length: 3 }, () => readyShopper(t(), id, { size: 'L' })));
    const [mOutcomes, lOutcomes] = await Promise.all([Promise.all(forM.map(buy)), Promise.all(forL.map(buy))]);

    expect(mOutcomes.filter((o) => o.status === 200)).toHaveLength(2);
    const refused = mOutcomes.filter((o) => o.status !== 200);
    expect(refused).toHaveLength(8);
    for (const r of refused) expect(r).toEqual({ status: 409, message: 'Sorry, Race Tee in M just sold out' });
    expect(lOutcomes).toEqual([{ status: 200 }, { status: 200 }, { status: 200 }]);

    expect(await state(id)).toEqual({
      M: { stock: 0, held: 0, sold: 2 },
      L: { stock: 7, held: 0, sold: 3 },
    });
    // Edition numbers stay per design, whatever the size: 1–5, each once.
    const items = await t().database.db.select({ n: orderItems.editionNumbers, size: orderItems.selectedSize }).from(orderItems).where(eq(orderItems.productId, id));
    expect(items.flatMap((i) => i.n).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    expect(items.filter((i) => i.size === 'M')).toHaveLength(2);

    // Live stock says what is left of each size (the product page greys M); `left` stays the sum.
    const live = await t().client().get(`/api/products/${id}/stock`);
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({
      left: 7,
      sizeStock: [
        { size: 'M', colour: null, left: 0 },
        { size: 'L', colour: null, left: 7 },
      ],
    });

    // The cart now refuses the sold-out size, naming it; L can still be added.
    const late = t().client();
    const add = await late.post('/api/cart', { productId: id, quantity: 1, selectedSize: 'M' });
    expect(add.statusCode).toBe(409);
    expect(add.json()).toEqual({ message: 'Sorry, M is sold out' });
    expect((await late.post('/api/cart', { productId: id, quantity: 1, selectedSize: 'L' })).statusCode).toBe(200);
  });

  test('a hold takes from its size and an expired hold gives its piece back to that size', async () => {
    const id = await splitTee('Hold Tee');
    const shopper = await readyShopper(t(), id, { size: 'M' });
    const res = await shopper.post('/api/create-payment-intent', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(await state(id)).toEqual({ M: { stock: 1, held: 1, sold: 0 }, L: { stock: 10, held: 0, sold: 0 } });
    const [hold] = await t().database.db.select().from(stockHolds).where(eq(stockHolds.productId, id));
    const [m] = await t().database.db.select().from(productVariants).where(eq(productVariants.productId, id)).orderBy(asc(productVariants.position));
    expect(hold!.variantId).toBe(m!.id);

    expect(await t().services.checkout.releaseExpiredHolds(new Date(Date.now() + 24 * 3600_000))).toBe(1);
    expect(await state(id)).toEqual({ M: { stock: 2, held: 0, sold: 0 }, L: { stock: 10, held: 0, sold: 0 } });
  });

  test('a cart line cannot be raised past what its size has left', async () => {
    const id = await splitTee('Raise Tee');
    const shopper = t().client();
    const add = await shopper.post('/api/cart', { productId: id, quantity: 1, selectedSize: 'M' });
    expect(add.statusCode, add.body).toBe(200);
    const lineId = (add.json() as { id: string }).id;
    const raise = await shopper.put(`/api/cart/${lineId}`, { quantity: 3 });
    expect(raise.statusCode).toBe(409);
    expect(raise.json()).toEqual({ message: 'Only 2 left in M' });
  });

  test('an unsplit product still holds and sells through its one run', async () => {
    const db = t().database.db;
    const id = await createProduct(db, { name: 'Plain Tee', stock: 3 });
    const shopper = await readyShopper(t(), id);
    expect(await buy(shopper)).toEqual({ status: 200 });
    expect(await state(id)).toEqual({ '': { stock: 2, held: 0, sold: 1 } });
  });
});
