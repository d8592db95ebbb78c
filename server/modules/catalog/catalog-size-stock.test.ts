import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { confirmOffline, createProduct, readyShopper } from '../../../tests/support/shop-fixtures';
import { productListSchema } from '../../../common/contracts/catalog';
import { replaceSizeRun } from '../inventory/variants.repository';
import { products } from './catalog.tables';

/**
 * The catalogue JSON carries the pieces left per size of a product split into sizes (ADR 015), so every
 * product card greys a sold-out size (docs/product.md); a product of one pool carries none.
 */
describeEachDb('the catalogue JSON: stock per size', (t) => {
  test('a split product lists what is left of each size in /api/products and /api/products/:id, and follows a sale; one pool lists none', async () => {
    const db = t().database.db;
    const id = await createProduct(db, { name: 'Size Tee', stock: 3, sizes: ['S', 'M', 'L'] });
    await db.update(products).set({ editionSize: 3 }).where(eq(products.id, id));
    const split = await db.transaction((tx) =>
      replaceSizeRun(tx, id, [
        { size: 'S', pieces: 1 },
        { size: 'M', pieces: 1 },
        { size: 'L', pieces: 1 },
      ]),
    );
    expect(split.ok).toBe(true);
    const pooled = await createProduct(db, { name: 'Pool Tee', stock: 5, sizes: ['S', 'M'] });
    t().services.catalog.invalidate();

    const listed = async () => {
      const res = await t().client().get('/api/products');
      expect(res.statusCode).toBe(200);
      return productListSchema.parse(res.json());
    };
    const before = await listed();
    expect(before.find((p) => p.id === id)?.sizeStock).toEqual([
      { size: 'S', colour: null, left: 1 },
      { size: 'M', colour: null, left: 1 },
      { size: 'L', colour: null, left: 1 },
    ]);
    expect(before.find((p) => p.id === pooled)?.sizeStock).toBeUndefined();

    // M sells on the real buying path: the catalogue says M has none left.
    const shopper = await readyShopper(t(), id, { size: 'M' });
    const intent = (await shopper.post('/api/create-payment-intent', {})).json() as { clientSecret: string; paymentIntentId: string };
    await confirmOffline(shopper, intent.clientSecret);
    expect((await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId })).statusCode).toBe(200);

    await expect
      .poll(async () => (await listed()).find((p) => p.id === id)?.sizeStock)
      .toEqual([
        { size: 'S', colour: null, left: 1 },
        { size: 'M', colour: null, left: 0 },
        { size: 'L', colour: null, left: 1 },
      ]);
    const one = await t().client().get(`/api/products/${id}`);
    expect(one.json()).toMatchObject({ stock: 2, sizeStock: [{ size: 'S', left: 1 }, { size: 'M', left: 0 }, { size: 'L', left: 1 }] });
  });
});
