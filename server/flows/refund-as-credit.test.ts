import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { adminOrderSchema, type AdminOrder } from '../../common/contracts/admin';
import { latestOrderSchema } from '../../common/contracts/orders';
import { parseMoney } from '../../common/domain/money';
import { adminClient } from '../../tests/support/admin-session';
import { describeEachDb, type TestApp, type TestClient } from '../../tests/support/build-test-app';
import { confirmOffline, createProduct, customer, productState, readyShopper, startPayment } from '../../tests/support/shop-fixtures';
import { orderRefunds } from '../modules/orders/orders.tables';
import { offlineRefunds } from '../modules/payments/payments.tables';
import { storeCreditEntries } from '../modules/store-credit/store-credit.tables';

async function buy(t: TestApp, admin: TestClient, productId: string) {
  const shopper = await readyShopper(t, productId);
  const intent = await startPayment(shopper);
  expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
  const latest = latestOrderSchema.parse((await shopper.get('/api/orders/latest')).json());
  const list = (await admin.get('/api/admin/orders')).json() as AdminOrder[];
  return { shopper, intentId: intent.paymentIntentId, order: adminOrderSchema.parse(list.find((o) => o.id === latest.id)) };
}

function outbox(t: TestApp): string[] {
  const dir = path.join(t.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='));
}

describeEachDb('refund as store credit (the owner chooses the destination)', (t) => {
  const db = () => t().database.db;

  test('cancel to store credit: the grant with the refund, no gateway call, pieces back, the buyer mailed balance and expiry', async () => {
    const admin = await adminClient(t());
    const productId = await createProduct(db(), { stock: 5, price: '45.00' });
    const { order, intentId } = await buy(t(), admin, productId);

    const body = { destination: 'credit', requestKey: 'cancel-credit-0001' };
    const res = await admin.post(`/api/admin/orders/${order.id}/cancel`, body);
    expect(res.statusCode, res.body).toBe(200);
    const after = adminOrderSchema.parse(res.json());
    expect(after.status).toBe('cancelled');
    expect(after.refunds).toMatchObject([{ amount: order.total, status: 'succeeded', reason: 'cancellation', destination: 'credit' }]);
    // No money moved at the gateway; the pieces are back.
    expect(await db().select().from(offlineRefunds).where(eq(offlineRefunds.intentId, intentId))).toHaveLength(0);
    expect(await productState(db(), productId)).toEqual({ stock: 5, soldCount: 0 });
    // The buyer's folded mailbox holds the credit, under any spelling of it.
    const email = customer().email;
    expect((await t().services.storeCredit.balanceOf(email.toUpperCase())).balanceCents).toBe(parseMoney(order.total));
    const [refund] = await db().select().from(orderRefunds).where(eq(orderRefunds.orderId, order.id));
    const grants = await db().select().from(storeCreditEntries).where(eq(storeCreditEntries.sourceRef, refund!.id));
    expect(grants).toMatchObject([{ kind: 'grant', source: 'cancellation', amountCents: parseMoney(order.total), orderId: order.id }]);

    // Retried: no second grant.
    expect((await admin.post(`/api/admin/orders/${order.id}/cancel`, body)).statusCode).toBe(200);
    expect(await db().select().from(storeCreditEntries).where(eq(storeCreditEntries.orderId, order.id))).toHaveLength(1);

    await t().services.storeCredit.drainMail();
    const mail = outbox(t()).find((m) => m.includes(`store credit for order ${order.orderNumber}`));
    expect(mail).toBeDefined();
    expect(mail).toContain(`Your store credit balance is $${order.total}.`);
    expect(mail).toContain('valid until');
  });

  test('a goodwill refund as store credit: granted at once, counted against what is left to refund', async () => {
    const admin = await adminClient(t());
    const productId = await createProduct(db(), { stock: 5, price: '45.00' });
    const { order, intentId } = await buy(t(), admin, productId);
    const before = (await t().services.storeCredit.balanceOf(customer().email)).balanceCents;

    const res = await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: '10.00', destination: 'credit' });
    expect(res.statusCode, res.body).toBe(200);
    expect(adminOrderSchema.parse(res.json()).refunds).toMatchObject([{ amount: '10.00', status: 'succeeded', reason: 'goodwill', destination: 'credit' }]);
    expect(await db().select().from(offlineRefunds).where(eq(offlineRefunds.intentId, intentId))).toHaveLength(0);
    expect((await t().services.storeCredit.balanceOf(customer().email)).balanceCents).toBe(before + 1000);

    const over = await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: order.total, destination: 'credit' });
    expect(over.statusCode).toBe(400);
    expect((await t().services.storeCredit.balanceOf(customer().email)).balanceCents).toBe(before + 1000);

    const bad = await admin.post(`/api/admin/orders/${order.id}/refund`, { amount: '1.00', destination: 'bitcoin' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('message');
  });
});
