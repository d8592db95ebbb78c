import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { adminOrderSchema, type AdminOrder } from '../../../common/contracts/admin';
import { latestOrderSchema, orderViewSchema } from '../../../common/contracts/orders';
import { adminClient } from '../../../tests/support/admin-session';
import { parseMoney } from '../../../common/domain/money';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { FakeStripeServer } from '../../../tests/support/fake-stripe-server';
import { createProduct, productState, readyShopper, startPayment } from '../../../tests/support/shop-fixtures';
import { orderDisputes, orderRefunds } from '../orders/orders.tables';
import { paymentEvents } from './payments.tables';

const fake = await new FakeStripeServer().start();
afterAll(() => fake.stop());
const WEBHOOK_SECRET = 'whsec_test_fake';

function post(client: TestClient, payload: string, signed = true) {
  const signature = signed ? Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) : null;
  return client.request({
    method: 'POST',
    url: '/api/webhooks/stripe',
    payload,
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
  });
}

/** A paid Stripe order (the payment_intent.succeeded webhook made it), confirmed by the owner. */
async function paidOrder(t: TestApp, admin: TestClient) {
  const productId = await createProduct(t.database.db, { stock: 5, price: '45.00' });
  const shopper = await readyShopper(t, productId);
  const intent = await startPayment(shopper);
  fake.succeed(intent.paymentIntentId);
  expect((await post(t.client(), fake.event(intent.paymentIntentId))).statusCode).toBe(200);
  const latest = latestOrderSchema.parse((await shopper.get('/api/orders/latest')).json());
  expect((await admin.put(`/api/admin/orders/${latest.id}/status`, { status: 'confirmed' })).statusCode).toBe(200);
  return { productId, shopper, intentId: intent.paymentIntentId, id: latest.id, orderPath: latest.orderPath, total: latest.total };
}

async function adminOrder(admin: TestClient, id: string): Promise<AdminOrder> {
  const list = (await admin.get('/api/admin/orders')).json() as AdminOrder[];
  return adminOrderSchema.parse(list.find((o) => o.id === id));
}

