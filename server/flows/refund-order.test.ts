import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { adminOrderSchema, type AdminOrder } from '../../common/contracts/admin';
import { AFTER_SALE_MESSAGES } from '../../common/contracts/after-sale';
import { latestOrderSchema, orderViewSchema } from '../../common/contracts/orders';
import { adminClient } from '../../tests/support/admin-session';
import { formatMoney, parseMoney } from '../../common/domain/money';
import { describeEachDb, type TestApp, type TestClient } from '../../tests/support/build-test-app';
import { confirmOffline, createProduct, productState, readyShopper, startPayment } from '../../tests/support/shop-fixtures';
import { orderRefunds } from '../modules/orders/orders.tables';
import { offlineIntents, offlineRefunds } from '../modules/payments/payments.tables';

/** Buys through the API: `lines` products (each `quantity` pieces) in one order; the order as the admin sees it. */
async function buy(t: TestApp, admin: TestClient, lines: Array<{ productId: string; quantity?: number }>) {
  const shopper = await readyShopper(t, lines[0]!.productId, { quantity: lines[0]!.quantity });
  for (const l of lines.slice(1)) {
    const add = await shopper.post('/api/cart', { productId: l.productId, quantity: l.quantity ?? 1, selectedSize: 'M' });
    expect(add.statusCode, add.body).toBe(200);
  }
  const intent = await startPayment(shopper);
  expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
  const latest = latestOrderSchema.parse((await shopper.get('/api/orders/latest')).json());
  return { shopper, intentId: intent.paymentIntentId, orderPath: latest.orderPath, order: await adminOrder(admin, latest.id) };
}

async function adminOrder(admin: TestClient, id: string): Promise<AdminOrder> {
  const list = (await admin.get('/api/admin/orders')).json() as AdminOrder[];
  return adminOrderSchema.parse(list.find((o) => o.id === id));
}

