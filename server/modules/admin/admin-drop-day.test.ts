import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import {
  adminOrderPageSchema,
  adminOrderSchema,
  adminProductSchema,
  notifyDemandSchema,
  notifySignupListSchema,
  stockConflictSchema,
} from '../../../common/contracts/admin';
import { describeEachDb, type TestClient } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { createDrop, dropStatus, joinDrop } from '../../../tests/support/drops';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { orderItems, orders } from '../orders/orders.tables';

describeEachDb('the owner on drop day and after', (t) => {
  let admin: TestClient;
  beforeAll(async () => {
    admin = await adminClient(t());
  });
  const patch = (url: string, payload: unknown) =>
    admin.request({ method: 'PATCH', url, payload: payload as object, headers: { 'content-type': 'application/json' } });

  async function insertOrder(o: { email: string; status?: string; createdAt?: Date }) {
    const [row] = await t()
      .services.db.insert(orders)
      .values({
        orderNumber: `FIFTY-${crypto.randomBytes(4).toString('hex').toUpperCase()}`,
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
        totalCents: 4500,
        status: o.status ?? 'pending',
        ...(o.createdAt ? { createdAt: o.createdAt } : {}),
      })
      .returning();
    await t().services.db.insert(orderItems).values({ orderId: row!.id, productId: null, productName: 'Drop Tee', productPriceCents: 4500, quantity: 1 });
    return row!;
  }

  test('a PATCH writes only the named fields: a typo fix leaves the stock a sale moved meanwhile', async () => {
    const id = await createProduct(t().database.db, { name: 'Drop Tee Typo', stock: 10 });
    t().services.catalog.invalidate();
    // A sale after the form was loaded: stock 10 → 7.
    const before = adminProductSchema.parse((await admin.get('/api/admin/products')).json().find((p: { id: string }) => p.id === id));
    await t().services.db.transaction((tx) => t().services.inventory.setLevels(tx, id, { stock: 7 }));
    const res = await patch(`/api/admin/products/${id}`, { name: 'Drop Tee (typo fixed)' });
    expect(res.statusCode, res.body).toBe(200);
    expect(adminProductSchema.parse(res.json())).toMatchObject({ name: 'Drop Tee (typo fixed)', stock: 7, price: before.price });
    // Rules still see the whole product: a sale price above the stored price is refused.
    const bad = await patch(`/api/admin/products/${id}`, { salePrice: '9999.00' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Sale price must be below the price' });
  });

  test('a stock change against a stock that moved is 409 with the current number, and nothing is written', async () => {
    const id = await createProduct(t().database.db, { name: 'Drop Tee Stock', stock: 10 });
    t().services.catalog.invalidate();
    await t().services.db.transaction((tx) => t().services.inventory.setLevels(tx, id, { stock: 8 }));
    const res = await patch(`/api/admin/products/${id}`, { stock: 20, expectedStock: 10, name: 'Renamed' });
    expect(res.statusCode).toBe(409);
    const body = stockConflictSchema.strict().parse(res.json());
    expect(body.currentStock).toBe(8);
    expect(body.message).toContain('it is now 8');
    expect((await t().services.inventory.stockOf(id))?.stock).toBe(8);
    expect((await t().services.catalog.getProductFresh(id))?.name).toBe('Drop Tee Stock');
    // Against the current number it goes through.
    const ok = await patch(`/api/admin/products/${id}`, { stock: 20, expectedStock: 8 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().stock).toBe(20);
  });

  test('orders are paged server-side with the filters and a total', async () => {
    const tag = `pager-${crypto.randomBytes(3).toString('hex')}`;
    const base = Date.now() - 3_600_000;
    for (let i = 0; i < 25; i++)
      await insertOrder({ email: `${tag}-${i}@example.com`, status: i % 5 === 0 ? 'shipped' : 'pending', createdAt: new Date(base + i * 1000) });
    const first = adminOrderPageSchema.parse((await admin.get(`/api/admin/orders/page?q=${tag}&limit=10`)).json());
    expect(first).toMatchObject({ total: 25, limit: 10, offset: 0 });
    expect(first.orders.map((o) => o.customerEmail)).toEqual(Array.from({ length: 10 }, (_, i) => `${tag}-${24 - i}@example.com`));
    const last = adminOrderPageSchema.parse((await admin.get(`/api/admin/orders/page?q=${tag}&limit=10&offset=20`)).json());
    expect(last.orders).toHaveLength(5);
    expect(last.orders.at(-1)!.customerEmail).toBe(`${tag}-0@example.com`);
    const shipped = adminOrderPageSchema.parse((await admin.get(`/api/admin/orders/page?q=${tag}&status=shipped`)).json());
    expect(shipped.total).toBe(5);
    expect(shipped.orders.every((o) => o.status === 'shipped')).toBe(true);
    expect((await admin.get('/api/admin/orders/page?limit=0')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/orders/page?offset=-1')).json()).toEqual({ message: expect.any(String) });
  });

  test('the CSV exports the filtered list, every page of it', async () => {
    const tag = `csv-${crypto.randomBytes(3).toString('hex')}`;
    await insertOrder({ email: `${tag}-a@example.com`, status: 'shipped' });
    await insertOrder({ email: `${tag}-b@example.com`, status: 'pending' });
    const other = await insertOrder({ email: 'someone-else@example.com', status: 'shipped' });
    const csv = (await admin.get(`/api/admin/orders.csv?q=${tag}&status=shipped`)).body;
    expect(csv).toContain(`${tag}-a@example.com`);
    expect(csv).not.toContain(`${tag}-b@example.com`);
    expect(csv).not.toContain(other.orderNumber);
  });

  test('bulk status change: every selected order in one transaction; a bad id changes none', async () => {
    const a = await insertOrder({ email: 'bulk-a@example.com' });
    const b = await insertOrder({ email: 'bulk-b@example.com' });
    const bad = await admin.post('/api/admin/orders/bulk-status', { orderIds: [a.id, 'not-a-uuid'], status: 'processing' });
    expect(bad.statusCode).toBe(400);
    const res = await admin.post('/api/admin/orders/bulk-status', { orderIds: [a.id, b.id], status: 'processing' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 2 });
    const page = adminOrderPageSchema.parse((await admin.get('/api/admin/orders/page?q=bulk-&status=processing')).json());
    expect(page.orders.map((o) => o.id).sort()).toEqual([a.id, b.id].sort());
  });

  test('shipped with a tracking number: the order keeps it and the shopper gets the shipped mail with the link', async () => {
    const order = await insertOrder({ email: 'tracked@example.com', status: 'processing' });
    const res = await admin.put(`/api/admin/orders/${order.id}/status`, { status: 'shipped', trackingNumber: '1Z999AA10123456784', carrier: 'ups' });
    expect(res.statusCode, res.body).toBe(200);
    const link = 'https://www.ups.com/track?tracknum=1Z999AA10123456784';
    expect(adminOrderSchema.parse(res.json())).toMatchObject({ status: 'shipped', trackingNumber: '1Z999AA10123456784', carrier: 'ups', trackingUrl: link });
    await t().services.orders.drainMail();
    const outbox = path.join(t().dataDir, 'outbox');
    const mails = fs
      .readdirSync(outbox)
      .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))
      .filter((m) => m.includes('tracked@example.com') && m.includes('has shipped'));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(link);
    // Shipped again (a tracking fix): no second mail.
    await admin.put(`/api/admin/orders/${order.id}/status`, { status: 'shipped', trackingNumber: '1Z999AA10123456785' });
    await t().services.orders.drainMail();
    expect(fs.readdirSync(outbox).filter((f) => fs.readFileSync(path.join(outbox, f), 'utf8').includes('tracked@example.com')).length).toBe(1);
    expect((await admin.put(`/api/admin/orders/${order.id}/status`, { status: 'shipped', carrier: 'pigeon' })).statusCode).toBe(400);
  });

  test('Notify-me demand per product: counts, the list and its CSV, read through the alerts service', async () => {
    const id = await createDrop(t(), 3_600_000, { name: 'Wanted Tee' });
    await t().services.alerts.subscribe(id, 'fan-one@example.com');
    await t().services.alerts.subscribe(id, 'fan-two@example.com');
    const demand = notifyDemandSchema.parse((await admin.get('/api/admin/notify-demand')).json());
    expect(demand.find((d) => d.productId === id)).toEqual({ productId: id, productName: 'Wanted Tee', count: 2 });
    const list = notifySignupListSchema.parse((await admin.get(`/api/admin/notify-demand/${id}`)).json());
    expect(list.map((s) => s.email)).toEqual(['fan-one@example.com', 'fan-two@example.com']);
    const csv = await admin.get(`/api/admin/notify-demand/${id}/signups.csv`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('fan-two@example.com');
    expect((await admin.get('/api/admin/notify-demand/nope')).statusCode).toBe(404);
    expect((await t().client().get('/api/admin/notify-demand')).statusCode).toBe(401);
  });

  test("the owner's message reaches the drop's status, and the owner's row shows the admission figures", async () => {
    const id = await createDrop(t(), -1000, { stock: 20 });
    const shopper = t().client();
    expect((await joinDrop(shopper, id)).statusCode).toBeLessThan(300);
    const res = await patch(`/api/admin/drops/${id}`, { paused: true, message: '  Payment provider hiccup — your place is safe  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ paused: true, message: 'Payment provider hiccup — your place is safe', nextAdmissionAt: null });
    expect(res.json().admittedLastMinute).toEqual(expect.any(Number));
    expect(await dropStatus(shopper, id)).toMatchObject({ paused: true, message: 'Payment provider hiccup — your place is safe' });
    const cleared = await patch(`/api/admin/drops/${id}`, { message: '' });
    expect(cleared.json().message).toBeNull();
    expect((await dropStatus(shopper, id)).message).toBeNull();
    expect((await patch(`/api/admin/drops/${id}`, { message: 'x'.repeat(201) })).statusCode).toBe(400);
  });
});
