import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import type { CustomerInfoBody } from '../../../common/contracts/checkout';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { confirmOffline, createProduct, customer, GOOD_CARD } from '../../../tests/support/shop-fixtures';
import { orderItems, orders } from '../orders/orders.tables';

// Per-shopper limits abroad (ADR 013, docs/decisions/023-international-addresses.md): one London doorstep
// spelled four ways, each from its own mailbox, session and card, is one shopper.

const LONDON_SPELLINGS: Array<Partial<CustomerInfoBody>> = [
  {
    email: 'ann@example.co.uk',
    shippingAddress: '12 Brick Lane, London E1 6RF',
    shippingCity: 'London',
    shippingZip: 'E1 6RF',
  },
  {
    email: 'ann.lee@example.net',
    shippingAddress: '12 brick ln, LONDON, e16rf',
    shippingCity: 'LONDON',
    shippingZip: 'e16rf',
  },
  {
    email: 'annie@example.org',
    shippingAddress: '12, Brick Lane',
    shippingCity: 'London',
    shippingZip: 'E1  6RF',
  },
  // Full-width digits and letters, Cyrillic і and а (a Cyrillic postcode is no UK postcode: refused at the door).
  {
    email: 'a.lee@example.com',
    shippingAddress: '\uff11\uff12 Br\u0456ck L\u0430ne',
    shippingCity: '\uff2condon',
    shippingZip: '\uff25\uff11 \uff16\uff32\uff26',
  },
];

describeEachDb('per-shopper limits abroad', (t) => {
  test('one London buyer in four spellings, each with a fresh session, mailbox and card, buys the limit and no more', async () => {
    const productId = await createProduct(t().database.db, {
      name: 'Brick Lane Tee',
      stock: 20,
      maxPerShopper: 2,
    });
    const outcomes: number[] = [];
    for (const [i, spelling] of LONDON_SPELLINGS.entries()) {
      const s = t().client();
      expect((await s.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' })).statusCode).toBe(200);
      const saved = await s.post(
        '/api/customer-info',
        customer({ ...spelling, shippingState: '', shippingCountry: 'GB' }),
      );
      expect(saved.statusCode, saved.body).toBe(200);
      const intent = await s.post('/api/create-payment-intent', {});
      if (intent.statusCode !== 200) {
        expect(intent.statusCode, intent.body).toBe(409);
        expect(intent.json()).toEqual({ message: 'You can buy at most 2 of Brick Lane Tee per shopper.' });
        outcomes.push(409);
        continue;
      }
      const { clientSecret, paymentIntentId } = intent.json() as {
        clientSecret: string;
        paymentIntentId: string;
      };
      const card = { ...GOOD_CARD, expiry: `0${i + 1}/4${i}` };
      expect((await confirmOffline(s, clientSecret, card)).statusCode).toBe(200);
      outcomes.push((await s.post('/api/payment-success', { paymentIntentId })).statusCode);
    }
    expect(outcomes).toEqual([200, 200, 409, 409]);
    const sold = await t()
      .database.db.select({
        quantity: orderItems.quantity,
        zip: orders.shippingZip,
        country: orders.shippingCountry,
      })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(eq(orderItems.productId, productId));
    expect(sold.reduce((n, o) => n + o.quantity, 0)).toBe(2);
    // Stored in the postcode's canonical form, whatever was typed.
    expect(sold.map((o) => [o.zip, o.country])).toEqual([
      ['E1 6RF', 'GB'],
      ['E1 6RF', 'GB'],
    ]);
  });

  test('a neighbour at another number on the same street is another shopper', async () => {
    const productId = await createProduct(t().database.db, {
      name: 'Neighbour Tee',
      stock: 20,
      maxPerShopper: 1,
    });
    for (const [i, line] of ['12 Brick Lane', '14 Brick Lane'].entries()) {
      const s = t().client();
      await s.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' });
      await s.post(
        '/api/customer-info',
        customer({
          email: `n${i}@example.co.uk`,
          shippingAddress: line,
          shippingCity: 'London',
          shippingState: '',
          shippingZip: 'E1 6RF',
          shippingCountry: 'GB',
        }),
      );
      const intent = await s.post('/api/create-payment-intent', {});
      expect(intent.statusCode, intent.body).toBe(200);
    }
  });
});
