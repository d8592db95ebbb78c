import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { productState } from '../../../tests/support/shop-fixtures';

describeEachDb('edition size caps stock (docs/product.md §9, Edition numbers)', (t) => {
  test('the owner cannot give a product more pieces than its edition has left', async () => {
    const admin = await adminClient(t());
    const product = (await t().services.catalog.listProducts()).find((p) => p.name === 'Night Shift Tee')!;
    const body = { ...product, stock: 8 };
    const over = await admin.put(`/api/admin/products/${product.id}`, body);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ message: 'Only 7 pieces of this edition remain unmade: 43 of 50 are sold' });
    expect(await productState(t().database.db, product.id)).toEqual({ stock: 7, soldCount: 43 });

    // A checkout holding two takes them off the shelf: 5 left, and at most 5 may be set.
    const shopper = t().client();
    await shopper.post('/api/cart', {
      productId: product.id,
      quantity: 2,
      selectedSize: 'M',
      selectedColor: 'Charcoal',
    });
    await shopper.post('/api/customer-info', {
      email: 'hold@example.com',
      firstName: 'H',
      lastName: 'Old',
      phone: null,
      shippingAddress: '1 St',
      shippingCity: 'C',
      shippingState: 'IL',
      shippingZip: '62701',
      shippingCountry: 'US',
    });
    expect((await shopper.post('/api/create-payment-intent', {})).statusCode).toBe(200);
    expect(await productState(t().database.db, product.id)).toEqual({ stock: 5, soldCount: 43 });
    const held = await admin.put(`/api/admin/products/${product.id}`, { ...product, stock: 6 });
    expect(held.statusCode).toBe(400);
    expect(held.json()).toEqual({
      message: 'Only 5 pieces of this edition remain unmade: 43 of 50 are sold and 2 held in checkouts',
    });
    const ok = await admin.put(`/api/admin/products/${product.id}`, { ...product, stock: 5 });
    expect(ok.statusCode, ok.body).toBe(200);

    const created = await admin.post('/api/admin/products', {
      ...product,
      name: 'Fifty One Tee',
      images: [],
      stock: 51,
    });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual({ message: 'Only 50 pieces of this edition remain unmade: 0 of 50 are sold' });
  });
});
