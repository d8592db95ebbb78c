import { eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { AFTER_SALE_MESSAGES } from '../../common/contracts/after-sale';
import { createPaymentIntentResult } from '../../common/contracts/checkout';
import { adminClient } from '../../tests/support/admin-session';
import { describeEachDb, type TestApp } from '../../tests/support/build-test-app';
import { confirmOffline, createProduct, customer } from '../../tests/support/shop-fixtures';
import { checkouts } from '../modules/checkout/checkout.tables';
import { orders } from '../modules/orders/orders.tables';
import { offlineIntents } from '../modules/payments/payments.tables';
import { storeCreditRedemptions } from '../modules/store-credit/store-credit.tables';

/** A shopper with one piece of the product in the cart and their details saved under `email`. */
async function shopperOf(t: TestApp, productId: string, email: string) {
  const shopper = t.client();
  expect((await shopper.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' })).statusCode).toBe(200);
  const info = await shopper.post('/api/customer-info', customer({ email }));
  expect(info.statusCode, info.body).toBe(200);
  return shopper;
}

describeEachDb('paying with store credit at checkout', (t) => {
  const db = () => t().database.db;
  const credit = () => t().services.storeCredit;
  const give = (email: string, cents: number) =>
    db().transaction((tx) => credit().grant(tx, { email, amountCents: cents, source: 'manual', reason: 'test' }));
  const intentsOf = (checkoutId: string) => db().select().from(offlineIntents).where(sql`${offlineIntents.metadata}->>'checkoutId' = ${checkoutId}`);

  test('credit covering all: the order is placed with no payment intent, the credit spent', async () => {
    const productId = await createProduct(db(), { stock: 3, price: '45.00' });
    await give('Full.Cover+gift@gmail.com', 50_000);
    // The buyer types another spelling of the same mailbox at checkout.
    const shopper = await shopperOf(t(), productId, 'fullcover@googlemail.com');
    const res = await shopper.post('/api/create-payment-intent', { useCredit: true });
    expect(res.statusCode, res.body).toBe(200);
    const started = createPaymentIntentResult.parse(res.json());
    expect(started.amount).toBe(0);
    expect(started.clientSecret).toBe('');
    expect(started.orderNumber).toMatch(/\S/);
    const [order] = await db().select().from(orders).where(eq(orders.orderNumber, started.orderNumber!));
    expect(order).toBeDefined();
    expect(started.creditApplied).toBe(order!.totalCents);
    const [co] = await db().select().from(checkouts).where(eq(checkouts.id, order!.checkoutId!));
    expect(co!.status).toBe('fulfilled');
    // No payment intent at the gateway for it.
    expect(await intentsOf(co!.id)).toHaveLength(0);
    expect((await credit().balanceOf('fullcover@gmail.com')).balanceCents).toBe(50_000 - order!.totalCents);
    expect(await db().select({ s: storeCreditRedemptions.status, o: storeCreditRedemptions.orderId }).from(storeCreditRedemptions).where(eq(storeCreditRedemptions.checkoutId, co!.id))).toEqual([{ s: 'spent', o: order!.id }]);
    expect(order!.storeCreditCents).toBe(order!.totalCents);
    // The cart was emptied like any order's.
    expect(((await shopper.get('/api/cart')).json() as unknown[]).length).toBe(0);
  });

  test('credit paying part: the card pays the rest, and the credit is spent with the order', async () => {
    const productId = await createProduct(db(), { stock: 3, price: '45.00' });
    await give('part@example.com', 1000);
    const shopper = await shopperOf(t(), productId, 'part@example.com');
    const started = createPaymentIntentResult.parse((await shopper.post('/api/create-payment-intent', { useCredit: true })).json());
    expect(started.creditApplied).toBe(1000);
    const [co] = await db().select().from(checkouts).where(eq(checkouts.paymentIntentId, started.paymentIntentId));
    expect(started.amount).toBe(co!.totalCents - 1000);
    expect((await intentsOf(co!.id))[0]!.amount).toBe(co!.totalCents - 1000);
    expect((await credit().balanceOf('part@example.com')).balanceCents).toBe(0);
    expect((await confirmOffline(shopper, started.clientSecret)).statusCode).toBe(200);
    const done = await shopper.post('/api/payment-success', { paymentIntentId: started.paymentIntentId });
    expect(done.statusCode, done.body).toBe(200);
    expect((await db().select().from(storeCreditRedemptions).where(eq(storeCreditRedemptions.checkoutId, co!.id)))[0]!.status).toBe('spent');
    // The order shows what credit paid, to the owner and on the buyer's page.
    const [order] = await db().select().from(orders).where(eq(orders.checkoutId, co!.id));
    expect(order!.storeCreditCents).toBe(1000);
    const latest = (await shopper.get('/api/orders/latest')).json() as { orderPath: string };
    const view = (await shopper.get(`/api${latest.orderPath}`)).json() as { storeCredit?: string; total: string };
    expect(view.storeCredit).toBe('10.00');

    // What credit paid never goes to a card: the owner refunds such an order as credit.
    const admin = await adminClient(t());
    const toCard = await admin.post(`/api/admin/orders/${order!.id}/cancel`, {});
    expect(toCard.statusCode).toBe(400);
    expect(toCard.json()).toEqual({ message: AFTER_SALE_MESSAGES.paidWithCredit });
    expect((await admin.post(`/api/admin/orders/${order!.id}/refund`, { amount: '1.00' })).json()).toEqual({ message: AFTER_SALE_MESSAGES.paidWithCredit });
    const asCredit = await admin.post(`/api/admin/orders/${order!.id}/cancel`, { destination: 'credit' });
    expect(asCredit.statusCode, asCredit.body).toBe(200);
    expect((await credit().balanceOf('part@example.com')).balanceCents).toBe(order!.totalCents);
  });

  test('an abandoned payment gives the credit back when its hold expires; a new attempt releases the old one first', async () => {
    const productId = await createProduct(db(), { stock: 3, price: '45.00' });
    await give('abandon@example.com', 1500);
    const shopper = await shopperOf(t(), productId, 'abandon@example.com');
    const first = createPaymentIntentResult.parse((await shopper.post('/api/create-payment-intent', { useCredit: true })).json());
    expect(first.creditApplied).toBe(1500);
    // Asked again (a reload): the first attempt's credit is released and held again, never twice.
    const second = createPaymentIntentResult.parse((await shopper.post('/api/create-payment-intent', { useCredit: true })).json());
    expect(second.creditApplied).toBe(1500);
    expect((await credit().balanceOf('abandon@example.com')).balanceCents).toBe(0);
    // Without credit: what the earlier attempt held comes back.
    const third = createPaymentIntentResult.parse((await shopper.post('/api/create-payment-intent', {})).json());
    expect(third.creditApplied).toBeUndefined();
    expect((await credit().balanceOf('abandon@example.com')).balanceCents).toBe(1500);
    const fourth = createPaymentIntentResult.parse((await shopper.post('/api/create-payment-intent', { useCredit: true })).json());
    expect(fourth.creditApplied).toBe(1500);
    // Nobody pays: the hold expiry job releases the stock and the credit.
    const released = await t().services.checkout.releaseExpiredHolds(new Date(Date.now() + 24 * 3600_000));
    expect(released).toBeGreaterThanOrEqual(1);
    expect((await credit().balanceOf('abandon@example.com')).balanceCents).toBe(1500);
    const statuses = await db().select({ s: storeCreditRedemptions.status }).from(storeCreditRedemptions).where(eq(storeCreditRedemptions.ownerKey, credit().ownerOf('abandon@example.com')));
    expect(statuses.every((r) => r.s === 'released')).toBe(true);
  });

  test('a buyer without credit pays as before; useCredit is no way to a free order', async () => {
    const productId = await createProduct(db(), { stock: 3, price: '45.00' });
    const shopper = await shopperOf(t(), productId, 'nocredit@example.com');
    const started = createPaymentIntentResult.parse((await shopper.post('/api/create-payment-intent', { useCredit: true })).json());
    expect(started.creditApplied).toBeUndefined();
    expect(started.amount).toBeGreaterThan(0);
    expect(started.orderNumber).toBeUndefined();
    // A forged credit-only id is no order either.
    const forged = await shopper.post('/api/payment-success', { paymentIntentId: `credit_${started.paymentIntentId}` });
    expect(forged.statusCode).toBe(404);
  });
});
