import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import {
  createPaymentIntentResult,
  customerInfoSchema,
  totalsSchema,
} from '../../../common/contracts/checkout';
import { describeEachDb } from '../../../tests/support/build-test-app';
import {
  codeUsage,
  createCode,
  createProduct,
  customer,
  productState,
  readyShopper,
  startPayment,
} from '../../../tests/support/shop-fixtures';
import { offlineIntents } from '../payments/payments.tables';
import { discountCodes } from '../discounts/discounts.tables';
import { checkouts } from './checkout.tables';

describeEachDb('customer info API', (t) => {
  test('GET with nothing saved is 200 null', async () => {
    const res = await t().client().get('/api/customer-info');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBeNull();
  });

  test('POST saves per session (country defaults to US), GET reads it back, POST again updates', async () => {
    const shopper = t().client();
    const { shippingCountry: _omit, ...withoutCountry } = customer();
    const saved = await shopper.post('/api/customer-info', withoutCountry);
    expect(saved.statusCode, saved.body).toBe(200);
    const info = customerInfoSchema.parse(saved.json());
    expect(info).toMatchObject({ email: 'ada@example.com', shippingCountry: 'US', phone: null });
    expect((await shopper.get('/api/customer-info')).json()).toEqual(info);
    const updated = (
      await shopper.post('/api/customer-info', customer({ shippingCity: 'Chicago', phone: '555-0100' }))
    ).json();
    expect(updated).toMatchObject({ id: info.id, shippingCity: 'Chicago', phone: '555-0100' });
    expect((await t().client().get('/api/customer-info')).json()).toBeNull();
  });

  test.each([
    ['email', 'not-an-email', 'Please enter a valid email address'],
    ['email', undefined, 'Please enter a valid email address'],
    ['firstName', '', 'First name is required'],
    ['lastName', '   ', 'Last name is required'],
    ['shippingAddress', '', 'Shipping address is required'],
    ['shippingCity', '', 'City is required'],
    ['shippingState', '', 'State is required'],
    ['shippingZip', undefined, 'ZIP code is required'],
  ])('%s = %j is refused with "%s" and nothing is saved', async (field, value, message) => {
    const shopper = t().client();
    const res = await shopper.post('/api/customer-info', { ...customer(), [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message });
    expect(shopper.cookies.size).toBe(0);
  });

  // Each country's own fields and postcode (common/domain/address-format.ts, ADR 023).
  const paris = {
    shippingAddress: '5 rue Oberkampf',
    shippingCity: 'Paris',
    shippingState: '',
    shippingZip: '75 011',
    shippingCountry: 'fr',
  };
  test.each([
    ['a country we do not ship to', { shippingCountry: 'ZZ' }, 'Please choose a country we ship to'],
    [
      'a UK postcode for France',
      { ...paris, shippingZip: 'E1 6RF' },
      'This postal code does not look like a French postal code',
    ],
    [
      'a Paris address left on US',
      { ...paris, shippingState: 'IDF', shippingCountry: 'US' },
      'Please choose a state from the list',
    ],
    [
      'a French postcode for the UK',
      {
        shippingAddress: '12 Brick Lane',
        shippingCity: 'London',
        shippingZip: '75011',
        shippingCountry: 'GB',
      },
      'This postcode does not look like a UK postcode',
    ],
    [
      'Japan without its prefecture',
      {
        shippingAddress: '1-2-3 Shibuya',
        shippingCity: '',
        shippingState: '',
        shippingZip: '150-0002',
        shippingCountry: 'JP',
      },
      'Prefecture is required',
    ],
  ])('%s is refused with its message and nothing is saved', async (_case, address, message) => {
    const shopper = t().client();
    await shopper.get('/api/customer-info');
    const res = await shopper.post('/api/customer-info', { ...customer(), ...address });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ message });
    expect(shopper.cookies.size).toBe(0);
    expect((await shopper.get('/api/customer-info')).json()).toBeNull();
  });

  test("an address abroad is saved in its country's form: postcode canonical, fields it has not dropped", async () => {
    const shopper = t().client();
    const paris = await shopper.post(
      '/api/customer-info',
      customer({ shippingCity: 'Paris', shippingState: 'IDF', shippingZip: '75 011', shippingCountry: 'fr' }),
    );
    expect(paris.statusCode, paris.body).toBe(200);
    expect(paris.json()).toMatchObject({
      shippingCity: 'Paris',
      shippingState: '',
      shippingZip: '75011',
      shippingCountry: 'FR',
    });
    const london = await shopper.post(
      '/api/customer-info',
      customer({
        shippingAddress: '12 Brick Lane',
        shippingCity: 'London',
        shippingState: '',
        shippingZip: 'e16rf',
        shippingCountry: 'GB',
      }),
    );
    expect(london.json()).toMatchObject({ shippingZip: 'E1 6RF', shippingCountry: 'GB' });
    const tokyo = await shopper.post(
      '/api/customer-info',
      customer({
        shippingAddress: '1-2-3 Shibuya',
        shippingCity: '',
        shippingState: 'tokyo',
        shippingZip: '1500002',
        shippingCountry: 'JP',
      }),
    );
    expect(tokyo.statusCode, tokyo.body).toBe(200);
    expect((await shopper.get('/api/customer-info')).json()).toMatchObject({
      shippingState: 'Tokyo',
      shippingZip: '150-0002',
      shippingCountry: 'JP',
    });
    const us = await shopper.post(
      '/api/customer-info',
      customer({ shippingState: 'illinois', shippingZip: '627010001' }),
    );
    expect(us.json()).toMatchObject({
      shippingState: 'IL',
      shippingZip: '62701-0001',
      shippingCountry: 'US',
    });
  });
});

