import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { adminOrderPageSchema, BULK_SHIP_NEEDS_TRACKING } from '../../../common/contracts/admin';
import { describeEachDb, type TestClient } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { orderItems, orders } from '../orders/orders.tables';

// After the owner ships (docs/product.md §4): a bulk "shipped" carries each order's tracking number into its
// mail, the late orders are one filter away, and the admin card shows every change of the delivery address.

describeEachDb('the owner after shipping: bulk tracking, late orders, address history', (t) => {
  let admin: TestClient;
  beforeAll(async () => {
    admin = await adminClient(t());
  });

  async function insertOrder(o: { email: string; status?: string; shipBy?: string | null; trackingNumber?: string; carrier?: string }) {
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
        status: o.status ?? 'processing',
        shipBy: o.shipBy ?? null,
        trackingNumber: o.trackingNumber ?? null,
        carrier: o.carrier ?? null,
      })
      .returning();
    await t().services.db.insert(orderItems).values({ orderId: row!.id, productId: null, productName: 'Drop Tee', productPriceCents: 4500, quantity: 1 });
    return row!;
  }

  /** The shipped mails in the test shop's outbox to addresses starting with `tag`, by address. */
  async function shippedMails(tag: string): Promise<Map<string, string[]>> {
    await t().services.orders.drainMail();
    const outbox = path.join(t().dataDir, 'outbox');
    const byTo = new Map<string, string[]>();
    for (const f of fs.readdirSync(outbox)) {
      const m = fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      if (!m.includes('has shipped')) continue;
      const to = new RegExp(`${tag}-[a-z]+@example\\.com`).exec(m)?.[0];
      if (to) byTo.set(to, [...(byTo.get(to) ?? []), m]);
    }
    return byTo;
  }

  test('bulk "shipped" with a number for each order: every shipped mail carries its own number and carrier link', async () => {
    const tag = `bulkship-${crypto.randomBytes(3).toString('hex')}`;
    const a = await insertOrder({ email: `${tag}-a@example.com` });
    const b = await insertOrder({ email: `${tag}-b@example.com`, status: 'confirmed' });
    const res = await admin.post('/api/admin/orders/bulk-status', {
      orderIds: [a.id, b.id],
      status: 'shipped',
      tracking: [
        { orderId: a.id, carrier: 'ups', trackingNumber: '1Z999AA10123456784' },
        { orderId: b.id, carrier: 'usps', trackingNumber: '9400111899223100000000' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 2 });

    const mails = await shippedMails(tag);
    expect(mails.get(`${tag}-a@example.com`)).toHaveLength(1);
    expect(mails.get(`${tag}-b@example.com`)).toHaveLength(1);
    const [mailA] = mails.get(`${tag}-a@example.com`)!;
    const [mailB] = mails.get(`${tag}-b@example.com`)!;
    expect(mailA).toContain('Tracking number (UPS): 1Z999AA10123456784');
    expect(mailA).toContain('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(mailA).not.toContain('9400111899223100000000');
    expect(mailB).toContain('Tracking number (USPS): 9400111899223100000000');
    expect(mailB).toContain('https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223100000000');

    // The buyer's order page shows it too (the link in the mail opens it).
    const pageLink = /https?:\/\/[^\s"<]*\/orders?\/[^\s"<]+/.exec(mailA)![0];
    const view = await t().client().get(new URL(pageLink).pathname.replace(/^\/orders?\//, '/api/orders/') + new URL(pageLink).search);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().tracking).toEqual({ number: '1Z999AA10123456784', carrier: 'ups', url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' });
  });

  test('bulk "shipped" without a number for an order: 400 naming it, nothing changes and no mail goes out', async () => {
    const tag = `nonumber-${crypto.randomBytes(3).toString('hex')}`;
    const given = await insertOrder({ email: `${tag}-given@example.com` });
    const bare = await insertOrder({ email: `${tag}-bare@example.com` });
    // One the owner already gave a number on its card needs none in the bulk change.
    const kept = await insertOrder({ email: `${tag}-kept@example.com`, trackingNumber: '1234567890', carrier: 'dhl' });
    const res = await admin.post('/api/admin/orders/bulk-status', {
      orderIds: [given.id, bare.id, kept.id],
      status: 'shipped',
      tracking: [{ orderId: given.id, carrier: 'fedex', trackingNumber: '449044304137821' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: BULK_SHIP_NEEDS_TRACKING([bare.orderNumber]) });
    const listed = adminOrderPageSchema.parse((await admin.get(`/api/admin/orders/page?q=${tag}`)).json());
    expect(listed.orders.every((o) => o.status === 'processing')).toBe(true);
    expect(listed.orders.map((o) => o.trackingNumber ?? null).filter(Boolean)).toEqual(['1234567890']);
    expect((await shippedMails(tag)).size).toBe(0);

    // Without the bare one it goes through; the kept number rides in its mail.
    const ok = await admin.post('/api/admin/orders/bulk-status', {
      orderIds: [given.id, kept.id],
      status: 'shipped',
      tracking: [{ orderId: given.id, carrier: 'fedex', trackingNumber: '449044304137821' }],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const mails = await shippedMails(tag);
    expect(mails.get(`${tag}-kept@example.com`)![0]).toContain('https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id=1234567890');
    expect(mails.get(`${tag}-given@example.com`)![0]).toContain('https://www.fedex.com/fedextrack/?trknbr=449044304137821');
    // Other statuses need no number; a bad carrier or an empty number is a 400 { message }.
    expect((await admin.post('/api/admin/orders/bulk-status', { orderIds: [bare.id], status: 'confirmed' })).statusCode).toBe(200);
    for (const entry of [
      { orderId: bare.id, carrier: 'pigeon', trackingNumber: '1' },
      { orderId: bare.id, carrier: 'ups', trackingNumber: '  ' },
    ]) {
      const bad = await admin.post('/api/admin/orders/bulk-status', { orderIds: [bare.id], status: 'shipped', tracking: [entry] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: expect.any(String) });
    }
  });

  test('the Late filter: exactly the unshipped orders past their ship-by date, counted and exported alike', async () => {
    const tag = `late-${crypto.randomBytes(3).toString('hex')}`;
    const lateProcessing = await insertOrder({ email: `${tag}-a@example.com`, status: 'processing', shipBy: '2001-01-02' });
    const latePending = await insertOrder({ email: `${tag}-b@example.com`, status: 'pending', shipBy: '2001-01-03' });
    await insertOrder({ email: `${tag}-c@example.com`, status: 'shipped', shipBy: '2001-01-02' });
    await insertOrder({ email: `${tag}-d@example.com`, status: 'cancelled', shipBy: '2001-01-02' });
    await insertOrder({ email: `${tag}-e@example.com`, status: 'processing', shipBy: '2999-01-01' });
    await insertOrder({ email: `${tag}-f@example.com`, status: 'processing', shipBy: null });

    const late = adminOrderPageSchema.parse((await admin.get(`/api/admin/orders/page?q=${tag}&late=1`)).json());
    expect(late.total).toBe(2);
    expect(late.orders.map((o) => o.id).sort()).toEqual([lateProcessing.id, latePending.id].sort());
    expect(late.orders.every((o) => o.shipLate)).toBe(true);
    // With a status too; and the CSV exports the same rows.
    const latePendingOnly = adminOrderPageSchema.parse((await admin.get(`/api/admin/orders/page?q=${tag}&late=1&status=pending`)).json());
    expect(latePendingOnly.orders.map((o) => o.id)).toEqual([latePending.id]);
    const csv = (await admin.get(`/api/admin/orders.csv?q=${tag}&late=1`)).body;
    expect(csv).toContain(lateProcessing.orderNumber);
    expect(csv).not.toContain(`${tag}-e@example.com`);
    expect(adminOrderPageSchema.parse((await admin.get(`/api/admin/orders/page?q=${tag}&late=0`)).json()).total).toBe(6);
    const bad = await admin.get(`/api/admin/orders/page?late=yes`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: expect.any(String) });
  });

  test('the admin order carries its address history: who, when, old → new, oldest first', async () => {
    const tag = `moved-${crypto.randomBytes(3).toString('hex')}`;
    const order = await insertOrder({ email: `${tag}-a@example.com` });
    const move = (shippingAddress: string) =>
      admin.post(`/api/admin/orders/${order.id}/address`, {
        shippingAddress,
        shippingCity: 'Springfield',
        shippingState: 'IL',
        shippingZip: '62701',
        shippingCountry: 'US',
      });
    const first = await move('2 Difference Engine Rd');
    expect(first.statusCode, first.body).toBe(200);
    expect((await move('3 Jacquard Loom St')).statusCode).toBe(200);

    const [listed] = adminOrderPageSchema.parse((await admin.get(`/api/admin/orders/page?q=${tag}`)).json()).orders;
    expect(listed!.addressChanges).toEqual([
      { changedBy: 'owner', changedAt: expect.any(String), from: '1 Analytical Way, London, LDN N1, US', to: '2 Difference Engine Rd, Springfield, IL 62701, US' },
      { changedBy: 'owner', changedAt: expect.any(String), from: '2 Difference Engine Rd, Springfield, IL 62701, US', to: '3 Jacquard Loom St, Springfield, IL 62701, US' },
    ]);
    expect(Date.parse(listed!.addressChanges![0]!.changedAt)).toBeLessThanOrEqual(Date.parse(listed!.addressChanges![1]!.changedAt));
    // An order never moved has an empty history.
    const still = await insertOrder({ email: `${tag}-b@example.com` });
    const [quiet] = adminOrderPageSchema.parse((await admin.get(`/api/admin/orders/page?q=${tag}-b`)).json()).orders;
    expect(quiet!.id).toBe(still.id);
    expect(quiet!.addressChanges).toEqual([]);
  });
});
