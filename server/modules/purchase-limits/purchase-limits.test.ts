import { and, eq, sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import type { CustomerInfoBody } from '../../../common/contracts/checkout';
import { adminProductSchema, type ProductPayloadInput } from '../../../common/contracts/admin';
import { describeEachDb, type TestClient } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { FakeStripeServer } from '../../../tests/support/fake-stripe-server';
import {
  confirmOffline,
  createProduct,
  customer,
  GOOD_CARD,
  productState,
  startPayment,
} from '../../../tests/support/shop-fixtures';
import { checkouts } from '../checkout/checkout.tables';
import { orderItems, orders } from '../orders/orders.tables';
import { offlineIntents } from '../payments/payments.tables';
import { products } from '../catalog/catalog.tables';
import { purchaseClaims } from './purchase-limits.tables';

// Per-shopper limits and no hoarding (docs/product.md §9, ADR 013).

let n = 0;
/** A shopper of their own (e-mail, address) unless told otherwise. */
function who(over: Partial<CustomerInfoBody> = {}): CustomerInfoBody {
  n++;
  return customer({ email: `shopper${n}@example.com`, shippingAddress: `${n} Limit Lane`, ...over });
}

describeEachDb('per-shopper limits', (t) => {
  const db = () => t().database.db;

  async function shopper(productId: string, quantity: number, info: CustomerInfoBody = who()): Promise<TestClient> {
    const s = t().client();
    const add = await s.post('/api/cart', { productId, quantity, selectedSize: 'M' });
    expect(add.statusCode, add.body).toBe(200);
    const saved = await s.post('/api/customer-info', info);
    expect(saved.statusCode, saved.body).toBe(200);
    return s;
  }

  async function limited(name: string, over: { stock?: number; maxPerShopper?: number } = {}) {
    return createProduct(db(), { name, stock: over.stock ?? 10, maxPerShopper: over.maxPerShopper ?? 2 });
  }

  async function claimsOf(productId: string) {
    return db().select().from(purchaseClaims).where(eq(purchaseClaims.productId, productId));
  }

  async function ordersFor(productId: string) {
    return db()
      .select({ orderNumber: orders.orderNumber, quantity: orderItems.quantity })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(eq(orderItems.productId, productId));
  }

  async function pay(s: TestClient, card = GOOD_CARD) {
    const intent = await startPayment(s);
    expect((await confirmOffline(s, intent.clientSecret, card)).statusCode).toBe(200);
    return { intent, done: await s.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId }) };
  }

  test('cart add over the limit is 409 with the limit in the message; within it, and other products, still go in', async () => {
    const productId = await limited('Hoodie Nº 7');
    const s = t().client();
    expect((await s.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' })).statusCode).toBe(200);
    // Sizes count together: the limit is per product.
    expect((await s.post('/api/cart', { productId, quantity: 1, selectedSize: 'L' })).statusCode).toBe(200);
    const over = await s.post('/api/cart', { productId, quantity: 1, selectedSize: 'S' });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({ message: 'You can buy at most 2 of Hoodie Nº 7 per shopper.' });
    expect((await s.get('/api/cart')).json()).toHaveLength(2);

    // A new visitor asking for 3 at once: refused, and no session is made for it.
    const fresh = t().client();
    const three = await fresh.post('/api/cart', { productId, quantity: 3, selectedSize: 'M' });
    expect(three.statusCode).toBe(409);
    expect(three.json().message).toBe('You can buy at most 2 of Hoodie Nº 7 per shopper.');
    expect(fresh.cookies.size).toBe(0);

    const other = await createProduct(db(), { stock: 5 });
    expect((await s.post('/api/cart', { productId: other, quantity: 1, selectedSize: 'M' })).statusCode).toBe(200);
  });

  test('raising a cart line past the limit (the + button in the cart) is 409 too; lowering it always works', async () => {
    const productId = await limited('Hoodie Nº 8');
    const s = t().client();
    const line = (await s.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' })).json() as { id: string };
    expect((await s.put(`/api/cart/${line.id}`, { quantity: 2 })).statusCode).toBe(200);
    const over = await s.put(`/api/cart/${line.id}`, { quantity: 3 });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({ message: 'You can buy at most 2 of Hoodie Nº 8 per shopper.' });
    expect(((await s.get('/api/cart')).json() as Array<{ quantity: number }>)[0]!.quantity).toBe(2);
    expect((await s.put(`/api/cart/${line.id}`, { quantity: 1 })).statusCode).toBe(200);
  });

  test('a limit of 1 reads in the singular; what the session already bought counts at cart add', async () => {
    const productId = await limited('One Tee', { maxPerShopper: 1 });
    const s = await shopper(productId, 1);
    expect((await pay(s)).done.statusCode).toBe(200);
    const again = await s.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'You can buy only 1 of One Tee per shopper.' });
  });

  test('a second session with the same e-mail is refused at the payment and holds nothing; another shopper is not', async () => {
    const productId = await limited('Email Tee');
    const first = await shopper(productId, 2, who({ email: 'Twice@Example.com' }));
    await startPayment(first);
    // Upper/lower case and spaces do not make a new shopper.
    const second = await shopper(productId, 1, who({ email: '  twice@example.com ' }));
    const res = await second.post('/api/create-payment-intent', {});
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'You can buy at most 2 of Email Tee per shopper.' });
    expect(await productState(db(), productId)).toEqual({ stock: 8, soldCount: 0 });

    const stranger = await shopper(productId, 2);
    await startPayment(stranger);
    expect(await productState(db(), productId)).toEqual({ stock: 6, soldCount: 0 });
    // Neither the e-mail nor the address is stored in clear.
    const identities = (await claimsOf(productId)).map((c) => c.identity);
    expect(identities.join(' ')).not.toMatch(/example\.com|limit lane/i);
    expect(identities.filter((i) => i.startsWith('mailbox:'))).toHaveLength(2);
  });

  test('the same shipping address under another e-mail is refused (case, spaces and dots folded)', async () => {
    const productId = await limited('Address Tee');
    const first = await shopper(productId, 2, who({ shippingAddress: '12 Elm St.', shippingZip: '11201' }));
    await startPayment(first);
    const second = await shopper(productId, 1, who({ shippingAddress: '12  ELM st', shippingZip: '11201 ' }));
    const res = await second.post('/api/create-payment-intent', {});
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('You can buy at most 2 of Address Tee per shopper.');
    // Another address in the same street is another shopper.
    const neighbour = await shopper(productId, 1, who({ shippingAddress: '14 Elm St', shippingZip: '11201' }));
    await startPayment(neighbour);
  });

  test('the same card from another e-mail and address: paid, refunded, no order; the first order stands', async () => {
    const productId = await limited('Card Tee');
    const first = await shopper(productId, 2);
    const firstPaid = await pay(first);
    expect(firstPaid.done.statusCode).toBe(200);

    const second = await shopper(productId, 1);
    const intent = await startPayment(second); // nothing ties them together before the card
    expect((await confirmOffline(second, intent.clientSecret)).statusCode).toBe(200);
    const res = await second.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'You can buy at most 2 of Card Tee per shopper. Your payment has been refunded.',
    });
    // Asked again (the webhook, reconciliation): the same answer, one refund.
    const again = await second.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
    expect(again.statusCode).toBe(409);
    const [paid] = await db().select().from(offlineIntents).where(eq(offlineIntents.id, intent.paymentIntentId));
    expect(paid!.status).toBe('succeeded');
    expect(paid!.refundedAmount).toBe(paid!.amount);
    const [co] = await db().select().from(checkouts).where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
    expect(co!.status).toBe('refunded');

    const made = await ordersFor(productId);
    expect(made).toEqual([{ orderNumber: (firstPaid.done.json() as { orderNumber: string }).orderNumber, quantity: 2 }]);
    expect(await productState(db(), productId)).toEqual({ stock: 8, soldCount: 2 });
    // The card is stored as its fingerprint only.
    const cards = (await claimsOf(productId)).filter((c) => c.identity.startsWith('card:'));
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.map((c) => c.identity).join(' ')).not.toContain('4242');

    // What still works: another card (another expiry is another card on the offline gateway) buys.
    const third = await shopper(productId, 1);
    expect((await pay(third, { ...GOOD_CARD, expiry: '11/38' })).done.statusCode).toBe(200);
  });

  test('one person in twelve spellings (sub-addresses, Gmail dots, googlemail, St/Str/Street, ZIP+4, look-alike and invisible letters), each with a fresh session and card, buys the limit and no more', async () => {
    const productId = await limited('Spelling Tee', { stock: 30 });
    const variants: Array<Partial<CustomerInfoBody>> = [
      { email: 'buyer@gmail.com', shippingAddress: '1 Main St', shippingZip: '62701' },
      { email: 'buyer+drop@gmail.com', shippingAddress: '1 Main Street', shippingZip: '62701' },
      { email: 'b.u.y.e.r@gmail.com', shippingAddress: '1 Main Str', shippingZip: '62701' },
      { email: 'buyer@googlemail.com', shippingAddress: '1 Main-Street', shippingZip: '62701' },
      { email: 'Buyer+2@GoogleMail.com', shippingAddress: '1 main st.', shippingZip: '62701-0001' },
      { email: 'bu.yer+3@gmail.com', shippingAddress: '1 Ma\u0456n St', shippingZip: '62701' },
      { email: 'buy.er@gmail.com', shippingAddress: '1 Main\u200b St', shippingZip: '62701' },
      { email: 'buyer+4@googlemail.com', shippingAddress: '\uff11 Main St', shippingZip: '\uff16\uff12\uff17\uff10\uff11' },
      { email: 'BUYER@gmail.com', shippingAddress: '1, Main St.', shippingZip: '627010001' },
      { email: 'b.uyer+5@gmail.com', shippingAddress: '1 M\u0430in Street', shippingZip: '62701' },
      { email: 'buyer+6@gmail.com', shippingAddress: '1 Main St\u00ad', shippingZip: '62701 0001' },
      { email: 'bu.y.er@googlemail.com', shippingAddress: '  1   MAIN   STREET ', shippingZip: '62701' },
    ];
    let bought = 0;
    for (const [i, v] of variants.entries()) {
      const s = t().client();
      expect((await s.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' })).statusCode).toBe(200);
      const saved = await s.post('/api/customer-info', who(v));
      expect(saved.statusCode, saved.body).toBe(200);
      const intent = await s.post('/api/create-payment-intent', {});
      if (intent.statusCode !== 200) {
        expect(intent.statusCode, intent.body).toBe(409);
        continue;
      }
      const { clientSecret, paymentIntentId } = intent.json() as { clientSecret: string; paymentIntentId: string };
      // A card of its own each time (another expiry is another card on the offline gateway).
      const card = { ...GOOD_CARD, expiry: `${String((i % 12) + 1).padStart(2, '0')}/${40 + i}` };
      expect((await confirmOffline(s, clientSecret, card)).statusCode).toBe(200);
      const done = await s.post('/api/payment-success', { paymentIntentId });
      if (done.statusCode === 200) bought++;
    }
    expect(bought).toBe(2);
    const made = await ordersFor(productId);
    expect(made.reduce((n, o) => n + o.quantity, 0)).toBe(2);
  });

  test('fifty distinct people behind one NAT all buy (folding does not merge real people)', async () => {
    const productId = await limited('Crowd Tee', { stock: 50 });
    const people = Array.from({ length: 50 }, (_, i) => ({
      email: `person.${i}.crowd@example.com`,
      shippingAddress: `${100 + i} ${['Oak', 'Elm', 'Pine', 'Birch', 'Maple'][i % 5]} ${['St', 'Ave', 'Rd', 'Blvd', 'Ln'][i % 5]} Apt ${i}`,
      shippingZip: String(10001 + i),
    }));
    const statuses = await Promise.all(
      people.map(async (p, i) => {
        const s = t().client(); // all on app.inject's one address
        await s.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' });
        await s.post('/api/customer-info', who(p));
        const { done } = await pay(s, { ...GOOD_CARD, expiry: `${String((i % 12) + 1).padStart(2, '0')}/${30 + (i % 50)}` });
        return done.statusCode;
      }),
    );
    expect(statuses.filter((c) => c !== 200)).toEqual([]);
    expect((await ordersFor(productId)).length).toBe(50);
  });

  test('sessions of one e-mail racing for the payment: exactly the limit is held', async () => {
    const productId = await limited('Race Tee', { stock: 20 });
    const sessions = await Promise.all(
      Array.from({ length: 6 }, () => shopper(productId, 1, who({ email: 'racer@example.com' }))),
    );
    const results = await Promise.all(sessions.map((s) => s.post('/api/create-payment-intent', {})));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(2);
    for (const r of results.filter((r) => r.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({ message: 'You can buy at most 2 of Race Tee per shopper.' });
    }
    expect(await productState(db(), productId)).toEqual({ stock: 18, soldCount: 0 });
  });

  test('the owner raises the limit: the same shopper may then buy more', async () => {
    const productId = await limited('Raised Tee');
    const first = await shopper(productId, 2, who({ email: 'more@example.com' }));
    expect((await pay(first)).done.statusCode).toBe(200);
    const second = await shopper(productId, 1, who({ email: 'more@example.com' }));
    expect((await second.post('/api/create-payment-intent', {})).statusCode).toBe(409);

    await db().update(products).set({ maxPerShopper: 3 }).where(eq(products.id, productId));
    t().services.catalog.invalidate();
    expect((await pay(second)).done.statusCode).toBe(200);
    expect(await productState(db(), productId)).toEqual({ stock: 7, soldCount: 3 });
  });

  test('the owner sets the limit in the product form: default 2, 1–50, validated; the shop shows it', async () => {
    const admin = await adminClient(t());
    const payload = (over: Partial<ProductPayloadInput> = {}): ProductPayloadInput => ({
      name: 'Form Limit Hoodie',
      description: 'Heavyweight hoodie.',
      price: '90.00',
      salePrice: null,
      category: 'hoodies',
      subcategory: null,
      materials: '100% organic cotton',
      sustainabilityInfo: 'Made to order.',
      stock: 7,
      inStock: true,
      isNew: false,
      isOnSale: false,
      images: ['/uploads/products/abc.webp'],
      sizes: ['M'],
      colors: [],
      ...over,
    });
    const created = adminProductSchema.parse((await admin.post('/api/admin/products', payload())).json());
    expect(created.maxPerShopper).toBe(2);
    for (const bad of [0, 51, '2.5', 'two']) {
      const res = await admin.put(`/api/admin/products/${created.id}`, payload({ maxPerShopper: bad as number }));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/Limit per shopper must be a whole number from 1 to 50/);
    }
    const raised = await admin.put(`/api/admin/products/${created.id}`, payload({ maxPerShopper: '5' }));
    expect(raised.statusCode, raised.body).toBe(200);
    expect(adminProductSchema.parse(raised.json()).maxPerShopper).toBe(5);
    // Left out on an update, the product keeps its limit.
    const kept = await admin.put(`/api/admin/products/${created.id}`, payload({ name: 'Renamed Hoodie' }));
    expect(adminProductSchema.parse(kept.json()).maxPerShopper).toBe(5);
    const shown = (await t().client().get(`/api/products/${created.id}`)).json() as { maxPerShopper: number };
    expect(shown.maxPerShopper).toBe(5);
  });

  test('an expired hold releases its claims (another session of the shopper may buy); the lapsed session waits a hold', async () => {
    const productId = await limited('Lapse Tee');
    const slow = await shopper(productId, 2, who({ email: 'lapse@example.com' }));
    const intent = await startPayment(slow);
    await db()
      .update(checkouts)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
    expect(await t().services.checkout.releaseExpiredHolds()).toBe(1);
    const released = await claimsOf(productId);
    expect(released.map((c) => c.status)).toEqual(['released', 'released', 'released']);
    expect(released.every((c) => c.releasedAt)).toBe(true);

    // The same session cannot take it again ahead of others.
    const retry = await slow.post('/api/create-payment-intent', {});
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toEqual({
      message: 'Your hold on Lapse Tee ran out, so it went back to other shoppers first. You can try again in 10 minutes.',
    });
    expect(Number(retry.headers['retry-after'])).toBeGreaterThan(590);
    expect(await productState(db(), productId)).toEqual({ stock: 10, soldCount: 0 });

    // The released claims no longer count: the same e-mail in another session buys its 2.
    const other = await shopper(productId, 2, who({ email: 'lapse@example.com' }));
    expect((await pay(other)).done.statusCode).toBe(200);
  });

  test('after the cooldown the lapsed session may hold the product again', async () => {
    const productId = await limited('Cooldown Tee');
    const s = await shopper(productId, 1);
    const intent = await startPayment(s);
    await db()
      .update(checkouts)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
    await t().services.checkout.releaseExpiredHolds();
    expect((await s.post('/api/create-payment-intent', {})).statusCode).toBe(409);

    await db()
      .update(purchaseClaims)
      .set({ releasedAt: sql`now() - interval '11 minutes'` })
      .where(eq(purchaseClaims.productId, productId));
    const again = await startPayment(s);
    expect(again.clientSecret).toBeTruthy();
    expect((await productState(db(), productId)).stock).toBe(9);
  });

  test('one open checkout per session: a new attempt replaces the last (its units, intent and claims go)', async () => {
    const productId = await limited('Single Tee');
    const s = await shopper(productId, 1);
    const first = await startPayment(s);
    expect((await s.post('/api/cart', { productId, quantity: 1, selectedSize: 'L' })).statusCode).toBe(200);
    const second = await startPayment(s);
    expect(second.paymentIntentId).not.toBe(first.paymentIntentId);

    const [co] = await db().select().from(checkouts).where(eq(checkouts.paymentIntentId, first.paymentIntentId));
    const open = await db()
      .select()
      .from(checkouts)
      .where(and(eq(checkouts.sessionId, co!.sessionId), eq(checkouts.status, 'open')));
    expect(open.map((c) => c.paymentIntentId)).toEqual([second.paymentIntentId]);
    expect(co!.status).toBe('cancelled');
    await expect.poll(async () => (await t().services.gateway.retrieveIntent(first.paymentIntentId))?.status).toBe('canceled');
    expect(await productState(db(), productId)).toEqual({ stock: 8, soldCount: 0 });
    // Claims: only the new attempt's (2 units), the replaced one's are gone, not counted twice.
    const claims = await claimsOf(productId);
    expect(new Set(claims.map((c) => c.checkoutId))).toEqual(new Set([open[0]!.id]));
    expect(claims.every((c) => c.quantity === 2 && c.status === 'held')).toBe(true);
    // And the replacement did not count as a lapse: a third attempt is fine.
    expect((await s.post('/api/cart', { productId: await createProduct(db()), quantity: 1, selectedSize: 'M' })).statusCode).toBe(200);
    await startPayment(s);
  });

  test('renewing the hold does not push its deadline: the replacement keeps the first deadline; once past it lapsed', async () => {
    const productId = await limited('Renew Tee');
    const s = await shopper(productId, 1);
    const first = await startPayment(s);
    // A changed cart makes a new attempt (the same cart would reuse the intent).
    expect((await s.post('/api/cart', { productId, quantity: 1, selectedSize: 'L' })).statusCode).toBe(200);
    const second = await startPayment(s);
    expect(second.paymentIntentId).not.toBe(first.paymentIntentId);
    expect(second.holdExpiresAt).toBe(first.holdExpiresAt);

    // Its time passed before the release job ran: a new attempt is the lapse's cooldown, not a fresh hold.
    await db()
      .update(checkouts)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(checkouts.paymentIntentId, second.paymentIntentId));
    const items = (await s.get('/api/cart')).json() as Array<{ id: string }>;
    expect((await s.put(`/api/cart/${items[1]!.id}`, { quantity: 0 })).statusCode).toBeLessThan(300);
    const renewed = await s.post('/api/create-payment-intent', {});
    expect(renewed.statusCode).toBe(409);
    expect(renewed.json().message).toMatch(/^Your hold on Renew Tee ran out, .* You can try again in 10 minutes\.$/);
    expect(await productState(db(), productId)).toEqual({ stock: 8, soldCount: 0 });
  });
});

