import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { orderSchema } from '../../../common/contracts/checkout';
import { ORDER_NUMBER_PATTERN } from '../../../common/domain/order-number';
import { describeEachDb } from '../../../tests/support/build-test-app';
import {
  confirmOffline,
  createProduct,
  customer,
  readyShopper,
  startPayment,
} from '../../../tests/support/shop-fixtures';
import { products } from '../catalog/catalog.tables';
import { offlineIntents } from '../payments/payments.tables';
import { orders } from './orders.tables';

describeEachDb('payment-success and orders', (t) => {
  test('made-up, unpaid and other sessions’ intents are refused', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { stock: 5 });
    const shopper = await readyShopper(t(), productId);
    const intent = await startPayment(shopper);

    const madeUp = await shopper.post('/api/payment-success', { paymentIntentId: 'pi_made_up' });
    expect(madeUp.statusCode).toBe(404);
    expect(madeUp.json()).toEqual({ message: 'Payment not found' });
    const unpaid = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
    expect(unpaid.statusCode).toBe(402);
    expect(unpaid.json()).toEqual({ message: 'Payment has not been completed' });
    const empty = await shopper.post('/api/payment-success', { paymentIntentId: '' });
    expect(empty.statusCode).toBe(400);

    await confirmOffline(shopper, intent.clientSecret);
    const intruder = await readyShopper(t(), productId);
    const stolen = await intruder.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toEqual({ message: 'Payment not found' });
    expect(
      (await t().client().post('/api/payment-success', { paymentIntentId: intent.paymentIntentId }))
        .statusCode,
    ).toBe(404);
    expect((await intruder.get('/api/orders/latest')).statusCode).toBe(404);
  });

  test('a paid intent gives one order; a repeat gives the same number; the order keeps a snapshot', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, {
      name: 'Snapshot Tee',
      price: '45.00',
      salePrice: '40.00',
      stock: 5,
    });
    const shopper = t().client();
    await shopper.post('/api/cart', { productId, quantity: 2, selectedSize: 'L', selectedColor: 'White' });
    await shopper.post('/api/customer-info', customer({ phone: '555-0199' }));
    const intent = await startPayment(shopper, { amount: 80 });
    await confirmOffline(shopper, intent.clientSecret);
    const first = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
    expect(first.statusCode).toBe(200);
    const { orderNumber } = first.json() as { orderNumber: string };
    expect(orderNumber).toMatch(ORDER_NUMBER_PATTERN);
    expect(
      (await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId })).json(),
    ).toEqual({ orderNumber });

    // The product changes afterwards; the order does not.
    await db.update(products).set({ name: 'Renamed', priceCents: 9900 }).where(eq(products.id, productId));
    const latest = await shopper.get('/api/orders/latest');
    expect(latest.statusCode).toBe(200);
    const order = orderSchema.parse(latest.json());
    expect(order).toMatchObject({
      orderNumber,
      status: 'pending',
      customerEmail: 'ada@example.com',
      customerPhone: '555-0199',
      shippingCountry: 'US',
      shippingMethod: 'standard',
      subtotal: '80.00',
      discountAmount: '0.00',
      shipping: '0.00',
      tax: '0.00',
      total: '80.00',
    });
    expect(order.items).toEqual([
      {
        productName: 'Snapshot Tee',
        productPrice: '40.00',
        quantity: 2,
        selectedSize: 'L',
        selectedColor: 'White',
        productImage: '/uploads/seed/test-1.webp',
        editionNumbers: [1, 2],
        editionSize: 50,
        id: expect.any(String),
        cancelled: false,
      },
    ]);
    expect(
      await db.select().from(orders).where(eq(orders.stripePaymentIntentId, intent.paymentIntentId)),
    ).toHaveLength(1);
  });

  test('edition numbers continue across orders and the confirmation e-mail carries them', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { name: 'Numbered Hoodie', price: '80.00', stock: 10 });
    const numbers: number[][] = [];
    for (const quantity of [1, 2]) {
      const shopper = await readyShopper(t(), productId, { quantity });
      const intent = await startPayment(shopper);
      await confirmOffline(shopper, intent.clientSecret);
      const order = (await shopper.get('/api/orders/latest')).json() as {
        orderNumber: string;
        items: Array<{ editionNumbers: number[] }>;
      };
      numbers.push(order.items[0]!.editionNumbers);
    }
    expect(numbers).toEqual([[1], [2, 3]]);

    await t().services.fulfilment.drain();
    const outbox = path.join(t().dataDir, 'outbox');
    const mails = fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'));
    const mail = mails.find((m) => m.includes('Numbered Hoodie') && m.includes('No. 1 of 50'));
    expect(mail).toBeDefined();
    expect(mail).toContain('To: ada@example.com');
    expect(mail).toContain('Content-Type: text/html');
    expect(mails.some((m) => m.includes('Nos. 2, 3 of 50'))).toBe(true);
  });

  test('GET /api/orders/latest is 404 without an order', async () => {
    const res = await t().client().get('/api/orders/latest');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'No order found' });
  });

  test('the orders service lists, finds and updates orders for the admin', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { stock: 5 });
    const shopper = await readyShopper(t(), productId);
    await shopper.post('/api/customer-info', customer({ email: 'grace@example.com', firstName: 'Grace' }));
    const intent = await startPayment(shopper);
    await confirmOffline(shopper, intent.clientSecret);
    const { orderNumber } = (
      await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId })
    ).json() as { orderNumber: string };
    const svc = t().services.orders;

    const found = await svc.listOrders({ q: 'GRACE@example' });
    expect(found.map((o) => o.orderNumber)).toEqual([orderNumber]);
    expect(
      (await svc.listOrders({ q: orderNumber.slice(-4).toLowerCase() })).map((o) => o.orderNumber),
    ).toContain(orderNumber);
    expect(await svc.listOrders({ q: '%' })).toEqual([]);
    const order = found[0]!;
    expect(order.items[0]!.editionNumbers).toHaveLength(1);
    expect(await svc.getOrder(order.id)).toEqual(order);

    const shipped = await svc.updateStatus(order.id, 'shipped');
    expect(shipped).toMatchObject({ id: order.id, status: 'shipped' });
    expect((await svc.listOrders({ status: 'shipped' })).map((o) => o.id)).toContain(order.id);
    expect((await svc.listOrders({ status: 'pending' })).map((o) => o.id)).not.toContain(order.id);
    expect(await svc.updateStatus('00000000-0000-4000-8000-000000000000', 'pending')).toBeNull();
    expect(await svc.getOrder('00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  test('an amount that does not match the checkout never becomes an order', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { stock: 5 });
    const shopper = await readyShopper(t(), productId);
    const intent = await startPayment(shopper);
    await db
      .update(offlineIntents)
      .set({ status: 'succeeded', amount: 1 })
      .where(eq(offlineIntents.id, intent.paymentIntentId));
    const res = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'Your payment does not match your order. Please contact support.',
    });
    expect(
      await db.select().from(orders).where(eq(orders.stripePaymentIntentId, intent.paymentIntentId)),
    ).toHaveLength(0);
  });
});
