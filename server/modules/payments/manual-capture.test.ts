import { eq } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { FakeStripeServer } from '../../../tests/support/fake-stripe-server';
import { offlineIntents } from './payments.tables';
import type { AuthorisationCard } from './payment-gateway';
import { passesLuhn } from './offline-card';

// Authorise / capture / void (draw entries; docs/draw.md): the semantics of Stripe's capture_method=manual
// on both gateways. Capture charges once however often it is called; void releases; declines are results.

const card = (cardNumber: string): AuthorisationCard => ({ kind: 'offline', cardNumber, expiry: '12/40', cvc: '123' });
let n = 0;
const key = () => `test-auth-${process.pid}-${++n}`;

describeEachDb('offline gateway: manual capture', (t) => {
  const row = async (id: string) => (await t().database.db.select().from(offlineIntents).where(eq(offlineIntents.id, id)))[0]!;

  test('authorise holds the amount; capture charges it once; a second capture reports it was already captured', async () => {
    const gw = t().services.gateway;
    const idempotencyKey = key();
    const auth = await gw.authorise({ amountCents: 5399, metadata: { drawEntryId: 'e1' }, idempotencyKey, card: card('4242 4242 4242 4242') });
    expect(auth).toMatchObject({ ok: true, amount: 5399 });
    if (auth.ok !== true) throw new Error('not authorised');
    expect(auth.cardFingerprint).toMatch(/^offline_/);
    expect(await row(auth.authorisationId)).toMatchObject({ status: 'requires_capture', amount: 5399 });
    // The same key is the same authorisation: no second hold.
    const again = await gw.authorise({ amountCents: 5399, metadata: {}, idempotencyKey, card: card('4242424242424242') });
    expect(again).toMatchObject({ ok: true, authorisationId: auth.authorisationId });

    expect(await gw.capture(auth.authorisationId)).toEqual({ kind: 'captured', amount: 5399 });
    expect(await gw.capture(auth.authorisationId)).toEqual({ kind: 'already_captured', amount: 5399 });
    expect(await row(auth.authorisationId)).toMatchObject({ status: 'succeeded' });
    // Captured money is not released by a void.
    expect(await gw.voidAuthorisation(auth.authorisationId)).toBe('captured');
    expect((await gw.retrieveIntent(auth.authorisationId))?.metadata).toEqual({ drawEntryId: 'e1' });
  });

  test('concurrent captures of one authorisation charge it once', async () => {
    const gw = t().services.gateway;
    const auth = await gw.authorise({ amountCents: 1000, metadata: {}, idempotencyKey: key(), card: card('4242424242424242') });
    if (!auth.ok) throw new Error('not authorised');
    const results = await Promise.all(Array.from({ length: 8 }, () => gw.capture(auth.authorisationId)));
    expect(results.filter((r) => r.kind === 'captured')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'already_captured')).toHaveLength(7);
  });

  test('void releases an authorisation; it can no longer be captured; voiding again says so', async () => {
    const gw = t().services.gateway;
    const auth = await gw.authorise({ amountCents: 2500, metadata: {}, idempotencyKey: key(), card: card('5555555555554444') });
    if (!auth.ok) throw new Error('not authorised');
    expect(await gw.voidAuthorisation(auth.authorisationId)).toBe('voided');
    expect(await gw.voidAuthorisation(auth.authorisationId)).toBe('already_voided');
    expect(await gw.capture(auth.authorisationId)).toMatchObject({ kind: 'failed', code: 'authorisation_voided' });
    expect(await row(auth.authorisationId)).toMatchObject({ status: 'canceled' });
  });

  test('4000 0000 0000 0002 is declined at authorisation; nothing is held', async () => {
    const gw = t().services.gateway;
    const before = (await t().database.db.select().from(offlineIntents)).length;
    expect(await gw.authorise({ amountCents: 2500, metadata: {}, idempotencyKey: key(), card: card('4000000000000002') })).toEqual({
      ok: false,
      code: 'card_declined',
      message: 'Your card was declined.',
    });
    expect(await gw.authorise({ amountCents: 2500, metadata: {}, idempotencyKey: key(), card: card('4000000000009995') })).toMatchObject({
      ok: false,
      message: 'Your card has insufficient funds.',
    });
    expect((await t().database.db.select().from(offlineIntents)).length).toBe(before);
  });

  test('4000 0000 0000 0341 is authorised, then declined at capture (every time); void then releases it', async () => {
    expect(passesLuhn('4000000000000341')).toBe(true);
    const gw = t().services.gateway;
    const auth = await gw.authorise({ amountCents: 2500, metadata: {}, idempotencyKey: key(), card: card('4000 0000 0000 0341') });
    expect(auth.ok).toBe(true);
    if (!auth.ok) return;
    expect(await gw.capture(auth.authorisationId)).toEqual({ kind: 'failed', code: 'card_declined', message: 'Your card was declined.' });
    expect(await gw.capture(auth.authorisationId)).toMatchObject({ kind: 'failed', code: 'card_declined' });
    expect(await row(auth.authorisationId)).toMatchObject({ status: 'requires_capture', lastError: 'card_declined' });
    expect(await gw.voidAuthorisation(auth.authorisationId)).toBe('voided');
    // The same card charged at once (a checkout) is declined, as at Stripe.
    const intent = await gw.createIntent({ amountCents: 100, metadata: {}, idempotencyKey: key() });
    expect(intent.status).toBe('requires_payment_method');
  });

  test('3-D Secure cards wait for the bank (nothing held); authenticate needs the secret; complete holds, fail holds nothing', async () => {
    const gw = t().services.gateway;
    if (gw.provider !== 'offline' || !('authenticate' in gw)) throw new Error('offline gateway expected');
    for (const number of ['4000 0027 6000 3184', '4000 0025 0000 3155']) {
      const idempotencyKey = key();
      const auth = await gw.authorise({ amountCents: 4200, metadata: { drawId: 'd1' }, idempotencyKey, card: card(number) });
      if (auth.ok !== 'requires_action') throw new Error(`expected requires_action for ${number}`);
      expect(auth.clientSecret).toMatch(new RegExp(`^${auth.authorisationId}_secret_`));
      expect(await row(auth.authorisationId)).toMatchObject({ status: 'requires_action' });
      expect(await gw.retrieveAuthorisation(auth.authorisationId)).toEqual({
        id: auth.authorisationId,
        state: 'requires_action',
        amount: 4200,
        metadata: { drawId: 'd1' },
        cardFingerprint: null,
      });
      // The same key answers the same wait; nothing is captured while it waits.
      expect(await gw.authorise({ amountCents: 4200, metadata: {}, idempotencyKey, card: card(number) })).toEqual(auth);
      expect(await gw.capture(auth.authorisationId)).toMatchObject({ kind: 'failed', code: 'authorisation_voided' });
    }

    const done = await gw.authorise({ amountCents: 4200, metadata: { drawId: 'd2' }, idempotencyKey: key(), card: card('4000002760003184') });
    if (done.ok !== 'requires_action') throw new Error('expected requires_action');
    const authenticate = (gw as typeof gw & { authenticate: (i: object) => Promise<unknown> }).authenticate;
    await expect(authenticate({ authorisationId: done.authorisationId, clientSecret: 'pi_x_secret_nope', outcome: 'complete' })).rejects.toMatchObject({ statusCode: 404 });
    expect(await authenticate({ authorisationId: done.authorisationId, clientSecret: done.clientSecret, outcome: 'complete' })).toEqual({
      id: done.authorisationId,
      status: 'requires_capture',
    });
    // The first answer stands.
    expect(await authenticate({ authorisationId: done.authorisationId, clientSecret: done.clientSecret, outcome: 'fail' })).toMatchObject({ status: 'requires_capture' });
    expect(await gw.retrieveAuthorisation(done.authorisationId)).toMatchObject({ state: 'authorised', amount: 4200, cardFingerprint: expect.stringMatching(/^offline_/) });
    expect(await gw.capture(done.authorisationId)).toEqual({ kind: 'captured', amount: 4200 });

    const failed = await gw.authorise({ amountCents: 4200, metadata: {}, idempotencyKey: key(), card: card('4000002760003184') });
    if (failed.ok !== 'requires_action') throw new Error('expected requires_action');
    await expect(authenticate({ authorisationId: failed.authorisationId, clientSecret: failed.clientSecret, outcome: 'fail' })).rejects.toMatchObject({
      statusCode: 402,
      message: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    });
    expect(await gw.retrieveAuthorisation(failed.authorisationId)).toMatchObject({ state: 'failed', cardFingerprint: null });
    expect(await gw.capture(failed.authorisationId)).toMatchObject({ kind: 'failed' });
    // The checkout's confirm cannot pay a failed hold by its secret.
    expect(await row(failed.authorisationId)).toMatchObject({ status: 'canceled' });

    // A hold still waiting for the bank can be voided.
    const waiting = await gw.authorise({ amountCents: 4200, metadata: {}, idempotencyKey: key(), card: card('4000002760003184') });
    if (waiting.ok !== 'requires_action') throw new Error('expected requires_action');
    expect(await gw.voidAuthorisation(waiting.authorisationId)).toBe('voided');
    expect(await gw.retrieveAuthorisation(waiting.authorisationId)).toMatchObject({ state: 'voided' });
    expect(await gw.retrieveAuthorisation('pi_offline_auth_000000000000000000000000')).toBeNull();
  });

  test('a Stripe PaymentMethod is refused by the offline gateway', async () => {
    expect(
      await t().services.gateway.authorise({
        amountCents: 100,
        metadata: {},
        idempotencyKey: key(),
        card: { kind: 'stripe', paymentMethodId: 'pm_card_visa' },
      }),
    ).toMatchObject({ ok: false, code: 'invalid_request' });
  });
});

