import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { adminProductSchema, type ProductPayloadInput } from '../../../common/contracts/admin';
import { productSchema } from '../../../common/contracts/catalog';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { admitAndPass, joinDrop } from '../../../tests/support/drops';
import { createProduct, customer, productState, readyShopper, startPayment } from '../../../tests/support/shop-fixtures';
import { products } from '../catalog/catalog.tables';

// Scheduled release (docs/product.md §9): before it no cart add and no payment intent; at it, on sale through the
// waiting room (ADR 010: inside the drop window buying needs an admission pass).

const payload = (over: Partial<ProductPayloadInput> = {}): ProductPayloadInput => ({
  name: 'Friday Drop Hoodie',
  description: 'Heavyweight hoodie. Printed by hand.',
  price: '90.00',
  salePrice: null,
  category: 'hoodies',
  subcategory: null,
  materials: '100% organic cotton',
  sustainabilityInfo: 'Made to order.',
  stock: 7,
  inStock: true,
  isNew: true,
  isOnSale: false,
  images: ['/uploads/products/abc.webp'],
  sizes: ['M', 'L'],
  colors: [{ name: 'Black', value: '#111111' }],
  ...over,
});

const FUTURE = '2099-11-27T18:00:00.000Z';

describeEachDb('scheduled release', (t) => {
  test('the owner sets a release time; before it a cart add is 409 with a clear message and creates nothing', async () => {
    const admin = await adminClient(t());
    const created = await admin.post('/api/admin/products', payload({ releaseAt: '2099-11-27T19:00:00+01:00' }));
    expect(created.statusCode, created.body).toBe(201);
    const product = adminProductSchema.parse(created.json());
    // Stored as UTC whatever offset the form sent.
    expect(product.releaseAt).toBe(FUTURE);

    const shown = productSchema.parse((await t().client().get(`/api/products/${product.id}`)).json());
    expect(shown.releaseAt).toBe(FUTURE);
    const listed = (await t().client().get('/api/products')).json() as Array<{ id: string; releaseAt: string | null }>;
    expect(listed.find((p) => p.id === product.id)?.releaseAt).toBe(FUTURE);

    const shopper = t().client();
    const res = await shopper.post('/api/cart', { productId: product.id, quantity: 1, selectedSize: 'M' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: "Friday Drop Hoodie drops on Fri, Nov 27, 2099, 6:00 PM UTC. It can't be bought yet.",
    });
    expect(shopper.cookies.size).toBe(0);

    // What still works: a released product goes in the cart as before.
    const other = await createProduct(t().database.db, { stock: 3 });
    const ok = await shopper.post('/api/cart', { productId: other, quantity: 1, selectedSize: 'M' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await shopper.get('/api/cart')).json()).toHaveLength(1);
  });

  test('once the release time has passed (the owner moves it, or clears it) the product is bought: through the waiting room while the drop window lasts', async () => {
    const admin = await adminClient(t());
    const product = adminProductSchema.parse(
      (await admin.post('/api/admin/products', payload({ releaseAt: FUTURE }))).json(),
    );
    const shopper = t().client();
    expect((await shopper.post('/api/cart', { productId: product.id, quantity: 1, selectedSize: 'M' })).statusCode).toBe(409);

    const past = new Date(Date.now() - 1000).toISOString();
    const moved = await admin.put(`/api/admin/products/${product.id}`, payload({ releaseAt: past }));
    expect(moved.statusCode, moved.body).toBe(200);
    expect(adminProductSchema.parse(moved.json()).releaseAt).toBe(past);
    // Released: no longer 409; inside the drop window the pass is what is asked for.
    const unqueued = await shopper.post('/api/cart', { productId: product.id, quantity: 1, selectedSize: 'M' });
    expect(unqueued.statusCode).toBe(403);
    expect(unqueued.json()).toEqual({ message: 'Join the waiting room to buy Friday Drop Hoodie.' });
    expect((await joinDrop(shopper, product.id)).statusCode).toBe(201);
    await admitAndPass(t(), shopper, product.id);
    const add = await shopper.post('/api/cart', { productId: product.id, quantity: 1, selectedSize: 'M' });
    expect(add.statusCode, add.body).toBe(200);

    const cleared = await admin.put(`/api/admin/products/${product.id}`, payload({ releaseAt: '' }));
    expect(adminProductSchema.parse(cleared.json()).releaseAt).toBeNull();
  });

  test('a release time must be a date and time', async () => {
    const admin = await adminClient(t());
    const res = await admin.post('/api/admin/products', payload({ releaseAt: 'friday' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Release time must be a date and time/);
  });

  test('a payment intent for a line not released yet is 409 and holds nothing; after the release it goes through', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { name: 'Moved Drop Tee', stock: 5 });
    const shopper = await readyShopper(t(), productId);
    // The owner moved the release later after this shopper added the piece.
    await db.update(products).set({ releaseAt: new Date(FUTURE) }).where(eq(products.id, productId));
    t().services.catalog.invalidate();

    const res = await shopper.post('/api/create-payment-intent', {});
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: "Moved Drop Tee drops on Fri, Nov 27, 2099, 6:00 PM UTC. It can't be bought yet.",
    });
    expect(await productState(db, productId)).toEqual({ stock: 5, soldCount: 0 });

    await db.update(products).set({ releaseAt: new Date(Date.now() - 1000) }).where(eq(products.id, productId));
    t().services.catalog.invalidate();
    // Released, inside its drop window: the payment intent needs this session's admission pass.
    const unqueued = await shopper.post('/api/create-payment-intent', {});
    expect(unqueued.statusCode).toBe(403);
    expect(unqueued.json()).toEqual({ message: 'Join the waiting room to buy Moved Drop Tee.' });
    expect(await productState(db, productId)).toEqual({ stock: 5, soldCount: 0 });
    expect((await joinDrop(shopper, productId)).statusCode).toBe(201);
    await admitAndPass(t(), shopper, productId);
    const intent = await startPayment(shopper);
    expect(intent.clientSecret).toBeTruthy();
    expect((await productState(db, productId)).stock).toBe(4);
  });

  test('after the drop window the product is bought as usual, without a pass', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { name: 'Last Week Tee', stock: 5, releaseAt: new Date(Date.now() - 2 * 60 * 60_000) });
    t().services.catalog.invalidate();
    const shopper = await readyShopper(t(), productId);
    expect((await shopper.post('/api/customer-info', customer())).statusCode).toBe(200);
    const intent = await startPayment(shopper);
    expect(intent.clientSecret).toBeTruthy();
  });
});