function outbox(t: TestApp): string[] {
  const dir = path.join(t.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='));
}

describeEachDb('cancel and refund (the owner), on the offline gateway and the real database', (t) => {
  const db = () => t().database.db;
  const refundsOf = (orderId: string) => db().select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId));
  const refundedAtGateway = async (intentId: string) =>
    (await db().select({ n: offlineIntents.refundedAmount }).from(offlineIntents).where(eq(offlineIntents.id, intentId)))[0]!.n;

  test('cancel a whole order: money back, status cancelled, the same edition numbers back for the next sale, a retry changes nothing', async () => {
    const admin = await adminClient(t());
    const productId = await createProduct(db(), { stock: 10, price: '45.00' });
    const first = await buy(t(), admin, [{ productId, quantity: 2 }]);
    expect(first.order.items[0]!.editionNumbers).toEqual([1, 2]);
    await buy(t(), admin, [{ productId }]);
    expect(await productState(db(), productId)).toEqual({ stock: 7, soldCount: 3 });

    const body = { requestKey: 'cancel-whole-0001' };
    const res = await admin.post(`/api/admin/orders/${first.order.id}/cancel`, body);
    expect(res.statusCode, res.body).toBe(200);
    const cancelled = adminOrderSchema.parse(res.json());
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.items.every((i) => i.cancelled)).toBe(true);
    expect(cancelled.refunds).toMatchObject([{ amount: first.order.total, status: 'succeeded', reason: 'cancellation', destination: 'card' }]);
    expect(await refundedAtGateway(first.intentId)).toBe(parseMoney(first.order.total));
    expect(await productState(db(), productId)).toEqual({ stock: 9, soldCount: 1 });
    // A "shipped" after the cancellation loses: its pieces are back on the shelf.
    const ship = await admin.put(`/api/admin/orders/${first.order.id}/status`, { status: 'shipped' });
    expect(ship.statusCode).toBe(409);
    expect(ship.json()).toEqual({ message: AFTER_SALE_MESSAGES.cancelledNotShippable });

    // Retried (a double click, a lost answer): no second refund, no second return.
    const again = await admin.post(`/api/admin/orders/${first.order.id}/cancel`, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(await refundsOf(first.order.id)).toHaveLength(1);
    expect(await db().select().from(offlineRefunds).where(eq(offlineRefunds.intentId, first.intentId))).toHaveLength(1);
    expect(await productState(db(), productId)).toEqual({ stock: 9, soldCount: 1 });

    // The next buyer gets the returned numbers first: the same pieces, not new ones.
    const next = await buy(t(), admin, [{ productId, quantity: 2 }]);
    expect([...next.order.items[0]!.editionNumbers].sort()).toEqual([1, 2]);

    // The buyer's page and mail say so.
    const view = orderViewSchema.parse((await first.shopper.get(`/api${first.orderPath}`)).json());
    expect(view).toMatchObject({ status: 'cancelled', refunded: first.order.total });
    expect(view.items[0]).toMatchObject({ cancelled: true, pieces: [] });
    await t().services.orders.drainMail();
    const mail = outbox(t()).find((m) => m.includes(`order ${first.order.orderNumber} was cancelled and refunded`));
    expect(mail).toBeDefined();
    expect(mail).toContain(first.orderPath);
  });

  test('cancel one line: that line refunded at what was paid for it, its pieces back, the order stays open', async () => {
    const admin = await adminClient(t());
    const keep = await createProduct(db(), { stock: 5, price: '30.00' });
    const drop = await createProduct(db(), { stock: 5, price: '45.00' });
    const { order, intentId } = await buy(t(), admin, [{ productId: keep }, { productId: drop }]);
    const line = order.items.find((i) => i.productPrice === '45.00')!;

    const res = await admin.post(`/api/admin/orders/${order.id}/cancel`, { itemIds: [line.id] });
    expect(res.statusCode, res.body).toBe(200);
    const after = adminOrderSchema.parse(res.json());
    expect(after.status).toBe(order.status);
    expect(after.items.map((i) => [i.productPrice, i.cancelled])).toEqual(
      order.items.map((i) => [i.productPrice, i.id === line.id]),
    );
    expect(after.refunds).toMatchObject([{ amount: '45.00', status: 'succeeded' }]);
    expect(await refundedAtGateway(intentId)).toBe(4500);
    expect(await productState(db(), drop)).toEqual({ stock: 5, soldCount: 0 });
    expect(await productState(db(), keep)).toEqual({ stock: 4, soldCount: 1 });

    // The last line takes what is left, shipping too; then nothing is left to cancel or refund.
    const rest = await admin.post(`/api/admin/orders/${order.id}/cancel`, {});
    expect(adminOrderSchema.parse(rest.json()).status).toBe('cancelled');
    expect(await refundedAtGateway(intentId)).toBe(parseMoney(order.total));
    const over = await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: '0.01' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ message: AFTER_SALE_MESSAGES.nothingLeft });
  });

  test('a partial goodwill refund, then one above what is left is a 400 and changes nothing', async () => {
    const admin = await adminClient(t());
    const productId = await createProduct(db(), { stock: 5, price: '45.00' });
    const { order, intentId } = await buy(t(), admin, [{ productId }]);
    const total = parseMoney(order.total);

    const ok = await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: '10.00', requestKey: 'goodwill-0001' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(adminOrderSchema.parse(ok.json()).refunds).toMatchObject([{ amount: '10.00', status: 'succeeded', reason: 'goodwill' }]);
    // The same request again is the same refund.
    expect((await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: '10.00', requestKey: 'goodwill-0001' })).statusCode).toBe(200);
    expect(await refundedAtGateway(intentId)).toBe(1000);

    const left = formatMoney(total - 1000);
    const over = await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: formatMoney(total - 999) });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ message: AFTER_SALE_MESSAGES.overRefund(left) });
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(await refundedAtGateway(intentId)).toBe(1000);
    // Pieces stay with the buyer; the order keeps its status.
    expect(await productState(db(), productId)).toEqual({ stock: 4, soldCount: 1 });
    for (const bad of [{ amount: '-1' }, { amount: '1.234' }, {}, { amount: '1', itemIds: [order.items[0]!.id] }]) {
      const res = await admin.post(`/api/admin/orders/${order.id}/refund`, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toHaveProperty('message');
    }
    // Exactly what is left is fine.
    expect((await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: left })).statusCode).toBe(200);
    expect(await refundedAtGateway(intentId)).toBe(total);
  });

  test('a goodwill refund of a line gives back what it cost; the pieces stay with the buyer', async () => {
    const admin = await adminClient(t());
    const a = await createProduct(db(), { stock: 5, price: '30.00' });
    const b = await createProduct(db(), { stock: 5, price: '45.00' });
    const { order, intentId } = await buy(t(), admin, [{ productId: a }, { productId: b }]);
    const line = order.items.find((i) => i.productPrice === '30.00')!;
    const res = await admin.post(`/api/admin/orders/${order.id}/refund`, { itemIds: [line.id] });
    expect(res.statusCode, res.body).toBe(200);
    const after = adminOrderSchema.parse(res.json());
    expect(after.refunds).toMatchObject([{ amount: '30.00', status: 'succeeded', reason: 'goodwill' }]);
    expect(after.items.some((i) => i.cancelled)).toBe(false);
    expect(after.status).toBe(order.status);
    expect(await refundedAtGateway(intentId)).toBe(3000);
    expect(await productState(db(), a)).toEqual({ stock: 4, soldCount: 1 });
  });

  test('two refunds at once that together exceed what was paid: one goes through, the other is a 400', async () => {
    const admin = await adminClient(t());
    const productId = await createProduct(db(), { stock: 5, price: '45.00' });
    const { order, intentId } = await buy(t(), admin, [{ productId }]);
    const sixtyPercent = formatMoney(Math.floor((parseMoney(order.total) * 6) / 10));
    const answers = await Promise.all([1, 2].map(() => admin.post(`/api/admin/orders/${order.id}/refund`, { amount: sixtyPercent })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(await refundedAtGateway(intentId)).toBe(parseMoney(sixtyPercent));
  });

  test('a shipped order cannot be cancelled (409, nothing changed); only the owner may cancel', async () => {
    const admin = await adminClient(t());
    const productId = await createProduct(db(), { stock: 5 });
    const { order, intentId } = await buy(t(), admin, [{ productId }]);
    expect((await admin.put(`/api/admin/orders/${order.id}/status`, { status: 'shipped' })).statusCode).toBe(200);
    const res = await admin.post(`/api/admin/orders/${order.id}/cancel`, {});
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: AFTER_SALE_MESSAGES.shipped });
    expect(await refundsOf(order.id)).toHaveLength(0);
    expect(await refundedAtGateway(intentId)).toBe(0);
    expect((await t().client().post(`/api/admin/orders/${order.id}/cancel`, {})).statusCode).toBe(401);
  });

  test('a cancellation racing a "shipped" change: exactly one wins, a shipped order is never refunded', async () => {
    const admin = await adminClient(t());
    const productId = await createProduct(db(), { stock: 20 });
    const outcomes = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const { order, intentId } = await buy(t(), admin, [{ productId }]);
      const ship = () => admin.put(`/api/admin/orders/${order.id}/status`, { status: 'shipped' });
      const cancel = () => admin.post(`/api/admin/orders/${order.id}/cancel`, {});
      // Sent together, in turn one first then the other: both orders of arrival are tried.
      const [shipped, cancelled] = i % 2 ? await Promise.all([ship(), cancel()]) : await Promise.all([cancel(), ship()]).then(([c, s]) => [s, c] as const);
      const now = await adminOrder(admin, order.id);
      if (now.status === 'shipped') {
        outcomes.add('shipped');
        expect(cancelled!.statusCode).toBe(409);
        expect(await refundsOf(order.id)).toHaveLength(0);
        expect(await refundedAtGateway(intentId)).toBe(0);
        expect(now.items.some((x) => x.cancelled)).toBe(false);
      } else {
        outcomes.add('cancelled');
        expect(now.status).toBe('cancelled');
        expect(shipped!.statusCode).toBe(409);
        expect(shipped!.json()).toEqual({ message: AFTER_SALE_MESSAGES.cancelledNotShippable });
        expect(now.refunds).toMatchObject([{ status: 'succeeded' }]);
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  test('a crash between the gateway refund and the ledger write is healed by reconciliation, exactly once', async () => {
    const admin = await adminClient(t());
    const productId = await createProduct(db(), { stock: 5 });
    const { order, intentId } = await buy(t(), admin, [{ productId }]);
    const gateway = t().services.gateway;
    const real = gateway.refundPayment.bind(gateway);
    // The provider refunds, then the shop never hears back (killed, network cut).
    gateway.refundPayment = async (input) => {
      await real(input);
      throw new Error('connection reset after the refund');
    };
    try {
      const res = await admin.post(`/api/admin/orders/${order.id}/cancel`, {});
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ message: AFTER_SALE_MESSAGES.gatewayPending });
    } finally {
      gateway.refundPayment = real;
    }
    const total = parseMoney(order.total);
    expect(await refundedAtGateway(intentId)).toBe(total);
    expect((await refundsOf(order.id)).map((r) => r.status)).toEqual(['requested']);
    // The order is cancelled (no late "shipped" can take it) but its pieces wait for the refund's record.
    expect(await productState(db(), productId)).toEqual({ stock: 4, soldCount: 1 });

    expect(await t().services.refundOrder.reconcile({ olderThanMs: -1000 })).toBe(1);
    expect(await t().services.refundOrder.reconcile({ olderThanMs: -1000 })).toBe(0);
    const [refund] = await refundsOf(order.id);
    expect(refund).toMatchObject({ status: 'succeeded', amountCents: total });
    expect(refund!.gatewayRefundId).toMatch(/^re_offline_/);
    expect(await db().select().from(offlineRefunds).where(eq(offlineRefunds.intentId, intentId))).toHaveLength(1);
    expect(await refundedAtGateway(intentId)).toBe(total);
    expect(await productState(db(), productId)).toEqual({ stock: 5, soldCount: 0 });
  });
});