const fake = await new FakeStripeServer().start();
afterAll(() => fake.stop());

describeEachDb(
  'Stripe gateway: manual capture (official SDK against the local fake Stripe)',
  (t) => {
    const pm = (id: string): AuthorisationCard => ({ kind: 'stripe', paymentMethodId: id });

    test('authorise creates a confirmed manual-capture intent with the card fingerprint; capture charges once', async () => {
      const gw = t().services.gateway;
      expect(gw.provider).toBe('stripe');
      const idempotencyKey = key();
      const auth = await gw.authorise({ amountCents: 5399, metadata: { drawEntryId: 'e9' }, idempotencyKey, card: pm('pm_card_visa') });
      expect(auth).toMatchObject({ ok: true, amount: 5399, cardFingerprint: 'fp_pm_card_visa' });
      if (!auth.ok) return;
      const created = fake.requests.find((r) => r.path === '/v1/payment_intents' && r.idempotencyKey === idempotencyKey)!;
      expect(created.params).toMatchObject({ capture_method: 'manual', confirm: 'true', payment_method: 'pm_card_visa', amount: '5399' });
      expect(fake.intents.get(auth.authorisationId)?.status).toBe('requires_capture');

      expect(await gw.capture(auth.authorisationId)).toEqual({ kind: 'captured', amount: 5399 });
      expect(await gw.capture(auth.authorisationId)).toEqual({ kind: 'already_captured', amount: 5399 });
      const captures = fake.requests.filter((r) => r.path === `/v1/payment_intents/${auth.authorisationId}/capture`);
      expect(captures).toHaveLength(1);
      expect(captures[0]!.idempotencyKey).toBe(`capture-${auth.authorisationId}`);
      expect(await gw.voidAuthorisation(auth.authorisationId)).toBe('captured');
    });

    test('a declined card is a result at authorisation; a capture-time decline is a result at capture', async () => {
      const gw = t().services.gateway;
      expect(await gw.authorise({ amountCents: 100, metadata: {}, idempotencyKey: key(), card: pm('pm_card_chargeDeclined') })).toMatchObject({
        ok: false,
        code: 'card_declined',
        message: 'Your card was declined.',
      });
      const auth = await gw.authorise({ amountCents: 100, metadata: {}, idempotencyKey: key(), card: pm('pm_card_chargeCustomerFail') });
      if (!auth.ok) throw new Error('not authorised');
      expect(await gw.capture(auth.authorisationId)).toMatchObject({ kind: 'failed', code: 'card_declined' });
      expect(await gw.voidAuthorisation(auth.authorisationId)).toBe('voided');
      expect(fake.intents.get(auth.authorisationId)?.status).toBe('canceled');
      expect(await gw.capture(auth.authorisationId)).toMatchObject({ kind: 'failed', code: 'authorisation_voided' });
    });

    test('3-D Secure: requires_action is answered with the client secret (not refused, not cancelled); after the step retrieveAuthorisation reads it', async () => {
      const gw = t().services.gateway;
      const auth = await gw.authorise({ amountCents: 5399, metadata: { drawId: 'd9', drawEntry: 'e9' }, idempotencyKey: key(), card: pm('pm_card_threeDSecure2Required') });
      if (auth.ok !== 'requires_action') throw new Error(`expected requires_action, got ${JSON.stringify(auth)}`);
      const intent = fake.intents.get(auth.authorisationId)!;
      expect(auth.clientSecret).toBe(intent.client_secret);
      expect(intent.status).toBe('requires_action');
      const created = fake.requests.find((r) => r.path === '/v1/payment_intents' && r.params.payment_method === 'pm_card_threeDSecure2Required')!;
      // Stripe.js finishes the step in the page: the next action must be Stripe.js's.
      expect(created.params).toMatchObject({ use_stripe_sdk: 'true', capture_method: 'manual', confirm: 'true' });
      expect(fake.requests.filter((r) => r.path === `/v1/payment_intents/${auth.authorisationId}/cancel`)).toHaveLength(0);
      expect(await gw.retrieveAuthorisation(auth.authorisationId)).toEqual({
        id: auth.authorisationId,
        state: 'requires_action',
        amount: 5399,
        metadata: { drawId: 'd9', drawEntry: 'e9' },
        cardFingerprint: null,
      });

      fake.authenticate(auth.authorisationId, 'complete');
      expect(await gw.retrieveAuthorisation(auth.authorisationId)).toEqual({
        id: auth.authorisationId,
        state: 'authorised',
        amount: 5399,
        metadata: { drawId: 'd9', drawEntry: 'e9' },
        cardFingerprint: 'fp_pm_card_threeDSecure2Required',
      });
      expect(await gw.capture(auth.authorisationId)).toEqual({ kind: 'captured', amount: 5399 });
      expect(await gw.retrieveAuthorisation(auth.authorisationId)).toMatchObject({ state: 'captured' });

      const failing = await gw.authorise({ amountCents: 100, metadata: {}, idempotencyKey: key(), card: pm('pm_card_authenticationRequired') });
      if (failing.ok !== 'requires_action') throw new Error('expected requires_action');
      fake.authenticate(failing.authorisationId, 'fail');
      expect(await gw.retrieveAuthorisation(failing.authorisationId)).toMatchObject({ state: 'failed', cardFingerprint: null });
      // A hold still waiting (or failed) is released by void.
      expect(await gw.voidAuthorisation(failing.authorisationId)).toBe('voided');
      expect(await gw.retrieveAuthorisation(failing.authorisationId)).toMatchObject({ state: 'voided' });
      expect(await gw.retrieveAuthorisation('pi_does_not_exist')).toBeNull();
    });

    test('void cancels the intent; again it is harmless; one released elsewhere reports already_voided', async () => {
      const gw = t().services.gateway;
      const auth = await gw.authorise({ amountCents: 100, metadata: {}, idempotencyKey: key(), card: pm('pm_card_mastercard') });
      if (!auth.ok) throw new Error('not authorised');
      expect(await gw.voidAuthorisation(auth.authorisationId)).toBe('voided');
      expect(await gw.voidAuthorisation(auth.authorisationId)).toBe('voided');
      expect(fake.intents.get(auth.authorisationId)?.status).toBe('canceled');
      // Released through another call (cancelIntent's own idempotency key): Stripe answers unexpected state.
      const other = await gw.authorise({ amountCents: 100, metadata: {}, idempotencyKey: key(), card: pm('pm_card_amex') });
      if (!other.ok) throw new Error('not authorised');
      await gw.cancelIntent(other.authorisationId);
      expect(await gw.voidAuthorisation(other.authorisationId)).toBe('already_voided');
    });
  },
  { env: fake.env() },
);
