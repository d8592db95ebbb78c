import crypto from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { createProduct, productState, readyShopper, startPayment } from '../../../tests/support/shop-fixtures';
import type { Db } from '../../db/client';
import { checkouts } from '../checkout/checkout.tables';
import { offlineIntents } from '../payments/payments.tables';
import { orders } from './orders.tables';

/** Reconciliation (docs/operations.md, Payments that never reached the shop): a paid payment never stays without an order, however many checkouts were abandoned. */
describeEachDb('reconciliation by payment state', (t) => {
  /** Paid at the provider, but the shop was never told (instance killed, tab closed, webhook lost). */
  async function paidWithoutOrder(productId: string, createdAgo = '5 minutes'): Promise<string> {
    const db = t().database.db;
    const shopper = await readyShopper(t(), productId);
    const intent = await startPayment(shopper);
    await db.update(offlineIntents).set({ status: 'succeeded' }).where(eq(offlineIntents.id, intent.paymentIntentId));
    await db
      .update(checkouts)
      .set({ createdAt: sql`now() - ${createdAgo}::interval` })
      .where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
    return intent.paymentIntentId;
  }

  /** `n` walked-away checkouts with unpaid intents, newer than any paid one (they used to fill the window). */
  async function abandon(db: Db, productId: string, n: number, opts: { status: string; ago: string }): Promise<string[]> {
    const ids = Array.from({ length: n }, () => `pi_offline_abandoned_${crypto.randomBytes(8).toString('hex')}`);
    await db.insert(offlineIntents).values(ids.map((id) => ({ id, clientSecret: `${id}_secret_x`, amount: 4500 })));
    await db.insert(checkouts).values(
      ids.map((id, i) => ({
        sessionId: `abandoned-${i}-${id}`,
        paymentIntentId: id,
        status: opts.status,
        lines: [{ productId, name: 'Drop', unitPriceCents: 4500, quantity: 1, selectedSize: 'M', selectedColor: null, image: null }],
        customer: {
          email: 'gone@example.com',
          firstName: 'Gone',
          lastName: 'Away',
          phone: null,
          shippingAddress: '1 Lane',
          shippingCity: 'X',
          shippingState: 'IL',
          shippingZip: '1',
          shippingCountry: 'US',
        },
        shippingMethod: 'standard',
        subtotalCents: 4500,
        totalCents: 4500,
        amountCents: 4500,
        holdExpiresAt: sql`now() - ${opts.ago}::interval + interval '10 minutes'`,
        createdAt: sql`now() - ${opts.ago}::interval`,
      })),
    );
    return ids;
  }

  const ordersOf = (db: Db, intentIds: string[]) =>
    db.select().from(orders).where(inArray(orders.stripePaymentIntentId, intentIds));

  test('500 abandoned checkouts in the way: every paid intent gets its order in one run', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { name: 'Flooded Drop', stock: 10 });
    const paid = [];
    for (let i = 0; i < 4; i++) paid.push(await paidWithoutOrder(productId));
    await abandon(db, productId, 500, { status: 'expired', ago: '2 minutes' });

    expect(await t().services.fulfilment.reconcile()).toBe(4);
    expect(await ordersOf(db, paid)).toHaveLength(4);
    expect(await productState(db, productId)).toEqual({ stock: 6, soldCount: 4 });
    // The unpaid ones were asked about and wait their back-off: the next run asks the gateway nothing.
    const [due] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(checkouts)
      .where(sql`payment_check_at <= now() and payment_intent_id is not null`);
    expect(due!.n).toBe(0);
    expect(await t().services.fulfilment.reconcile()).toBe(0);
    // Orders and refunds leave the set for good.
    const settled = await db
      .select({ at: checkouts.paymentCheckAt, status: checkouts.status })
      .from(checkouts)
      .where(inArray(checkouts.paymentIntentId, paid));
    expect(settled).toEqual(paid.map(() => ({ at: null, status: 'fulfilled' })));
  });

  test('the candidates are found through the partial index, not a scan of every checkout', async () => {
    const { rows } = await t().database.pool.query(
      `set enable_seqscan = off; explain select id from checkouts where payment_check_at is not null and payment_intent_id is not null and payment_check_at <= now() order by payment_check_at limit 100`,
    ).then((r) => (Array.isArray(r) ? r[1]! : r));
    expect(JSON.stringify(rows)).toContain('checkouts_payment_check_idx');
  });

  test('a hold that expires after its payment succeeded is kept for reconciliation: an order, not a refund', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { name: 'Last One', stock: 1 });
    const intentId = await paidWithoutOrder(productId, '11 minutes');
    await db
      .update(checkouts)
      .set({ holdExpiresAt: sql`now() - interval '1 minute'`, paymentCheckAt: sql`now() + interval '1 hour'` })
      .where(eq(checkouts.paymentIntentId, intentId));

    expect(await t().services.checkout.releaseExpiredHolds()).toBe(0);
    expect(await productState(db, productId)).toEqual({ stock: 0, soldCount: 0 });
    // Nobody else can take the paid piece meanwhile.
    const other = t().client();
    expect((await other.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' })).statusCode).toBe(409);

    // Reconciliation's next run looks at it at once, whatever its back-off said.
    expect(await t().services.fulfilment.reconcile()).toBe(1);
    const [order] = await ordersOf(db, [intentId]);
    expect(order).toBeDefined();
    const [intent] = await db.select().from(offlineIntents).where(eq(offlineIntents.id, intentId));
    expect(intent!.refundedAmount).toBe(0);
    expect(await productState(db, productId)).toEqual({ stock: 0, soldCount: 1 });
  });

  test('a hold whose payment is still processing is not released; an unpaid one is', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { stock: 2 });
    const processing = await paidWithoutOrder(productId, '11 minutes');
    await db.update(offlineIntents).set({ status: 'processing' }).where(eq(offlineIntents.id, processing));
    const unpaidShopper = await readyShopper(t(), productId);
    const unpaid = (await startPayment(unpaidShopper)).paymentIntentId;
    await db
      .update(checkouts)
      .set({ holdExpiresAt: sql`now() - interval '1 minute'` })
      .where(inArray(checkouts.paymentIntentId, [processing, unpaid]));
    expect(await t().services.checkout.releaseExpiredHolds()).toBe(1);
    expect(await productState(db, productId)).toEqual({ stock: 1, soldCount: 0 });
    const rows = await db
      .select({ intent: checkouts.paymentIntentId, status: checkouts.status })
      .from(checkouts)
      .where(inArray(checkouts.paymentIntentId, [processing, unpaid]));
    expect(Object.fromEntries(rows.map((r) => [r.intent, r.status]))).toEqual({ [processing]: 'open', [unpaid]: 'expired' });
  });

  test('checkouts abandoned for a day: the intent is canceled at the gateway and never asked about again', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { stock: 3 });
    const ids = await abandon(db, productId, 3, { status: 'expired', ago: '25 hours' });
    expect(await t().services.fulfilment.reconcile()).toBe(0);
    const intents = await db.select({ status: offlineIntents.status }).from(offlineIntents).where(inArray(offlineIntents.id, ids));
    expect(intents.map((i) => i.status)).toEqual(['canceled', 'canceled', 'canceled']);
    const rows = await db.select({ at: checkouts.paymentCheckAt }).from(checkouts).where(inArray(checkouts.paymentIntentId, ids));
    expect(rows).toEqual([{ at: null }, { at: null }, { at: null }]);
  });
});