describeEachDb('discount codes API', (t) => {
  test('valid codes answer {code, discountPercent}, case-insensitively', async () => {
    const res = await t().client().post('/api/validate-discount', { code: ' fall15 ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'FALL15', discountPercent: 15 });
  });

  test('empty, unknown, inactive, expired and used-up codes are refused with a message', async () => {
    const db = t().database.db;
    const shopper = t().client();
    const cases: Array<[string, number, string]> = [
      ['   ', 400, 'Please enter a discount code'],
      ['NOPE', 404, 'This discount code is not valid'],
      [await createCode(db, { isActive: false }), 404, 'This discount code is not valid'],
      [
        await createCode(db, { expiresAt: new Date(Date.now() - 1000) }),
        400,
        'This discount code has expired',
      ],
    ];
    const used = await createCode(db, { maxUsage: 1 });
    await db.update(discountCodes).set({ usageCount: 1 }).where(eq(discountCodes.code, used));
    cases.push([used, 400, 'This discount code has already been used']);
    for (const [code, status, message] of cases) {
      const res = await shopper.post('/api/validate-discount', { code });
      expect(res.statusCode, code).toBe(status);
      expect(res.json()).toEqual({ message });
    }
    const future = await createCode(db, {
      expiresAt: new Date(Date.now() + 86_400_000),
      discountPercent: 20,
    });
    expect((await shopper.post('/api/validate-discount', { code: future.toLowerCase() })).json()).toEqual({
      code: future,
      discountPercent: 20,
    });
  });
});

describeEachDb('calculate-shipping API', (t) => {
  test('an empty cart is refused', async () => {
    const res = await t().client().post('/api/calculate-shipping', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Your cart is empty' });
  });

  test('below the threshold: standard shipping and what is left for free shipping', async () => {
    const productId = await createProduct(t().database.db, { price: '45.00' });
    const shopper = t().client();
    await shopper.post('/api/cart', { productId, selectedSize: 'M', price: '1.00' });
    const res = await shopper.post('/api/calculate-shipping', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(totalsSchema.parse(res.json())).toEqual({
      subtotal: '45.00',
      discountCode: null,
      discountPercent: 0,
      discountAmount: '0.00',
      shipping: '8.99',
      shippingMethod: 'standard',
      tax: '0.00',
      total: '53.99',
      freeShippingEligible: false,
      freeShippingThreshold: '60.00',
      amountToFreeShipping: '15.00',
      itemCount: 1,
    });
  });

  test('at the threshold shipping is free; express stays paid; the discount counts first', async () => {
    const productId = await createProduct(t().database.db, { price: '45.00', salePrice: '30.00' });
    const shopper = t().client();
    await shopper.post('/api/cart', { productId, quantity: 2, selectedSize: 'M' });
    expect((await shopper.post('/api/calculate-shipping', {})).json()).toMatchObject({
      subtotal: '60.00',
      shipping: '0.00',
      total: '60.00',
      freeShippingEligible: true,
      amountToFreeShipping: '0.00',
      itemCount: 2,
    });
    expect(
      (await shopper.post('/api/calculate-shipping', { shippingMethod: 'express' })).json(),
    ).toMatchObject({
      shipping: '15.99',
      shippingMethod: 'express',
      total: '75.99',
    });
    expect((await shopper.post('/api/calculate-shipping', { discountCode: 'fall15' })).json()).toMatchObject({
      discountCode: 'FALL15',
      discountPercent: 15,
      discountAmount: '9.00',
      shipping: '8.99',
      total: '59.99',
      freeShippingEligible: false,
      amountToFreeShipping: '9.00',
    });
    // A code that does not apply is left out rather than failing the summary.
    expect((await shopper.post('/api/calculate-shipping', { discountCode: 'NOPE' })).json()).toMatchObject({
      discountCode: null,
      discountAmount: '0.00',
    });
  });

  test('the country being chosen prices the summary before it is saved; the payment keeps the saved one', async () => {
    const productId = await createProduct(t().database.db, { price: '45.00' });
    const shopper = t().client();
    await shopper.post('/api/cart', { productId, selectedSize: 'M' });
    expect((await shopper.post('/api/calculate-shipping', { shippingCountry: 'jp' })).json()).toMatchObject({
      shippingMethod: 'international',
      shipping: '24.99',
      freeShippingEligible: false,
      amountToFreeShipping: '0.00',
    });
    expect((await shopper.post('/api/calculate-shipping', { shippingCountry: 'US' })).json()).toMatchObject({
      shippingMethod: 'standard',
      shipping: '8.99',
      amountToFreeShipping: '15.00',
    });
    // Nothing saved: without the preview the summary is the home country's.
    expect((await shopper.post('/api/calculate-shipping', {})).json()).toMatchObject({ shippingMethod: 'standard' });
  });

  test('outside the US the international rate applies, whatever is asked', async () => {
    const productId = await createProduct(t().database.db, { price: '20.00' });
    const shopper = t().client();
    await shopper.post('/api/cart', { productId, selectedSize: 'M' });
    const saved = await shopper.post(
      '/api/customer-info',
      customer({ shippingCity: 'Berlin', shippingState: '', shippingZip: '10119', shippingCountry: 'de' }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      (await shopper.post('/api/calculate-shipping', { shippingMethod: 'express' })).json(),
    ).toMatchObject({
      shippingMethod: 'international',
      shipping: '24.99',
      total: '44.99',
    });
  });

  test('a Paris address pays the international rate above the free-shipping threshold; the same cart ships free in the US', async () => {
    const productId = await createProduct(t().database.db, { price: '80.00' });
    const shopper = t().client();
    await shopper.post('/api/cart', { productId, selectedSize: 'M' });
    await shopper.post('/api/customer-info', customer());
    expect((await shopper.post('/api/calculate-shipping', {})).json()).toMatchObject({
      shippingMethod: 'standard',
      shipping: '0.00',
      freeShippingEligible: true,
    });
    const paris = customer({
      shippingAddress: '5 rue Oberkampf',
      shippingCity: 'Paris',
      shippingState: '',
      shippingZip: '75011',
      shippingCountry: 'FR',
    });
    expect((await shopper.post('/api/customer-info', paris)).statusCode).toBe(200);
    const totals = totalsSchema.parse((await shopper.post('/api/calculate-shipping', {})).json());
    expect(totals).toMatchObject({
      shippingMethod: 'international',
      shipping: '24.99',
      total: '104.99',
      freeShippingEligible: false,
      amountToFreeShipping: '0.00',
    });
    // The payment charges what the summary said.
    const intent = createPaymentIntentResult.parse(
      (await shopper.post('/api/create-payment-intent', {})).json(),
    );
    expect(intent.amount).toBe(10499);
  });
});

describeEachDb(
  'totals with tax and a $75 threshold',
  (t) => {
    test('tax = rate × (subtotal − discount), shown in the total', async () => {
      const productId = await createProduct(t().database.db, { price: '50.00' });
      const shopper = t().client();
      await shopper.post('/api/cart', { productId, selectedSize: 'M' });
      expect(
        (await shopper.post('/api/calculate-shipping', { discountCode: 'FALL15' })).json(),
      ).toMatchObject({
        subtotal: '50.00',
        discountAmount: '7.50',
        tax: '3.40',
        shipping: '0.00',
        total: '45.90',
        freeShippingThreshold: '75.00',
        amountToFreeShipping: '32.50',
      });
    });

    test('a payment of $0.00 is refused', async () => {
      const db = t().database.db;
      const productId = await createProduct(db, { price: '50.00' });
      const code = await createCode(db, { discountPercent: 100, maxUsage: null });
      const shopper = await readyShopper(t(), productId);
      const before = await productState(db, productId);
      const res = await shopper.post('/api/create-payment-intent', { discountCode: code });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'The total must be above $0.00 to pay by card' });
      expect(await productState(db, productId)).toEqual(before);
    });
  },
  { env: { TAX_RATE: '0.08', FREE_SHIPPING_THRESHOLD: '75', SHIPPING_STANDARD: '0' } },
);

describeEachDb(
  'a shop at home in the UK (SHOP_COUNTRY=GB)',
  (t) => {
    test('London ships standard (free over the threshold) or express; New York pays the international rate', async () => {
      expect((await t().client().get('/api/settings')).json()).toMatchObject({ homeCountry: 'GB' });
      const productId = await createProduct(t().database.db, { price: '80.00' });
      const shopper = t().client();
      await shopper.post('/api/cart', { productId, selectedSize: 'M' });
      const london = customer({
        shippingAddress: '12 Brick Lane',
        shippingCity: 'London',
        shippingState: '',
        shippingZip: 'E1 6RF',
        shippingCountry: 'GB',
      });
      expect((await shopper.post('/api/customer-info', london)).statusCode).toBe(200);
      expect((await shopper.post('/api/calculate-shipping', {})).json()).toMatchObject({
        shippingMethod: 'standard',
        shipping: '0.00',
      });
      expect(
        (await shopper.post('/api/calculate-shipping', { shippingMethod: 'express' })).json(),
      ).toMatchObject({ shippingMethod: 'express', shipping: '15.99' });
      expect(
        (
          await shopper.post(
            '/api/customer-info',
            customer({ shippingCity: 'New York', shippingState: 'NY', shippingZip: '10001' }),
          )
        ).statusCode,
      ).toBe(200);
      expect(
        (await shopper.post('/api/calculate-shipping', { shippingMethod: 'express' })).json(),
      ).toMatchObject({
        shippingMethod: 'international',
        shipping: '24.99',
        freeShippingEligible: false,
      });
    });
  },
  { env: { SHOP_COUNTRY: 'GB' } },
);

describeEachDb('create-payment-intent API', (t) => {
  test('needs a cart and saved customer info', async () => {
    const anonymous = await t().client().post('/api/create-payment-intent', {});
    expect(anonymous.statusCode).toBe(400);
    expect(anonymous.json()).toEqual({ message: 'Your cart is empty' });
    const productId = await createProduct(t().database.db);
    const shopper = t().client();
    await shopper.post('/api/cart', { productId, selectedSize: 'M' });
    const noInfo = await shopper.post('/api/create-payment-intent', {});
    expect(noInfo.statusCode).toBe(400);
    expect(noInfo.json()).toEqual({ message: 'Please enter your shipping information first' });
  });

  test('prices on the server, holds the stock and opens an offline intent for that amount', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { price: '45.00', stock: 5 });
    const shopper = await readyShopper(t(), productId);
    const started = Date.now();
    const res = await shopper.post('/api/create-payment-intent', { amount: 53.99, discountCode: null });
    expect(res.statusCode, res.body).toBe(200);
    const result = createPaymentIntentResult.parse(res.json());
    expect(result).toMatchObject({ amount: 5399, provider: 'offline' });
    expect(result.clientSecret).toContain('_secret_');
    const hold = new Date(result.holdExpiresAt).getTime() - started;
    expect(hold).toBeGreaterThan(9.9 * 60_000);
    expect(hold).toBeLessThan(10.1 * 60_000);
    expect(await productState(db, productId)).toEqual({ stock: 4, soldCount: 0 });
    const [intent] = await db
      .select()
      .from(offlineIntents)
      .where(eq(offlineIntents.id, result.paymentIntentId));
    expect(intent).toMatchObject({ amount: 5399, status: 'requires_payment_method' });
    const [checkout] = await db
      .select()
      .from(checkouts)
      .where(eq(checkouts.paymentIntentId, result.paymentIntentId));
    expect(intent!.metadata).toEqual({ checkoutId: checkout!.id, sessionId: checkout!.sessionId });
    expect(checkout).toMatchObject({
      status: 'open',
      amountCents: 5399,
      subtotalCents: 4500,
      shippingCents: 899,
      totalCents: 5399,
    });
    expect(checkout!.lines).toEqual([
      expect.objectContaining({ productId, quantity: 1, unitPriceCents: 4500, selectedSize: 'M' }),
    ]);
  });

  test('a client amount that differs from the server total is refused and holds nothing', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { price: '45.00', stock: 5 });
    const shopper = await readyShopper(t(), productId);
    const res = await shopper.post('/api/create-payment-intent', { amount: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Your cart changed; please review the total' });
    expect(await productState(db, productId)).toEqual({ stock: 5, soldCount: 0 });
  });

  test('asking again with nothing changed reuses the intent; a changed cart replaces it and moves the hold', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { stock: 5 });
    const shopper = await readyShopper(t(), productId);
    const first = await startPayment(shopper);
    const again = await startPayment(shopper);
    expect(again.paymentIntentId).toBe(first.paymentIntentId);
    expect(again.holdExpiresAt).toBe(first.holdExpiresAt);
    expect((await productState(db, productId)).stock).toBe(4);

    await shopper.post('/api/cart', { productId, quantity: 2, selectedSize: 'M' });
    const replaced = await startPayment(shopper);
    expect(replaced.paymentIntentId).not.toBe(first.paymentIntentId);
    expect((await productState(db, productId)).stock).toBe(2);
    const [firstCheckout] = await db
      .select()
      .from(checkouts)
      .where(eq(checkouts.paymentIntentId, first.paymentIntentId));
    const rows = await db.select().from(checkouts).where(eq(checkouts.sessionId, firstCheckout!.sessionId));
    expect(rows.map((r) => r.status).sort()).toEqual(['cancelled', 'open']);
    // The replaced intent can no longer be paid.
    await expect
      .poll(
        async () =>
          (await db.select().from(offlineIntents).where(eq(offlineIntents.id, first.paymentIntentId)))[0]!
            .status,
      )
      .toBe('canceled');
  });

  test('stock gone since it went into the cart: "just sold out", nothing held', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { name: 'Last One Tee', stock: 1 });
    const a = await readyShopper(t(), productId);
    const b = await readyShopper(t(), productId);
    await startPayment(a);
    const res = await b.post('/api/create-payment-intent', {});
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Sorry, Last One Tee just sold out' });
    expect(await productState(db, productId)).toEqual({ stock: 0, soldCount: 0 });
  });

  test('codes: unknown and expired ones are refused; a single-use code is claimed once per shopper', async () => {
    const db = t().database.db;
    const productId = await createProduct(db, { price: '40.00', stock: 5 });
    const shopper = await readyShopper(t(), productId);
    const unknown = await shopper.post('/api/create-payment-intent', { discountCode: 'NOPE' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: 'This discount code is not valid' });
    const expired = await createCode(db, { expiresAt: new Date(Date.now() - 1) });
    expect((await shopper.post('/api/create-payment-intent', { discountCode: expired })).json()).toEqual({
      message: 'This discount code has expired',
    });
    expect((await productState(db, productId)).stock).toBe(5);

    const code = await createCode(db, { discountPercent: 10, maxUsage: 1 });
    const paid = await startPayment(shopper, { discountCode: code.toLowerCase(), amount: 44.99 });
    expect(paid.amount).toBe(3600 + 899);
    expect(await codeUsage(db, code)).toBe(1);
    // Going back and forth keeps the shopper's own claim.
    expect((await shopper.post('/api/validate-discount', { code })).statusCode).toBe(200);
    await shopper.post('/api/customer-info', customer({ shippingCity: 'Peoria' }));
    await startPayment(shopper, { discountCode: code });
    expect(await codeUsage(db, code)).toBe(1);
    // Without the code the claim goes back.
    await startPayment(shopper, {});
    expect(await codeUsage(db, code)).toBe(0);
    await startPayment(shopper, { discountCode: code });

    const other = await readyShopper(t(), productId);
    const taken = await other.post('/api/create-payment-intent', { discountCode: code });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ message: 'This discount code has already been used' });
    const validated = await other.post('/api/validate-discount', { code });
    expect(validated.json()).toEqual({ message: 'This discount code has already been used' });
  });
});
