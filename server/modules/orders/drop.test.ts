import { and, eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import {
  codeUsage,
  confirmOffline,
  createCode,
  createProduct,
  productState,
  readyShopper,
  startPayment,
} from '../../../tests/support/shop-fixtures';
import { checkouts } from '../checkout/checkout.tables';
import { offlineIntents } from '../payments/payments.tables';
import { orderItems, orders } from './orders.tables';

/** Concurrency of a drop: many shoppers, few pieces. Never oversell, never lose a paid order. */
describeEachDb('drop: races for the last pieces', (t) => {
  async function ordersFor(productId: string) {
    return t()
      .database.db.select({
        orderNumber: orders.orderNumber,
        discountCode: orders.discountCode,
        editionNumbers: orderItems.editionNumbers,
      })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(eq(orderItems.productId, productId));
  }

  test('12 shoppers racing for 3 pieces: exactly 3 orders, stock 0, editions 1–3', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { name: 'Drop Three', stock: 3 });
    const shoppers = await Promise.all(Array.from({ length: 12 }, () => readyShopper(t(), productId)));
    const outcomes = await Promise.all(
      shoppers.map(async (shopper) => {
        const res = await shopper.post('/api/create-payment-intent', {});
        if (res.statusCode !== 200)
          return { status: res.statusCode, message: (res.json() as { message: string }).message };
        const intent = res.json() as { clientSecret: string; paymentIntentId: string };
        const paid = await confirmOffline(shopper, intent.clientSecret);
        const done = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
        return { status: done.statusCode, paid: paid.statusCode };
      }),
    );
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(3);
    const refused = outcomes.filter((o) => o.status !== 200);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r).toEqual({ status: 409, message: 'Sorry, Drop Three just sold out' });
    expect(await productState(db, productId)).toEqual({ stock: 0, soldCount: 3 });
    const made = await ordersFor(productId);
    expect(made).toHaveLength(3);
    expect(made.flatMap((o) => o.editionNumbers).sort()).toEqual([1, 2, 3]);
  });

  test('5 concurrent checkouts with one single-use code: one discounted order, the rest are told', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { stock: 10 });
    const code = await createCode(db, { maxUsage: 1, discountPercent: 50 });
    const shoppers = await Promise.all(Array.from({ length: 5 }, () => readyShopper(t(), productId)));
    const results = await Promise.all(
      shoppers.map((s) => s.post('/api/create-payment-intent', { discountCode: code })),
    );
    const winners = results.map((r, i) => ({ r, s: shoppers[i]! })).filter(({ r }) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    for (const r of results.filter((r) => r.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({ message: 'This discount code has already been used' });
    }
    expect(await codeUsage(db, code)).toBe(1);
    expect((await productState(db, productId)).stock).toBe(9);
    const { s, r } = winners[0]!;
    const intent = r.json() as { clientSecret: string; paymentIntentId: string };
    await confirmOffline(s, intent.clientSecret);
    expect(
      (await s.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId })).statusCode,
    ).toBe(200);
    const made = await ordersFor(productId);
    expect(made.filter((o) => o.discountCode === code)).toHaveLength(1);
    expect(await codeUsage(db, code)).toBe(1);
  });

  test('payment-success twice at once (and the reconciliation job with them): one order', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { stock: 5 });
    const shopper = await readyShopper(t(), productId);
    const intent = await startPayment(shopper);
    // Paid at the provider, but nothing has told the shop yet.
    await db
      .update(offlineIntents)
      .set({ status: 'succeeded' })
      .where(eq(offlineIntents.id, intent.paymentIntentId));
    await db
      .update(checkouts)
      .set({ createdAt: sql`now() - interval '5 minutes'` })
      .where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
    const [a, b] = await Promise.all([
      shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId }),
      shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId }),
      t().services.fulfilment.reconcile(),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json()).toEqual(b.json());
    expect(
      await db.select().from(orders).where(eq(orders.stripePaymentIntentId, intent.paymentIntentId)),
    ).toHaveLength(1);
    expect(await productState(db, productId)).toEqual({ stock: 4, soldCount: 1 });
  });

  test('an expired hold returns its stock and its code usage', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { stock: 4 });
    const code = await createCode(db, { maxUsage: 1 });
    const shopper = await readyShopper(t(), productId, { quantity: 3 });
    const intent = await startPayment(shopper, { discountCode: code });
    expect(await productState(db, productId)).toEqual({ stock: 1, soldCount: 0 });
    expect(await codeUsage(db, code)).toBe(1);
    // Not yet due: nothing happens.
    await t().services.checkout.releaseExpiredHolds();
    expect((await productState(db, productId)).stock).toBe(1);

    await db
      .update(checkouts)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
    expect(await t().services.checkout.releaseExpiredHolds()).toBeGreaterThanOrEqual(1);
    expect(await productState(db, productId)).toEqual({ stock: 4, soldCount: 0 });
    expect(await codeUsage(db, code)).toBe(0);
    const [row] = await db
      .select()
      .from(checkouts)
      .where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
    expect(row).toMatchObject({ status: 'expired', discountClaimed: false });
    // Running the job again changes nothing.
    await t().services.checkout.releaseExpiredHolds();
    expect((await productState(db, productId)).stock).toBe(4);

    // Paying late while the stock is still there still makes the order (stock and code are taken again).
    expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
    expect(
      (await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId })).statusCode,
    ).toBe(200);
    expect(await productState(db, productId)).toEqual({ stock: 1, soldCount: 3 });
    expect(await codeUsage(db, code)).toBe(1);
  });

  test('a paid intent without a browser callback becomes an order through the reconciliation job', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { stock: 5 });
    const shopper = await readyShopper(t(), productId);
    const intent = await startPayment(shopper);
    await db
      .update(offlineIntents)
      .set({ status: 'succeeded' })
      .where(eq(offlineIntents.id, intent.paymentIntentId));
    // Too recent: the browser may still be on its way.
    expect(await t().services.fulfilment.reconcile()).toBe(0);
    await db
      .update(checkouts)
      .set({ createdAt: sql`now() - interval '2 minutes'` })
      .where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
    expect(await t().services.fulfilment.reconcile()).toBeGreaterThanOrEqual(1);
    const latest = await shopper.get('/api/orders/latest');
    expect(latest.statusCode).toBe(200);
    expect(latest.json()).toMatchObject({ stripePaymentIntentId: intent.paymentIntentId });
    expect((await shopper.get('/api/cart')).json()).toEqual([]);
  });

  test('paid after the hold expired and the last piece went to someone else: refunded, never oversold', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { name: 'Last Piece', stock: 1 });
    const late = await readyShopper(t(), productId);
    const lateIntent = await startPayment(late);
    await db
      .update(checkouts)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(checkouts.paymentIntentId, lateIntent.paymentIntentId));
    await t().services.checkout.releaseExpiredHolds();

    const quick = await readyShopper(t(), productId);
    const quickIntent = await startPayment(quick);
    await confirmOffline(quick, quickIntent.clientSecret);
    expect(
      (await quick.post('/api/payment-success', { paymentIntentId: quickIntent.paymentIntentId })).statusCode,
    ).toBe(200);

    // The card goes through at the provider...
    expect((await confirmOffline(late, lateIntent.clientSecret)).statusCode).toBe(200);
    // ...but the shop gives the money back and says so.
    const res = await late.post('/api/payment-success', { paymentIntentId: lateIntent.paymentIntentId });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'Sorry, Last Piece sold out before your payment went through. Your payment has been refunded.',
    });
    const [refunded] = await db
      .select()
      .from(offlineIntents)
      .where(eq(offlineIntents.id, lateIntent.paymentIntentId));
    expect(refunded!.refundedAmount).toBe(refunded!.amount);
    expect(await productState(db, productId)).toEqual({ stock: 0, soldCount: 1 });
    expect(await ordersFor(productId)).toHaveLength(1);
    const [row] = await db
      .select()
      .from(checkouts)
      .where(and(eq(checkouts.paymentIntentId, lateIntent.paymentIntentId)));
    expect(row!.status).toBe('refunded');
    expect((await late.get('/api/cart')).json()).toHaveLength(1);
  });
});
