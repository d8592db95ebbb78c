import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeEach, expect, test } from 'vitest';
import { adminOrderSchema, type AdminOrder } from '../../common/contracts/admin';
import { latestOrderSchema, ORDER_NOT_FOUND, orderViewSchema } from '../../common/contracts/orders';
import { RETURN_MESSAGES, returnListSchema, returnsViewSchema } from '../../common/contracts/returns';
import { linesRefundCents } from '../../common/domain/after-sale';
import { formatMoney, parseMoney } from '../../common/domain/money';
import { createSteeredClock, systemClock } from '../lib/db-clock';
import { products } from '../modules/catalog/catalog.tables';
import { orders } from '../modules/orders/orders.tables';
import { orderReturns } from '../modules/orders/returns.tables';
import { storeCreditEntries } from '../modules/store-credit/store-credit.tables';
import { adminClient } from '../../tests/support/admin-session';
import { describeEachDb, type TestApp, type TestClient } from '../../tests/support/build-test-app';
import { confirmOffline, createProduct, customer, productState, readyShopper, startPayment } from '../../tests/support/shop-fixtures';
import { returnCreditRef } from './return-order';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** The shop's clock for this suite: the real one moved forward by `shift` (the app and its SQL alike). */
let shift = 0;
const clock = createSteeredClock(systemClock, () => shift);

