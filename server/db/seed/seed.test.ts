import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { confirmOffline, customer, productState, startPayment } from '../../../tests/support/shop-fixtures';
import { seedProducts } from './catalog-data';

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