describeEachDb(
  'refunds and disputes from Stripe reach the shop (signed webhooks, local fake Stripe)',
  (t) => {
    const db = () => t().database.db;
    const refundsOf = (orderId: string) => db().select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId));

    test('charge.refunded for a refund made in the Stripe dashboard records it once; a replay changes nothing', async () => {
      const admin = await adminClient(t());
      const order = await paidOrder(t(), admin);
      const made = fake.dashboardRefund(order.intentId, 1500);
      const payload = fake.chargeRefundedEvent(order.intentId);
      const first = await post(t().client(), payload);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toEqual({ received: true });
      expect((await post(t().client(), payload)).json()).toEqual({ received: true, duplicate: true });
      // A second event about the same refund (another id) records nothing new either.
      expect((await post(t().client(), fake.chargeRefundedEvent(order.intentId))).statusCode).toBe(200);
      const rows = await refundsOf(order.id);
      expect(rows).toMatchObject([{ amountCents: 1500, status: 'succeeded', reason: 'provider', gatewayRefundId: made.id }]);
      // The order shows it; nothing came back to the shelf (the owner did not cancel).
      expect((await adminOrder(admin, order.id)).refunds).toMatchObject([{ amount: '15.00', status: 'succeeded', reason: 'provider' }]);
      expect(await productState(db(), order.productId)).toEqual({ stock: 4, soldCount: 1 });
      const view = orderViewSchema.parse((await order.shopper.get(`/api${order.orderPath}`)).json());
      expect(view.refunded).toBe('15.00');
    });

    test('an unsigned or wrongly signed charge.refunded is a 400 and records nothing', async () => {
      const admin = await adminClient(t());
      const order = await paidOrder(t(), admin);
      fake.dashboardRefund(order.intentId, 500);
      const payload = fake.chargeRefundedEvent(order.intentId, 'evt_unsigned_refund');
      const unsigned = await post(t().client(), payload, false);
      expect(unsigned.statusCode).toBe(400);
      expect((unsigned.json() as { message: string }).message).toMatch(/^Webhook signature verification failed/);
      const forged = await t().client().request({
        method: 'POST',
        url: '/api/webhooks/stripe',
        payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' }) },
      });
      expect(forged.statusCode).toBe(400);
      expect(await refundsOf(order.id)).toHaveLength(0);
      expect(await db().select().from(paymentEvents).where(eq(paymentEvents.id, 'evt_unsigned_refund'))).toHaveLength(0);
    });

    test("the owner's cancellation through Stripe: a partial refund with the record's key and id; its own charge.refunded adds nothing", async () => {
      const admin = await adminClient(t());
      const order = await paidOrder(t(), admin);
      const res = await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: '5.00' });
      expect(res.statusCode, res.body).toBe(200);
      const [record] = await refundsOf(order.id);
      const call = fake.requests.find((r) => r.path === '/v1/refunds' && r.params['metadata[refundId]'] === record!.id)!;
      expect(call).toMatchObject({ idempotencyKey: `order-refund-${record!.id}`, params: { amount: '500', payment_intent: order.intentId } });
      expect(record).toMatchObject({ status: 'succeeded', gatewayRefundId: fake.refunds.find((r) => r.metadata?.refundId === record!.id)!.id });
      expect((await post(t().client(), fake.chargeRefundedEvent(order.intentId))).statusCode).toBe(200);
      expect(await refundsOf(order.id)).toHaveLength(1);
      // Above what is left at Stripe too: the shop's own check answers first (400), Stripe is not asked.
      const before = fake.requests.length;
      const over = await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: order.total });
      expect(over.statusCode).toBe(400);
      expect(fake.requests.slice(before).some((r) => r.path === '/v1/refunds')).toBe(false);
    });

    test("a cancellation whose answer from Stripe was lost is settled by its charge.refunded: once, pieces back", async () => {
      const admin = await adminClient(t());
      const order = await paidOrder(t(), admin);
      const gateway = t().services.gateway;
      const real = gateway.refundPayment.bind(gateway);
      gateway.refundPayment = async (input) => {
        await real(input);
        throw new Error('socket hang up');
      };
      try {
        expect((await admin.post(`/api/admin/orders/${order.id}/cancel`, {})).statusCode).toBe(502);
      } finally {
        gateway.refundPayment = real;
      }
      expect((await refundsOf(order.id)).map((r) => r.status)).toEqual(['requested']);
      expect(await productState(db(), order.productId)).toEqual({ stock: 4, soldCount: 1 });
      const event = fake.chargeRefundedEvent(order.intentId);
      expect((await post(t().client(), event)).statusCode).toBe(200);
      expect((await post(t().client(), fake.chargeRefundedEvent(order.intentId))).statusCode).toBe(200);
      const rows = await refundsOf(order.id);
      expect(rows).toMatchObject([{ status: 'succeeded', reason: 'cancellation', amountCents: parseMoney(order.total) }]);
      expect(fake.refunds.filter((r) => r.payment_intent === order.intentId)).toHaveLength(1);
      expect(await productState(db(), order.productId)).toEqual({ stock: 5, soldCount: 0 });
      // Reconciliation finds nothing left to do.
      expect(await t().services.refundOrder.reconcile({ olderThanMs: -1000 })).toBe(0);
    });

    test('a dispute holds the unshipped order from the pick list until it closes; replays change nothing', async () => {
      const admin = await adminClient(t());
      const order = await paidOrder(t(), admin);
      const pickList = async () => (await admin.get('/api/admin/pick-list.csv')).body;
      const number = (await adminOrder(admin, order.id)).orderNumber;
      expect(await pickList()).toContain(number);

      const created = fake.disputeEvent(order.intentId, 'charge.dispute.created', { id: 'dp_test_1' });
      expect((await post(t().client(), created)).statusCode).toBe(200);
      expect((await post(t().client(), created)).json()).toEqual({ received: true, duplicate: true });
      expect(await db().select().from(orderDisputes).where(eq(orderDisputes.orderId, order.id))).toMatchObject([
        { id: 'dp_test_1', status: 'open', amountCents: parseMoney(order.total), reason: 'fraudulent' },
      ]);
      expect((await adminOrder(admin, order.id)).disputes).toMatchObject([{ status: 'open', reason: 'fraudulent' }]);
      expect(await pickList()).not.toContain(number);
      const view = orderViewSchema.parse((await order.shopper.get(`/api${order.orderPath}`)).json());
      expect(view.disputed).toBe(true);

      const closed = fake.disputeEvent(order.intentId, 'charge.dispute.closed', { id: 'dp_test_1', status: 'won' });
      expect((await post(t().client(), closed)).statusCode).toBe(200);
      expect((await adminOrder(admin, order.id)).disputes).toMatchObject([{ status: 'won' }]);
      expect(await pickList()).toContain(number);
      // A late replay of the opening (another event id) does not reopen it.
      expect((await post(t().client(), fake.disputeEvent(order.intentId, 'charge.dispute.created', { id: 'dp_test_1' }))).statusCode).toBe(200);
      expect((await adminOrder(admin, order.id)).disputes).toMatchObject([{ status: 'won' }]);
    });
  },
  { env: fake.env() },
);