function outbox(t: TestApp): string[] {
  const dir = path.join(t.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='));
}

/** Buys `lines` through the API; the order as the admin sees it, and the order page's returns API with its key. */
async function buy(t: TestApp, admin: TestClient, lines: Array<{ productId: string; quantity?: number }>) {
  const shopper = await readyShopper(t, lines[0]!.productId, { quantity: lines[0]!.quantity });
  for (const l of lines.slice(1)) {
    const add = await shopper.post('/api/cart', { productId: l.productId, quantity: l.quantity ?? 1, selectedSize: 'M' });
    expect(add.statusCode, add.body).toBe(200);
  }
  const intent = await startPayment(shopper);
  expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
  const latest = latestOrderSchema.parse((await shopper.get('/api/orders/latest')).json());
  const key = latest.orderPath.split('key=')[1]!;
  const list = (await admin.get('/api/admin/orders')).json() as AdminOrder[];
  const order = adminOrderSchema.parse(list.find((o) => o.id === latest.id));
  return { order, key, api: `/api/orders/${order.orderNumber}/returns?key=${key}` };
}

describeEachDb(
  'returns by the refund policy (return-order flow, real database)',
  (t) => {
    const db = () => t().database.db;
    const returnsOf = (orderId: string) => db().select().from(orderReturns).where(eq(orderReturns.orderId, orderId));
    const deliver = async (admin: TestClient, orderId: string) => {
      const res = await admin.put(`/api/admin/orders/${orderId}/status`, { status: 'delivered' });
      expect(res.statusCode, res.body).toBe(200);
    };
    const act = (admin: TestClient, orderId: string, returnId: string, action: string, body: object = {}) =>
      admin.post(`/api/admin/orders/${orderId}/returns/${returnId}/${action}`, body);
    const mails = async () => {
      await t().services.orders.drainMail();
      return outbox(t());
    };
    const balance = async () => (await t().services.storeCredit.balanceOf(customer().email)).balanceCents;

    beforeEach(() => {
      shift = 0;
    });

    test('asked within 2 days of delivery: saved as requested, shown on the order page; the delivered time is the database clock', async () => {
      const admin = await adminClient(t());
      const productId = await createProduct(db(), { stock: 10, price: '45.00' });
      const { order, api } = await buy(t(), admin, [{ productId, quantity: 2 }]);
      // Not delivered yet: nothing to return.
      const early = await t().client().post(api, { lines: [{ itemId: order.items[0]!.id, quantity: 1 }], reason: 'Too big' });
      expect(early.statusCode).toBe(409);
      expect(early.json()).toEqual({ message: RETURN_MESSAGES.notDelivered });

      shift = 3 * DAY;
      await deliver(admin, order.id);
      const [row] = await db().select().from(orders).where(eq(orders.id, order.id));
      expect(Math.abs(row!.deliveredAt!.getTime() - (Date.now() + 3 * DAY))).toBeLessThan(MIN);

      shift = 3 * DAY + 47 * 60 * MIN;
      const res = await t().client().post(api, { lines: [{ itemId: order.items[0]!.id, quantity: 1 }], reason: 'Too big' });
      expect(res.statusCode, res.body).toBe(200);
      const view = returnsViewSchema.parse(res.json());
      expect(view.requestUntil).toBe(new Date(row!.deliveredAt!.getTime() + 2 * DAY).toISOString());
      expect(view.lines).toMatchObject([{ itemId: order.items[0]!.id, left: 1, finalSale: false }]);
      expect(view.returns).toMatchObject([{ status: 'requested', reason: 'Too big', credit: '0.00', lines: [{ itemId: order.items[0]!.id, quantity: 1, editionNumbers: [2] }] }]);
      // The page reads the same list; the whole line cannot be asked for twice.
      expect(returnsViewSchema.parse((await t().client().get(api)).json()).returns).toHaveLength(1);
      const twice = await t().client().post(api, { lines: [{ itemId: order.items[0]!.id, quantity: 2 }], reason: 'Both' });
      expect(twice.statusCode).toBe(409);
    });

    test('the bulk "delivered" stamps the time too; a second "delivered" later keeps the first', async () => {
      const admin = await adminClient(t());
      const productId = await createProduct(db(), { stock: 10 });
      const { order } = await buy(t(), admin, [{ productId }]);
      const bulk = await admin.post('/api/admin/orders/bulk-status', { orderIds: [order.id], status: 'delivered' });
      expect(bulk.statusCode, bulk.body).toBe(200);
      const first = (await db().select().from(orders).where(eq(orders.id, order.id)))[0]!.deliveredAt!;
      expect(Math.abs(first.getTime() - Date.now())).toBeLessThan(MIN);
      shift = DAY;
      await admin.put(`/api/admin/orders/${order.id}/status`, { status: 'shipped' });
      await deliver(admin, order.id);
      expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]!.deliveredAt).toEqual(first);
    });

    test('after 2 days: 409 with the policy message, nothing saved', async () => {
      const admin = await adminClient(t());
      const productId = await createProduct(db(), { stock: 10 });
      const { order, api } = await buy(t(), admin, [{ productId }]);
      await deliver(admin, order.id);
      shift = 2 * DAY + MIN;
      const res = await t().client().post(api, { lines: [{ itemId: order.items[0]!.id, quantity: 1 }], reason: 'Late' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: RETURN_MESSAGES.windowClosed });
      expect(await returnsOf(order.id)).toHaveLength(0);
    });

    test('a final-sale line is refused with its name (409), nothing saved, even beside a returnable one', async () => {
      const admin = await adminClient(t());
      const ok = await createProduct(db(), { stock: 10, name: 'Open Tee' });
      const finalSale = await createProduct(db(), { stock: 10, name: 'Final Hoodie' });
      await db().update(products).set({ nonReturnable: true }).where(eq(products.id, finalSale));
      const { order, api } = await buy(t(), admin, [{ productId: ok }, { productId: finalSale }]);
      await deliver(admin, order.id);
      const res = await t().client().post(api, { lines: order.items.map((i) => ({ itemId: i.id, quantity: 1 })), reason: 'Changed my mind' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: RETURN_MESSAGES.finalSale('Final Hoodie') });
      expect(await returnsOf(order.id)).toHaveLength(0);
    });

    test("another order's key, a forged key: 404, nothing saved", async () => {
      const admin = await adminClient(t());
      const productId = await createProduct(db(), { stock: 10 });
      const a = await buy(t(), admin, [{ productId }]);
      const b = await buy(t(), admin, [{ productId }]);
      await deliver(admin, b.order.id);
      const body = { lines: [{ itemId: b.order.items[0]!.id, quantity: 1 }], reason: 'x' };
      for (const key of [a.key, 'forged', '']) {
        const res = await t().client().post(`/api/orders/${b.order.orderNumber}/returns?key=${key}`, body);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: ORDER_NOT_FOUND });
        expect((await t().client().get(`/api/orders/${b.order.orderNumber}/returns?key=${key}`)).statusCode).toBe(404);
      }
      expect(await returnsOf(b.order.id)).toHaveLength(0);
    });

    test('approved: the buyer is mailed the 7-day date and the reply-for-label line (once on a retry); the job reminds a day before and expires after', async () => {
      const admin = await adminClient(t());
      const productId = await createProduct(db(), { stock: 10 });
      const { order, api } = await buy(t(), admin, [{ productId }]);
      await deliver(admin, order.id);
      const [ret] = returnsViewSchema.parse((await t().client().post(api, { lines: [{ itemId: order.items[0]!.id, quantity: 1 }], reason: 'Fit' })).json()).returns;
      const ok = await act(admin, order.id, ret!.id, 'approve');
      expect(ok.statusCode, ok.body).toBe(200);
      const approved = returnListSchema.parse(ok.json())[0]!;
      expect(approved.status).toBe('approved');
      expect(Math.abs(new Date(approved.shipBackBy!).getTime() - (Date.now() + 7 * DAY))).toBeLessThan(MIN);
      expect((await act(admin, order.id, ret!.id, 'approve')).statusCode).toBe(200);
      const approvals = (await mails()).filter((m) => m.includes(`order ${order.orderNumber}: your return is approved`));
      expect(approvals).toHaveLength(1);
      expect(approvals[0]).toContain('reply to this e-mail');
      expect(approvals[0]).toMatch(/ship the pieces back by \w{3}, \w{3} \d{1,2}, \d{4}/);
      // Declining an approved return is not an edge: 409, nothing changes.
      expect((await act(admin, order.id, ret!.id, 'decline')).statusCode).toBe(409);

      shift = 6 * DAY + MIN;
      await t().services.returnOrder.sweep();
      expect((await returnsOf(order.id))[0]).toMatchObject({ status: 'approved' });
      expect((await mails()).filter((m) => m.includes(`order ${order.orderNumber}: ship your return by`))).toHaveLength(1);
      await t().services.returnOrder.sweep();
      expect((await mails()).filter((m) => m.includes(`order ${order.orderNumber}: ship your return by`))).toHaveLength(1);

      shift = 7 * DAY + MIN;
      await t().services.returnOrder.sweep();
      expect((await returnsOf(order.id))[0]).toMatchObject({ status: 'expired' });
      expect((await mails()).some((m) => m.includes(`order ${order.orderNumber}: your return expired`))).toBe(true);
      // Too late to be received.
      expect((await act(admin, order.id, ret!.id, 'receive-accept')).statusCode).toBe(409);
    });

    test('received and accepted: store credit for what was paid for the piece (not shipping), the same edition back on the shelf, once on a retry', async () => {
      const admin = await adminClient(t());
      const productId = await createProduct(db(), { stock: 10, price: '45.00' });
      const { order, api, key } = await buy(t(), admin, [{ productId, quantity: 2 }]);
      expect(order.items[0]!.editionNumbers).toEqual([1, 2]);
      const pieceCerts = async () =>
        orderViewSchema.parse((await t().client().get(`/api/orders/${order.orderNumber}?key=${key}`)).json()).items[0]!.pieces;
      const certs = await pieceCerts();
      expect(await productState(db(), productId)).toEqual({ stock: 8, soldCount: 2 });
      await deliver(admin, order.id);
      const before = await balance();
      const [ret] = returnsViewSchema.parse((await t().client().post(api, { lines: [{ itemId: order.items[0]!.id, quantity: 1 }], reason: 'Fit' })).json()).returns;
      expect((await act(admin, order.id, ret!.id, 'approve')).statusCode).toBe(200);
      // Accepting before it was approved is impossible; after approval "received and accepted" is one click.
      const res = await act(admin, order.id, ret!.id, 'receive-accept');
      expect(res.statusCode, res.body).toBe(200);
      const expected = linesRefundCents(
        { subtotalCents: parseMoney(order.subtotal), discountAmountCents: parseMoney(order.discountAmount), taxCents: parseMoney(order.tax) },
        [{ unitPriceCents: 4500, quantity: 1 }],
      );
      expect(returnListSchema.parse(res.json())).toMatchObject([{ status: 'accepted', credit: formatMoney(expected) }]);
      expect(expected).toBeLessThan(parseMoney(order.total) - parseMoney(order.shipping) + 1);
      expect(await balance()).toBe(before + expected);
      expect(await db().select().from(storeCreditEntries).where(eq(storeCreditEntries.sourceRef, returnCreditRef(ret!.id)))).toMatchObject([
        { kind: 'grant', source: 'return', amountCents: expected, orderId: order.id },
      ]);
      expect(await productState(db(), productId)).toEqual({ stock: 9, soldCount: 1 });
      // No. 2 is the shop's again: the order page keeps No. 1 only, and No. 2's certificate is gone.
      expect((await pieceCerts()).map((p) => p.editionNumber)).toEqual([1]);
      expect((await t().client().get(`/api/certificates/${certs[1]!.certificateId}`)).statusCode).toBe(404);
      expect((await t().client().get(`/api/certificates/${certs[0]!.certificateId}`)).statusCode).toBe(200);

      // Retried: no second credit, no second piece back, no second mail.
      expect((await act(admin, order.id, ret!.id, 'receive-accept')).statusCode).toBe(200);
      expect(await balance()).toBe(before + expected);
      expect(await productState(db(), productId)).toEqual({ stock: 9, soldCount: 1 });
      expect((await mails()).filter((m) => m.includes(`order ${order.orderNumber}: your return was accepted`))).toHaveLength(1);
      // And the credit mail every grant has: the balance and when it runs out, once.
      await expect.poll(async () => (await mails()).filter((m) => m.includes(`of store credit for order ${order.orderNumber}`)).length).toBe(1);
      expect((await mails()).find((m) => m.includes(`of store credit for order ${order.orderNumber}`))).toContain('Your store credit balance is');

      // The returned line's credit counts as given back: a goodwill refund can take only what is left.
      const left = parseMoney(order.total) - expected;
      const over = await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: formatMoney(left + 1), destination: 'credit' });
      expect(over.statusCode, over.body).toBe(400);
      expect(over.json()).toEqual({ message: `That is more than is left to refund on this order ($${formatMoney(left)}).` });

      // The order page shows the return and its credit; the next buyer gets the returned number 2.
      const page = returnsViewSchema.parse((await t().client().get(api)).json());
      expect(page.returns).toMatchObject([{ status: 'accepted', credit: formatMoney(expected) }]);
      const next = await buy(t(), admin, [{ productId }]);
      expect(next.order.items[0]!.editionNumbers).toEqual([2]);
    });

    test('received and rejected: the buyer mailed the note, no credit, nothing back on the shelf; declined: mailed', async () => {
      const admin = await adminClient(t());
      const productId = await createProduct(db(), { stock: 10 });
      const { order, api } = await buy(t(), admin, [{ productId }]);
      await deliver(admin, order.id);
      const before = await balance();
      const [ret] = returnsViewSchema.parse((await t().client().post(api, { lines: [{ itemId: order.items[0]!.id, quantity: 1 }], reason: 'Fit' })).json()).returns;
      expect((await act(admin, order.id, ret!.id, 'approve')).statusCode).toBe(200);
      const res = await act(admin, order.id, ret!.id, 'receive-reject', { note: 'The tags were removed.' });
      expect(res.statusCode, res.body).toBe(200);
      expect(returnListSchema.parse(res.json())).toMatchObject([{ status: 'rejected', credit: '0.00' }]);
      expect((await act(admin, order.id, ret!.id, 'receive-reject')).statusCode).toBe(200);
      expect(await balance()).toBe(before);
      expect(await productState(db(), productId)).toEqual({ stock: 9, soldCount: 1 });
      const rejected = (await mails()).filter((m) => m.includes(`order ${order.orderNumber}: your return could not be accepted`));
      expect(rejected).toHaveLength(1);
      expect(rejected[0]).toContain('The tags were removed.');

      const other = await buy(t(), admin, [{ productId }]);
      await deliver(admin, other.order.id);
      const [r2] = returnsViewSchema.parse((await t().client().post(other.api, { lines: [{ itemId: other.order.items[0]!.id, quantity: 1 }], reason: 'Fit' })).json()).returns;
      expect((await act(admin, other.order.id, r2!.id, 'decline')).statusCode).toBe(200);
      expect((await mails()).some((m) => m.includes(`order ${other.order.orderNumber}: your return was declined`))).toBe(true);
      // Another order's return id under this order: 404.
      expect((await act(admin, order.id, r2!.id, 'approve')).statusCode).toBe(404);
    });
  },
  { deps: { clock } },
);