const fake = await new FakeStripeServer().start();
afterAll(() => fake.stop());

describeEachDb(
  'per-shopper limits with Stripe (card fingerprint from the latest charge)',
  (t) => {
    test('the same card fingerprint from another e-mail and address: refunded through Stripe, no order', async () => {
      const db = t().database.db;
      const productId = await createProduct(db, { name: 'Stripe Card Tee', stock: 10, maxPerShopper: 2 });
      const buy = async (info: CustomerInfoBody, fingerprint: string) => {
        const s = t().client();
        expect((await s.post('/api/cart', { productId, quantity: info === first ? 2 : 1, selectedSize: 'M' })).statusCode).toBe(200);
        expect((await s.post('/api/customer-info', info)).statusCode).toBe(200);
        const intent = await startPayment(s);
        fake.succeed(intent.paymentIntentId, { fingerprint });
        return { intent, res: await s.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId }) };
      };
      const first = who();
      expect((await buy(first, 'fp_same_card')).res.statusCode).toBe(200);
      const second = await buy(who(), 'fp_same_card');
      expect(second.res.statusCode).toBe(409);
      expect(second.res.json()).toEqual({
        message: 'You can buy at most 2 of Stripe Card Tee per shopper. Your payment has been refunded.',
      });
      expect(fake.refunds.filter((r) => r.payment_intent === second.intent.paymentIntentId)).toHaveLength(1);
      expect(
        fake.requests.some((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${second.intent.paymentIntentId}`),
      ).toBe(true);
      expect(await productState(db, productId)).toEqual({ stock: 8, soldCount: 2 });
      // Another card is another shopper.
      expect((await buy(who(), 'fp_other_card')).res.statusCode).toBe(200);
    });
  },
  { env: fake.env() },
);
