import Stripe from 'stripe';
import { eq, sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { createPaymentIntentResult } from '../../../common/contracts/checkout';
import { describeEachDb, type TestClient } from '../../../tests/support/build-test-app';
import { FakeStripeServer } from '../../../tests/support/fake-stripe-server';
import {
  createProduct,
  productState,
  readyShopper,
  startPayment,
  GOOD_CARD,
} from '../../../tests/support/shop-fixtures';
import { checkouts } from '../checkout/checkout.tables';
import { orders } from '../orders/orders.tables';
import { paymentEvents } from './payments.tables';

const fake = await new FakeStripeServer().start();
afterAll(() => fake.stop());
const WEBHOOK_SECRET = 'whsec_test_fake';

function signedWebhook(
  client: TestClient,
  payload: string,
  opts: { secret?: string; timestamp?: number; signature?: string | null } = {},
) {
  const signature =
    opts.signature === undefined
      ? Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: opts.secret ?? WEBHOOK_SECRET,
          timestamp: opts.timestamp,
        })
      : opts.signature;
  return client.request({
    method: 'POST',
    url: '/api/webhooks/stripe',
    payload,
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
  });
}

describeEachDb(
  'Stripe gateway (official SDK against a local fake Stripe)',
  (t) => {
    const ordersOf = (intentId: string) =>
      t().database.db.select().from(orders).where(eq(orders.stripePaymentIntentId, intentId));

    test('creates the intent through the SDK with the server amount, metadata and the checkout as idempotency key', async () => {
      const db = t().database.db;
      const productId = await createProduct(db, { price: '45.00', stock: 5 });
      const shopper = await readyShopper(t(), productId);
      const res = await shopper.post('/api/create-payment-intent', {});
      expect(res.statusCode, res.body).toBe(200);
      const result = createPaymentIntentResult.parse(res.json());
      expect(result.provider).toBe('stripe');
      const intent = fake.intents.get(result.paymentIntentId)!;
      expect(intent).toMatchObject({ amount: 5399, currency: 'usd', client_secret: result.clientSecret });
      const [checkout] = await db
        .select()
        .from(checkouts)
        .where(eq(checkouts.paymentIntentId, result.paymentIntentId));
      expect(intent.metadata).toEqual({ checkoutId: checkout!.id, sessionId: checkout!.sessionId });
      const created = fake.requests.find(
        (r) => r.path === '/v1/payment_intents' && r.params['metadata[checkoutId]'] === checkout!.id,
      );
      expect(created?.idempotencyKey).toBe(checkout!.id);
      expect((await t().client().get('/api/settings')).json()).toMatchObject({
        payments: { provider: 'stripe', stripePublishableKey: 'pk_test_fake' },
      });
    });

    test('payment-success: unpaid is 402, made-up is 404; paid gives the order once', async () => {
      const productId = await createProduct(t().database.db, { stock: 5 });
      const shopper = await readyShopper(t(), productId);
      const intent = await startPayment(shopper);
      const unpaid = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
      expect(unpaid.statusCode).toBe(402);
      expect(
        (await shopper.post('/api/payment-success', { paymentIntentId: 'pi_does_not_exist' })).statusCode,
      ).toBe(404);
      fake.succeed(intent.paymentIntentId);
      const ok = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
      expect(ok.statusCode).toBe(200);
      expect(
        (await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId })).json(),
      ).toEqual(ok.json());
      expect(await ordersOf(intent.paymentIntentId)).toHaveLength(1);
    });

    test('a signed payment_intent.succeeded webhook makes the order; the same event id is handled once', async () => {
      const db = t().database.db;
      const productId = await createProduct(db, { stock: 5 });
      const shopper = await readyShopper(t(), productId);
      const intent = await startPayment(shopper);
      fake.succeed(intent.paymentIntentId);
      const payload = fake.event(intent.paymentIntentId);
      const first = await signedWebhook(t().client(), payload);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toEqual({ received: true });
      const again = await signedWebhook(t().client(), payload);
      expect(again.json()).toEqual({ received: true, duplicate: true });
      expect(await ordersOf(intent.paymentIntentId)).toHaveLength(1);
      expect((await shopper.get('/api/orders/latest')).json()).toMatchObject({
        stripePaymentIntentId: intent.paymentIntentId,
      });
      expect((await shopper.get('/api/cart')).json()).toEqual([]);
      // Events about intents the shop does not know are acknowledged and ignored.
      expect((await signedWebhook(t().client(), fake.event('pi_unknown'))).statusCode).toBe(200);
      expect(
        (
          await signedWebhook(
            t().client(),
            fake.event(intent.paymentIntentId, 'payment_intent.payment_failed'),
          )
        ).statusCode,
      ).toBe(200);
    });

    test('webhooks with a bad, missing or stale signature are refused and change nothing', async () => {
      const db = t().database.db;
      const productId = await createProduct(db, { stock: 5 });
      const shopper = await readyShopper(t(), productId);
      const intent = await startPayment(shopper);
      fake.succeed(intent.paymentIntentId);
      const payload = fake.event(intent.paymentIntentId, 'payment_intent.succeeded', 'evt_forged');
      for (const res of [
        await signedWebhook(t().client(), payload, { secret: 'whsec_wrong' }),
        await signedWebhook(t().client(), payload, { signature: null }),
        await signedWebhook(t().client(), payload, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
        await signedWebhook(t().client(), payload.replace('"livemode":false', '"livemode":true'), {
          signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
        }),
      ]) {
        expect(res.statusCode).toBe(400);
        expect((res.json() as { message: string }).message).toMatch(/^Webhook signature verification failed/);
      }
      expect(await db.select().from(paymentEvents).where(eq(paymentEvents.id, 'evt_forged'))).toHaveLength(0);
      expect(await ordersOf(intent.paymentIntentId)).toHaveLength(0);
      // Within the 300 s tolerance it is accepted.
      const fresh = await signedWebhook(t().client(), payload, {
        timestamp: Math.floor(Date.now() / 1000) - 250,
      });
      expect(fresh.statusCode).toBe(200);
    });

    test('webhook and payment-success racing: one order, one number', async () => {
      const productId = await createProduct(t().database.db, { stock: 5 });
      const shopper = await readyShopper(t(), productId);
      const intent = await startPayment(shopper);
      fake.succeed(intent.paymentIntentId);
      const [hook, success, success2] = await Promise.all([
        signedWebhook(t().client(), fake.event(intent.paymentIntentId)),
        shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId }),
        shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId }),
      ]);
      expect(hook.statusCode).toBe(200);
      expect(success.statusCode).toBe(200);
      expect(success2.json()).toEqual(success.json());
      const made = await ordersOf(intent.paymentIntentId);
      expect(made).toHaveLength(1);
      expect(made[0]!.orderNumber).toBe((success.json() as { orderNumber: string }).orderNumber);
      expect(await productState(t().database.db, productId)).toEqual({ stock: 4, soldCount: 1 });
    });

    test('late payment with the stock gone is refunded through Stripe, idempotently', async () => {
      const db = t().database.db;
      const productId = await createProduct(db, { name: 'Only Piece', stock: 1 });
      const late = await readyShopper(t(), productId);
      const lateIntent = await startPayment(late);
      await db
        .update(checkouts)
        .set({ holdExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(checkouts.paymentIntentId, lateIntent.paymentIntentId));
      await t().services.checkout.releaseExpiredHolds();
      const quick = await readyShopper(t(), productId);
      const quickIntent = await startPayment(quick);
      fake.succeed(quickIntent.paymentIntentId);
      expect(
        (await quick.post('/api/payment-success', { paymentIntentId: quickIntent.paymentIntentId }))
          .statusCode,
      ).toBe(200);

      fake.succeed(lateIntent.paymentIntentId);
      const [hook, success] = await Promise.all([
        signedWebhook(t().client(), fake.event(lateIntent.paymentIntentId)),
        late.post('/api/payment-success', { paymentIntentId: lateIntent.paymentIntentId }),
      ]);
      expect(hook.statusCode).toBe(200);
      expect(success.statusCode).toBe(409);
      expect((success.json() as { message: string }).message).toContain('Your payment has been refunded');
      const refundCalls = fake.requests.filter(
        (r) => r.path === '/v1/refunds' && r.params.payment_intent === lateIntent.paymentIntentId,
      );
      expect(refundCalls.length).toBeGreaterThanOrEqual(1);
      expect(new Set(refundCalls.map((r) => r.idempotencyKey))).toEqual(
        new Set([`refund-${lateIntent.paymentIntentId}`]),
      );
      expect(fake.refunds.filter((r) => r.payment_intent === lateIntent.paymentIntentId)).toHaveLength(1);
      expect(await ordersOf(lateIntent.paymentIntentId)).toHaveLength(0);
      expect(await productState(db, productId)).toEqual({ stock: 0, soldCount: 1 });
    });

    test('reconciliation asks Stripe about unfinished checkouts and makes the missing order', async () => {
      const db = t().database.db;
      const productId = await createProduct(db, { stock: 5 });
      const shopper = await readyShopper(t(), productId);
      const intent = await startPayment(shopper);
      fake.succeed(intent.paymentIntentId);
      await db
        .update(checkouts)
        .set({ createdAt: sql`now() - interval '2 minutes'` })
        .where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
      expect(await t().services.fulfilment.reconcile()).toBeGreaterThanOrEqual(1);
      expect(await ordersOf(intent.paymentIntentId)).toHaveLength(1);
    });

    test('Stripe down while opening the intent: 502 with a message, and the hold goes back', async () => {
      const db = t().database.db;
      const productId = await createProduct(db, { stock: 2 });
      const shopper = await readyShopper(t(), productId);
      fake.failCreates = 10;
      const res = await shopper.post('/api/create-payment-intent', {});
      fake.failCreates = 0;
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ message: 'Failed to initialize payment. Please try again.' });
      expect(await productState(db, productId)).toEqual({ stock: 2, soldCount: 0 });
      const retry = await shopper.post('/api/create-payment-intent', {});
      expect(retry.statusCode).toBe(200);
      expect(await productState(db, productId)).toEqual({ stock: 1, soldCount: 0 });
    });

    test('a replaced intent is cancelled at Stripe; the offline confirm is not served', async () => {
      const productId = await createProduct(t().database.db, { stock: 5 });
      const shopper = await readyShopper(t(), productId);
      const first = await startPayment(shopper);
      await shopper.post('/api/cart', { productId, selectedSize: 'S' });
      await startPayment(shopper);
      await expect.poll(() => fake.intents.get(first.paymentIntentId)!.status).toBe('canceled');
      const offline = await shopper.post('/api/payments/offline/confirm', {
        clientSecret: first.clientSecret,
        ...GOOD_CARD,
      });
      expect(offline.statusCode).toBe(404);
    });
  },
  { env: fake.env() },
);
