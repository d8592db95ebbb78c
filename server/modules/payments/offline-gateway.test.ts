import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import {
  codeUsage,
  confirmOffline,
  createCode,
  createProduct,
  DECLINED_CARD,
  GOOD_CARD,
  NO_FUNDS_CARD,
  productState,
  readyShopper,
  startPayment,
} from '../../../tests/support/shop-fixtures';
import { orders } from '../orders/orders.tables';
import { offlineIntents } from './payments.tables';

describeEachDb('offline test gateway: POST /api/payments/offline/confirm', (t) => {
  test('4242 4242 4242 4242 succeeds with {id, status, amount} and makes the order by itself', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { price: '45.00', stock: 5 });
    const shopper = await readyShopper(t(), productId);
    const intent = await startPayment(shopper);
    const res = await confirmOffline(shopper, intent.clientSecret);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: intent.paymentIntentId, status: 'succeeded', amount: 5399 });
    // No payment-success call: the gateway's own success event made the order.
    const latest = await shopper.get('/api/orders/latest');
    expect(latest.statusCode).toBe(200);
    expect(latest.json()).toMatchObject({ stripePaymentIntentId: intent.paymentIntentId, total: '53.99' });
    expect((await shopper.get('/api/cart')).json()).toEqual([]);
    expect(await productState(db, productId)).toEqual({ stock: 4, soldCount: 1 });
    // Confirming again is harmless.
    expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
    expect(
      await db.select().from(orders).where(eq(orders.stripePaymentIntentId, intent.paymentIntentId)),
    ).toHaveLength(1);
  });

  test.each([
    [DECLINED_CARD, 'Your card was declined.'],
    [NO_FUNDS_CARD, 'Your card has insufficient funds.'],
    [{ ...GOOD_CARD, cardNumber: '4242 4242 4242 4241' }, 'Your card number is invalid.'],
    [{ ...GOOD_CARD, expiry: '13/30' }, "Your card's expiration date is invalid."],
    [{ ...GOOD_CARD, expiry: '01/20' }, 'Your card has expired.'],
    [{ ...GOOD_CARD, cvc: '1' }, "Your card's security code is invalid."],
  ])(
    '%j is refused with 402 "%s"; cart, hold and code stay; a good card then works',
    async (card, message) => {
      const db = t().database.db;
      const productId = await createProduct(db, { stock: 3 });
      const code = await createCode(db, { maxUsage: 1 });
      const shopper = await readyShopper(t(), productId);
      const intent = await startPayment(shopper, { discountCode: code });
      const declined = await confirmOffline(shopper, intent.clientSecret, card);
      expect(declined.statusCode).toBe(402);
      expect(declined.json()).toEqual({ message });
      expect((await shopper.get('/api/cart')).json()).toHaveLength(1);
      expect(await productState(db, productId)).toEqual({ stock: 2, soldCount: 0 });
      expect(await codeUsage(db, code)).toBe(1);
      const unpaid = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
      expect(unpaid.statusCode).toBe(402);
      expect(unpaid.json()).toEqual({ message: 'Payment has not been completed' });

      expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
      const done = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
      expect(done.statusCode).toBe(200);
      expect((await shopper.get('/api/orders/latest')).json()).toMatchObject({ discountCode: code });
      expect(await codeUsage(db, code)).toBe(1);
    },
  );

  test('unknown client secrets and replaced intents cannot be paid', async () => {
    const db = t().database.db;
    const shopper = t().client();
    const unknown = await confirmOffline(shopper, 'pi_offline_nope_secret_nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Payment not found' });
    const bad = await shopper.post('/api/payments/offline/confirm', { clientSecret: 'x' });
    expect(bad.statusCode).toBe(400);

    const productId = await createProduct(db, { stock: 3 });
    const buyer = await readyShopper(t(), productId);
    const first = await startPayment(buyer);
    await buyer.post('/api/cart', { productId, selectedSize: 'S' });
    await startPayment(buyer);
    await expect
      .poll(
        async () =>
          (await db.select().from(offlineIntents).where(eq(offlineIntents.id, first.paymentIntentId)))[0]!
            .status,
      )
      .toBe('canceled');
    const stale = await confirmOffline(buyer, first.clientSecret);
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({
      message: 'This payment is no longer valid. Please reload the page and try again.',
    });
  });

  test('the Stripe webhook is not served without Stripe', async () => {
    const res = await t().client().post('/api/webhooks/stripe', { id: 'evt_1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty('message');
  });
});
