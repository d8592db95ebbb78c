import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, test } from 'vitest';
import {
  adminOrderListSchema,
  adminProductSchema,
  discountCodeSchema,
  newsletterSignupSchema,
  type ProductPayloadInput,
} from '../../../common/contracts/admin';
import { describeEachDb, type TestClient } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { cartItems } from '../cart/cart.tables';
import { orderItems, orders } from '../orders/orders.tables';

const json = <T = { message: string }>(res: { body: string }) => JSON.parse(res.body) as T;

const validProduct = (): ProductPayloadInput => ({
  name: 'Drop Tee 01',
  description: 'Heavyweight tee. Printed by hand.',
  price: '45.00',
  salePrice: null,
  category: 'tshirts',
  subcategory: null,
  materials: '100% organic cotton',
  sustainabilityInfo: 'Made to order.',
  stock: 50,
  inStock: true,
  isNew: true,
  isOnSale: false,
  images: ['/uploads/products/abc.webp'],
  sizes: ['S', 'M', 'L'],
  colors: [{ name: 'Black', value: '#111111' }],
});

describeEachDb('admin back office', (t) => {
  let admin: TestClient;
  beforeAll(async () => {
    admin = await adminClient(t());
  });

  // --- Products --------------------------------------------------------------------------------

  test('GET /api/admin/products lists every product, sold out ones included', async () => {
    const [first] = await t().services.catalog.listProducts();
    const res = await admin.put(`/api/admin/products/${first.id}`, { ...first, stock: 0 });
    expect(res.statusCode, res.body).toBe(200);
    const list = json<unknown[]>(await admin.get('/api/admin/products')).map((p) =>
      adminProductSchema.parse(p),
    );
    expect(list.length).toBe((await t().services.catalog.listProducts()).length);
    const soldOut = list.find((p) => p.id === first.id)!;
    expect(soldOut).toMatchObject({ stock: 0, inStock: false });
  });

  test('create, read back in the storefront, edit and delete a product', async () => {
    const created = await admin.post('/api/admin/products', {
      ...validProduct(),
      price: 45,
      stock: '12',
      unknownField: 'dropped',
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = adminProductSchema.strict().parse(json(created));
    expect(product).toMatchObject({
      name: 'Drop Tee 01',
      price: '45.00',
      stock: 12,
      salePrice: null,
      sizes: ['S', 'M', 'L'],
    });

    const storefront = await t().client().get(`/api/products/${product.id}`);
    expect(storefront.statusCode).toBe(200);
    expect(json<{ name: string }>(storefront).name).toBe('Drop Tee 01');

    const edited = await admin.put(`/api/admin/products/${product.id}`, {
      ...validProduct(),
      price: '39.5',
      salePrice: '29.99',
      isOnSale: true,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(json(edited)).toMatchObject({ price: '39.50', salePrice: '29.99', isOnSale: true });
    expect(json<{ price: string }>(await t().client().get(`/api/products/${product.id}`)).price).toBe(
      '39.50',
    );

    const deleted = await admin.delete(`/api/admin/products/${product.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(json(deleted)).toEqual({ success: true });
    expect((await t().client().get(`/api/products/${product.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/admin/products/${product.id}`)).statusCode).toBe(404);
  });

  test.each([
    ['name empty', { name: '  ' }, /Name is required/],
    ['name over 200', { name: 'x'.repeat(201) }, /at most 200/],
    ['price zero', { price: '0' }, /Price must be greater than 0/],
    ['price negative', { price: '-5' }, /Price must be greater than 0/],
    ['price not a number', { price: 'abc' }, /Price must be a number/],
    ['price three decimals', { price: '1.999' }, /at most 2 decimals/],
    ['price too large', { price: '100000000' }, /cannot be more than 99999999\.99/],
    ['sale price not below price', { salePrice: '45.00' }, /Sale price must be below the price/],
    ['sale price above price', { salePrice: '50' }, /Sale price must be below the price/],
    ['stock fractional', { stock: 1.5 }, /Stock must be a whole number/],
    ['stock negative', { stock: -1 }, /Stock must be a whole number/],
    ['stock over a million', { stock: 1_000_001 }, /Stock must be a whole number/],
    ['stock text', { stock: 'many' }, /Stock must be a whole number/],
    ['unknown category', { category: 'shoes', sizes: [] }, /Category not found: shoes/],
    ['size not in the category', { sizes: ['S', 'XXXL'] }, /Sizes must come from the category's list/],
    [
      'hoodie size on a tee… of accessories',
      { category: 'accessories', sizes: ['M'] },
      /Sizes must come from/,
    ],
    ['colour not hex', { colors: [{ name: 'Red', value: 'red' }] }, /hex colour/],
    ['colour without name', { colors: [{ name: '', value: '#FF0000' }] }, /Colour name is required/],
    ['foreign image URL', { images: ['https://evil.example.com/x.png'] }, /our own storage/],
    ['path traversal image', { images: ['/uploads/../../etc/passwd'] }, /our own storage/],
    ['javascript: image', { images: ['javascript:alert(1)'] }, /our own storage/],
    ['description missing', { description: undefined }, /Description is required/],
  ])(
    'a product with %s is refused with 400 and a message, and nothing changes',
    async (_label, patch, message) => {
      const before = (await t().services.catalog.listProducts()).length;
      const res = await admin.post('/api/admin/products', { ...validProduct(), ...patch });
      expect(res.statusCode, res.body).toBe(400);
      expect(json(res).message).toMatch(message);
      const [target] = await t().services.catalog.listProducts();
      const put = await admin.put(`/api/admin/products/${target.id}`, { ...validProduct(), ...patch });
      expect(put.statusCode).toBe(400);
      t().services.catalog.invalidate();
      const after = await t().services.catalog.listProducts();
      expect(after.length).toBe(before);
      expect(after.find((p) => p.id === target.id)?.name).toBe(target.name);
    },
  );

  test('unknown or malformed product ids are 404', async () => {
    const answers = {
      'PUT unknown product': await admin.put(`/api/admin/products/${crypto.randomUUID()}`, validProduct()),
      'DELETE unknown product': await admin.delete(`/api/admin/products/${crypto.randomUUID()}`),
      'DELETE malformed product': await admin.delete('/api/admin/products/not-a-uuid'),
      'PUT malformed order': await admin.put('/api/admin/orders/not-a-uuid/status', { status: 'shipped' }),
      'PUT unknown code': await admin.put('/api/admin/discount-codes/nope', { isActive: false }),
    };
    expect(
      Object.fromEntries(Object.entries(answers).map(([k, res]) => [k, [res.statusCode, json(res).message]])),
    ).toEqual({
      'PUT unknown product': [404, 'Product not found'],
      'DELETE unknown product': [404, 'Product not found'],
      'DELETE malformed product': [404, 'Product not found'],
      'PUT malformed order': [404, 'Order not found'],
      'PUT unknown code': [404, 'Discount code not found'],
    });
  });

  test('a product image may be an S3-less public upload path or a seed image', async () => {
    const images = ['/uploads/seed/p1-1.webp', '/uploads/products/0a1b2c.webp'];
    const res = await admin.post('/api/admin/products', { ...validProduct(), images });
    expect(res.statusCode, res.body).toBe(201);
    const created = adminProductSchema.parse(json(res));
    expect(created.images).toEqual(images);
    // Read back as stored, in order, by the admin list and the storefront.
    const listed = json<Array<{ id: string; images: string[] }>>(await admin.get('/api/admin/products'));
    expect(listed.find((p) => p.id === created.id)?.images).toEqual(images);
    const shown = json<{ images: string[] }>(await t().client().get(`/api/products/${created.id}`));
    expect(shown.images).toEqual(images);
  });

  test('deleting a product keeps the order history (snapshot) and drops its cart lines', async () => {
    const product = adminProductSchema.parse(json(await admin.post('/api/admin/products', validProduct())));
    const shopper = t().client();
    expect(
      (await shopper.post('/api/cart', { productId: product.id, selectedSize: 'M' })).statusCode,
    ).toBeLessThan(300);
    const order = await insertOrder({
      productId: product.id,
      name: product.name,
      email: 'keeper@example.com',
    });

    expect((await admin.delete(`/api/admin/products/${product.id}`)).statusCode).toBe(200);

    const [item] = await t().services.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(item).toMatchObject({
      productId: null,
      productName: product.name,
      productPriceCents: 4500,
      editionNumbers: [7],
    });
    expect(
      await t().services.db.select().from(cartItems).where(eq(cartItems.productId, product.id)),
    ).toHaveLength(0);
    const listed = adminOrderListSchema.parse(json(await admin.get('/api/admin/orders?q=keeper@')));
    expect(listed[0].items[0]).toMatchObject({ productName: product.name, editionNumbers: [7] });
  });

  // --- Orders ----------------------------------------------------------------------------------

  async function insertOrder(o: { productId: string | null; name: string; email: string; status?: string }) {
    const number = `FIFTY-${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
    const [row] = await t()
      .services.db.insert(orders)
      .values({
        orderNumber: number,
        sessionId: 'test-session',
        stripePaymentIntentId: `pi_${crypto.randomBytes(8).toString('hex')}`,
        customerEmail: o.email,
        customerFirstName: 'Ada',
        customerLastName: 'Lovelace',
        shippingAddress: '1 Analytical Way',
        shippingCity: 'London',
        shippingState: 'LDN',
        shippingZip: 'N1',
        subtotalCents: 4500,
        shippingCents: 0,
        totalCents: 4500,
        status: o.status ?? 'pending',
      })
      .returning();
    await t()
      .services.db.insert(orderItems)
      .values({
        orderId: row.id,
        productId: o.productId,
        productName: o.name,
        productPriceCents: 4500,
        quantity: 1,
        selectedSize: 'M',
        editionNumbers: [7],
      });
    return row;
  }

  test('orders: list, filter by status, search by number or e-mail, change status; a bad status is 400', async () => {
    const a = await insertOrder({ productId: null, name: 'Tee A', email: 'first.buyer@example.com' });
    const b = await insertOrder({
      productId: null,
      name: 'Tee B',
      email: 'second@example.com',
      status: 'shipped',
    });

    const all = adminOrderListSchema.parse(json(await admin.get('/api/admin/orders')));
    expect(all.map((o) => o.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(all[0].createdAt >= all[all.length - 1].createdAt).toBe(true);

    const shipped = adminOrderListSchema.parse(json(await admin.get('/api/admin/orders?status=shipped')));
    expect(shipped.map((o) => o.id)).toContain(b.id);
    expect(shipped.every((o) => o.status === 'shipped')).toBe(true);
    expect((await admin.get('/api/admin/orders?status=lost')).statusCode).toBe(400);

    const byEmail = adminOrderListSchema.parse(json(await admin.get('/api/admin/orders?q=FIRST.BUYER')));
    expect(byEmail.map((o) => o.id)).toEqual([a.id]);
    const byNumber = adminOrderListSchema.parse(
      json(await admin.get(`/api/admin/orders?q=${a.orderNumber.slice(-6)}`)),
    );
    expect(byNumber.map((o) => o.id)).toEqual([a.id]);
    expect(json<unknown[]>(await admin.get('/api/admin/orders?q=%25'))).toEqual([]);

    const changed = await admin.put(`/api/admin/orders/${a.id}/status`, { status: 'delivered' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(json(changed)).toMatchObject({ id: a.id, status: 'delivered' });
    // Any status may follow any other (docs/product.md §4).
    expect((await admin.put(`/api/admin/orders/${a.id}/status`, { status: 'pending' })).statusCode).toBe(200);

    const bad = await admin.put(`/api/admin/orders/${a.id}/status`, { status: 'teleported' });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).message).toMatch(/Invalid order status/);
    expect((await admin.put(`/api/admin/orders/${a.id}/status`, {})).statusCode).toBe(400);
    expect(
      (await admin.put(`/api/admin/orders/${crypto.randomUUID()}/status`, { status: 'shipped' })).statusCode,
    ).toBe(404);
    const [stored] = await t().services.db.select().from(orders).where(eq(orders.id, a.id));
    expect(stored.status).toBe('pending');
  });

  test('orders.csv is a formula-safe CSV download', async () => {
    await insertOrder({
      productId: null,
      name: 'Tee, "quoted"',
      email: '=HYPERLINK("http://evil")@example.com',
    });
    const res = await admin.get('/api/admin/orders.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const body = res.body.replace(/^\uFEFF/, '');
    expect(body.split('\r\n')[0]).toMatch(/^"Order number","Created at","Status","Email",/);
    expect(body).toContain(`"'=HYPERLINK(""http://evil"")@example.com"`);
    expect(body).toContain('"Tee, ""quoted"" (M) x1 @ 45.00 [No. 7 of 50]"');
  });

  // --- Newsletter ------------------------------------------------------------------------------

  test('newsletter signups: newest first with subscribedAt and subscribed_at; CSV export', async () => {
    expect(
      (await t().client().post('/api/newsletter', { email: 'older@example.com' })).statusCode,
    ).toBeLessThan(300);
    // No pause needed between the two: each signup is its own transaction, stamped in microseconds.
    expect(
      (await t().client().post('/api/newsletter', { email: 'newer@example.com' })).statusCode,
    ).toBeLessThan(300);
    const list = json<unknown[]>(await admin.get('/api/admin/newsletter-signups')).map((s) =>
      newsletterSignupSchema.strict().parse(s),
    );
    const emails = list.map((s) => s.email);
    expect(emails.indexOf('newer@example.com')).toBeLessThan(emails.indexOf('older@example.com'));
    expect(list[0].subscribed_at).toBe(list[0].subscribedAt);
    expect(Number.isNaN(Date.parse(list[0].subscribedAt))).toBe(false);

    const csv = await admin.get('/api/admin/newsletter-signups.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toContain('"Email","Signed up","Status"\r\n');
    expect(csv.body).toMatch(/"newer@example\.com","[^"]+","Subscribed"/);
  });

  // --- Discount codes --------------------------------------------------------------------------

  test('discount codes: list with usage, create (upper-cased), deactivate and reactivate; checkout honours it', async () => {
    const listed = json<unknown[]>(await admin.get('/api/admin/discount-codes')).map((d) =>
      discountCodeSchema.strict().parse(d),
    );
    expect(listed.find((d) => d.code === 'FALL15')).toMatchObject({
      discountPercent: 15,
      maxUsage: null,
      usageCount: 0,
      isActive: true,
    });

    const created = await admin.post('/api/admin/discount-codes', {
      code: ' drop-day_25 ',
      discountPercent: 25,
      maxUsage: 100,
      expiresAt: '2099-12-31',
    });
    expect(created.statusCode, created.body).toBe(201);
    const code = discountCodeSchema.strict().parse(json(created));
    expect(code).toMatchObject({
      code: 'DROP-DAY_25',
      discountPercent: 25,
      maxUsage: 100,
      usageCount: 0,
      isActive: true,
    });
    expect(code.expiresAt).toBe('2099-12-31T23:59:59.999Z');

    const duplicate = await admin.post('/api/admin/discount-codes', {
      code: 'Drop-Day_25',
      discountPercent: 10,
    });
    expect(duplicate.statusCode).toBe(409);
    expect(json(duplicate).message).toMatch(/already exists/);

    for (const bad of [
      { code: 'ab', discountPercent: 10 },
      { code: 'has space', discountPercent: 10 },
      { code: 'OK-CODE', discountPercent: 0 },
      { code: 'OK-CODE', discountPercent: 101 },
      { code: 'OK-CODE', discountPercent: 12.5 },
      { code: 'OK-CODE', discountPercent: 10, maxUsage: 0 },
      { code: 'OK-CODE', discountPercent: 10, expiresAt: 'next tuesday' },
    ]) {
      const res = await admin.post('/api/admin/discount-codes', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(json(res).message.length).toBeGreaterThan(0);
    }

    const unlimited = discountCodeSchema.parse(
      json(
        await admin.post('/api/admin/discount-codes', {
          code: 'FOREVER',
          discountPercent: 5,
          maxUsage: null,
        }),
      ),
    );
    expect(unlimited).toMatchObject({ maxUsage: null, expiresAt: null });

    const off = await admin.put(`/api/admin/discount-codes/${code.id}`, { isActive: false });
    expect(off.statusCode).toBe(200);
    expect(json(off)).toMatchObject({ id: code.id, isActive: false });
    const refused = await t().client().post('/api/validate-discount', { code: 'drop-day_25' });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);

    const on = await admin.put(`/api/admin/discount-codes/${code.id}`, { isActive: true });
    expect(json(on)).toMatchObject({ isActive: true });
    const accepted = await t().client().post('/api/validate-discount', { code: 'drop-day_25' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(json(accepted)).toMatchObject({ code: 'DROP-DAY_25', discountPercent: 25 });

    expect((await admin.put(`/api/admin/discount-codes/${code.id}`, { isActive: 'no' })).statusCode).toBe(
      400,
    );
    expect(
      (await admin.put(`/api/admin/discount-codes/${crypto.randomUUID()}`, { isActive: false })).statusCode,
    ).toBe(404);
  });
});
