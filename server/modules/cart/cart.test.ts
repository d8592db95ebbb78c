import crypto from 'node:crypto';
import { expect, test } from 'vitest';
import { cartItemSchema, cartSchema } from '../../../common/contracts/cart';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { createProduct } from '../../../tests/support/shop-fixtures';

const TWO_COLOURS = [
  { name: 'Black', value: '#111111' },
  { name: 'White', value: '#FFFFFF' },
];

describeEachDb('cart API', (t) => {
  test('GET /api/cart without a cookie is [] and creates no session', async () => {
    const shopper = t().client();
    const res = await shopper.get('/api/cart');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  test('adding a line answers the line with its nested product; the cart lists it', async () => {
    const productId = await createProduct(t().database.db, {
      name: 'Static Tee',
      price: '45.00',
      salePrice: '39.00',
      stock: 5,
      colors: TWO_COLOURS,
    });
    const shopper = t().client();
    const res = await shopper.post('/api/cart', {
      productId,
      quantity: 2,
      selectedSize: 'M',
      selectedColor: 'Black',
      price: '0.01',
    });
    expect(res.statusCode, res.body).toBe(200);
    const line = cartItemSchema.parse(res.json());
    expect(line).toMatchObject({ productId, quantity: 2, selectedSize: 'M', selectedColor: 'Black' });
    // Client-sent prices are ignored: the product's own prices come back.
    expect(line.product).toMatchObject({
      name: 'Static Tee',
      price: '45.00',
      salePrice: '39.00',
      stock: 5,
      inStock: true,
    });
    expect(shopper.cookies.size).toBe(1);

    const cart = cartSchema.parse((await shopper.get('/api/cart')).json());
    expect(cart).toHaveLength(1);
    expect(cart[0]!.id).toBe(line.id);
    expect(cart[0]!.product.images).toEqual(['/uploads/seed/test-1.webp']);
  });

  test('the same product + size + colour is one line; another size is another line', async () => {
    const productId = await createProduct(t().database.db, { stock: 10, colors: TWO_COLOURS });
    const shopper = t().client();
    await shopper.post('/api/cart', { productId, quantity: 1, selectedSize: 'M', selectedColor: 'Black' });
    const again = await shopper.post('/api/cart', {
      productId,
      quantity: 2,
      selectedSize: 'm',
      selectedColor: 'black',
    });
    expect(again.json()).toMatchObject({ quantity: 3, selectedSize: 'M', selectedColor: 'Black' });
    await shopper.post('/api/cart', { productId, quantity: 1, selectedSize: 'L', selectedColor: 'White' });
    await shopper.post('/api/cart', { productId, selectedSize: 'L', selectedColor: 'White' });
    const cart = (await shopper.get('/api/cart')).json() as Array<{
      quantity: number;
      selectedSize: string;
      selectedColor: string | null;
    }>;
    expect(cart.map((l) => [l.selectedSize, l.selectedColor, l.quantity])).toEqual([
      ['M', 'Black', 3],
      ['L', 'White', 2],
    ]);
  });

  test('a colour may be given by its value and is stored by name', async () => {
    const productId = await createProduct(t().database.db, { colors: TWO_COLOURS });
    const shopper = t().client();
    const res = await shopper.post('/api/cart', { productId, selectedSize: 'S', selectedColor: '#ffffff' });
    expect(res.json()).toMatchObject({ selectedColor: 'White', quantity: 1 });
  });

  test('a product in several colours needs one (400, nothing created); a single colour is chosen', async () => {
    const db = t().database.db;
    const twoColours = await createProduct(db, { name: 'Two Tone Tee', colors: TWO_COLOURS });
    const shopper = t().client();
    for (const selectedColor of [undefined, null, '', '  ']) {
      const res = await shopper.post('/api/cart', {
        productId: twoColours,
        selectedSize: 'M',
        selectedColor,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Please select a colour' });
    }
    expect(shopper.cookies.size).toBe(0);
    const oneColour = await createProduct(db, { colors: [{ name: 'Forest Green', value: '#2E5A3C' }] });
    const res = await shopper.post('/api/cart', { productId: oneColour, selectedSize: 'M' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ selectedColor: 'Forest Green' });
    const cart = cartSchema.parse((await shopper.get('/api/cart')).json());
    expect(cart.map((l) => l.selectedColor)).toEqual(['Forest Green']);
  });

  test('a product with one size (One Size) gets it without asking', async () => {
    const productId = await createProduct(t().database.db, { sizes: ['One Size'] });
    const shopper = t().client();
    const res = await shopper.post('/api/cart', { productId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ selectedSize: 'One Size', selectedColor: 'White' });
  });

  test('a product without sizes needs none', async () => {
    const productId = await createProduct(t().database.db, { sizes: [], colors: [] });
    const shopper = t().client();
    const res = await shopper.post('/api/cart', { productId, selectedSize: null, selectedColor: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ selectedSize: null, selectedColor: null });
  });

  test.each([
    [-1, 'Quantity must be at least 1'],
    [0, 'Quantity must be at least 1'],
    [1.5, 'Quantity must be a whole number'],
    ['abc', 'Quantity must be a whole number'],
    [1e12, 'Quantity cannot be more than 1000'],
  ])('quantity %s on add is refused (400 %s) and changes nothing', async (quantity, message) => {
    const productId = await createProduct(t().database.db);
    const shopper = t().client();
    const res = await shopper.post('/api/cart', { productId, quantity, selectedSize: 'M' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message });
    expect(shopper.cookies.size).toBe(0);
  });

  test('unknown, malformed, sold-out and paused products are refused', async () => {
    const db = t().database.db;
    const shopper = t().client();
    const unknown = await shopper.post('/api/cart', { productId: crypto.randomUUID(), selectedSize: 'M' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Product not found' });
    const malformed = await shopper.post('/api/cart', { productId: 'nope' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'productId: Invalid product id' });
    const soldOut = await createProduct(db, { name: 'Gone Tee', stock: 0 });
    const res = await shopper.post('/api/cart', { productId: soldOut, selectedSize: 'M' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Sorry, Gone Tee is sold out' });
    const paused = await createProduct(db, { name: 'Paused Tee', stock: 4, inStock: false });
    expect((await shopper.post('/api/cart', { productId: paused, selectedSize: 'M' })).json()).toEqual({
      message: 'Sorry, Paused Tee is sold out',
    });
    expect(shopper.cookies.size).toBe(0);
  });

  test('size and colour must be offered; size is required when the product has sizes', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { name: 'Sized Tee', sizes: ['S', 'M'], colors: TWO_COLOURS });
    const shopper = t().client();
    const noSize = await shopper.post('/api/cart', { productId });
    expect(noSize.statusCode).toBe(400);
    expect(noSize.json()).toEqual({ message: 'Please select a size' });
    const wrongSize = await shopper.post('/api/cart', { productId, selectedSize: 'XXL' });
    expect(wrongSize.statusCode).toBe(400);
    expect(wrongSize.json()).toEqual({ message: 'Size XXL is not available for Sized Tee' });
    const wrongColor = await shopper.post('/api/cart', {
      productId,
      selectedSize: 'S',
      selectedColor: 'Purple',
    });
    expect(wrongColor.statusCode).toBe(400);
    expect(wrongColor.json()).toEqual({ message: 'Colour Purple is not available for Sized Tee' });
    const sizeless = await createProduct(db, { name: 'Cap', sizes: [] });
    const sizeOnSizeless = await shopper.post('/api/cart', { productId: sizeless, selectedSize: 'M' });
    expect(sizeOnSizeless.statusCode).toBe(400);
    expect(shopper.cookies.size).toBe(0);
  });

  test('the cart never holds more of a product than is left, across sizes', async () => {
    const productId = await createProduct(t().database.db, { stock: 3 });
    const shopper = t().client();
    const tooMany = await shopper.post('/api/cart', { productId, quantity: 4, selectedSize: 'M' });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toEqual({ message: 'Only 3 left' });
    expect((await shopper.post('/api/cart', { productId, quantity: 2, selectedSize: 'M' })).statusCode).toBe(
      200,
    );
    const more = await shopper.post('/api/cart', { productId, quantity: 2, selectedSize: 'L' });
    expect(more.statusCode).toBe(409);
    expect(more.json()).toEqual({ message: 'Only 3 left' });
    expect((await shopper.post('/api/cart', { productId, quantity: 1, selectedSize: 'L' })).statusCode).toBe(
      200,
    );
  });

  test('PUT changes the quantity; 0 or less removes the line; limits and bad input are refused', async () => {
    const productId = await createProduct(t().database.db, { stock: 5 });
    const shopper = t().client();
    const line = (await shopper.post('/api/cart', { productId, selectedSize: 'M' })).json() as { id: string };
    const up = await shopper.put(`/api/cart/${line.id}`, { quantity: 4 });
    expect(up.statusCode).toBe(200);
    expect(cartItemSchema.parse(up.json()).quantity).toBe(4);
    const over = await shopper.put(`/api/cart/${line.id}`, { quantity: 6 });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({ message: 'Only 5 left' });
    for (const quantity of [1.5, 'abc', 1e12]) {
      const bad = await shopper.put(`/api/cart/${line.id}`, { quantity });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toHaveProperty('message');
    }
    expect(((await shopper.get('/api/cart')).json() as Array<{ quantity: number }>)[0]!.quantity).toBe(4);
    const removed = await shopper.put(`/api/cart/${line.id}`, { quantity: 0 });
    expect(removed.statusCode).toBe(200);
    expect((await shopper.get('/api/cart')).json()).toEqual([]);

    const line2 = (await shopper.post('/api/cart', { productId, selectedSize: 'S' })).json() as {
      id: string;
    };
    expect((await shopper.put(`/api/cart/${line2.id}`, { quantity: -1 })).statusCode).toBe(200);
    expect((await shopper.get('/api/cart')).json()).toEqual([]);
  });

  test("another session's line is a 404 to PUT and DELETE, and stays", async () => {
    const productId = await createProduct(t().database.db);
    const owner = t().client();
    const other = t().client();
    const line = (await owner.post('/api/cart', { productId, selectedSize: 'M' })).json() as { id: string };
    await other.post('/api/cart', { productId, selectedSize: 'S' });
    for (const res of [
      await other.put(`/api/cart/${line.id}`, { quantity: 3 }),
      await other.delete(`/api/cart/${line.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Cart item not found' });
    }
    const anonymous = t().client();
    expect((await anonymous.delete(`/api/cart/${line.id}`)).statusCode).toBe(404);
    expect((await anonymous.put('/api/cart/not-a-uuid', { quantity: 1 })).statusCode).toBe(400);
    expect(((await owner.get('/api/cart')).json() as Array<{ quantity: number }>)[0]!.quantity).toBe(1);
  });

  test('DELETE a line and DELETE the whole cart', async () => {
    const db = t().database.db;
    const a = await createProduct(db);
    const b = await createProduct(db);
    const shopper = t().client();
    const line = (await shopper.post('/api/cart', { productId: a, selectedSize: 'M' })).json() as {
      id: string;
    };
    await shopper.post('/api/cart', { productId: b, selectedSize: 'M' });
    expect((await shopper.delete(`/api/cart/${line.id}`)).statusCode).toBe(200);
    expect((await shopper.get('/api/cart')).json()).toHaveLength(1);
    const cleared = await shopper.delete('/api/cart');
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ success: true });
    expect((await shopper.get('/api/cart')).json()).toEqual([]);
    expect((await t().client().delete('/api/cart')).statusCode).toBe(200);
  });

  test('8 parallel adds in one session stop at the per-shopper limit; the rest are 409', async () => {
    const productId = await createProduct(t().database.db, { name: 'Parallel Tee', stock: 20, sizes: [], maxPerShopper: 2 });
    const shopper = t().client();
    // The session exists first (its cookie), as for a shopper who opened the page.
    await shopper.post('/api/cart', { productId: await createProduct(t().database.db, { stock: 5, sizes: [] }), quantity: 1 });
    const results = await Promise.all(Array.from({ length: 8 }, () => shopper.post('/api/cart', { productId, quantity: 1 })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(2);
    for (const r of results.filter((r) => r.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({ message: 'You can buy at most 2 of Parallel Tee per shopper.' });
    }
    const lines = (await shopper.get('/api/cart')).json() as Array<{ productId: string; quantity: number }>;
    expect(lines.filter((l) => l.productId === productId).reduce((n, l) => n + l.quantity, 0)).toBe(2);
  });

  test('parallel raises of one line stop at the per-shopper limit too', async () => {
    const productId = await createProduct(t().database.db, { name: 'Raise Tee', stock: 20, sizes: [], maxPerShopper: 3 });
    const shopper = t().client();
    const line = (await shopper.post('/api/cart', { productId, quantity: 1 })).json() as { id: string };
    // A raise to the limit racing four adds: whatever the order, the cart ends at the limit, never over it.
    const results = await Promise.all([
      shopper.put(`/api/cart/${line.id}`, { quantity: 3 }),
      ...Array.from({ length: 4 }, () => shopper.post('/api/cart', { productId, quantity: 1 })),
    ]);
    expect(results.filter((r) => r.statusCode !== 200 && r.statusCode !== 409)).toEqual([]);
    expect(results.filter((r) => r.statusCode === 409).length).toBeGreaterThanOrEqual(2);
    const lines = (await shopper.get('/api/cart')).json() as Array<{ productId: string; quantity: number }>;
    expect(lines.filter((l) => l.productId === productId).reduce((n, l) => n + l.quantity, 0)).toBe(3);
  });
});
