import { eq } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { FakeStripeServer } from '../../../tests/support/fake-stripe-server';
import { offlineIntents } from './payments.tables';
import type { AuthorisationCard } from './payment-gateway';

// A draw entry's card kept until its confirmation (docs/draw.md, docs/security.md "Card testing"): preparing
// asks nothing of the bank and holds nothing; confirming asks it, once, whatever the number of calls.

let n = 0;
const key = () => `test-prepared-${process.pid}-${++n}`;
const offline = (cardNumber: string): AuthorisationCard => ({ kind: 'offline', cardNumber, expiry: '12/40', cvc: '123' });

describeEachDb('offline gateway: a prepared authorisation', (t) => {
  const status = async (id: string) =>
    (await t().database.db.select().from(offlineIntents).where(eq(offlineIntents.id, id)))[0]?.status;

  test('preparing a good, a declining and a 3-D Secure card answers alike and holds nothing; confirming answers as the bank', async () => {
    const gw = t().services.gateway;
    const prepared = await Promise.all(
      ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0027 6000 3184'].map((c) =>
        gw.prepareAuthorisation({ amountCents: 5399, metadata: { drawId: 'd1', drawEntry: 'e1' }, idempotencyKey: key(), card: offline(c) }),
      ),
    );
    for (const p of prepared) {
      expect(p).toMatchObject({ ok: true, authorisationId: expect.stringMatching(/^pi_offline_auth_[0-9a-f]{24}$/) });
      if (p.ok) expect(await status(p.authorisationId)).toBe('requires_confirmation');
    }
    const [good, declining, secure] = prepared.map((p) => (p.ok ? p.authorisationId : ''));
    expect(await gw.confirmAuthorisation(good!)).toMatchObject({ ok: true, amount: 5399 });
    expect(await gw.confirmAuthorisation(good!)).toMatchObject({ ok: true, amount: 5399 });
    expect(await status(good!)).toBe('requires_capture');
    expect(await gw.confirmAuthorisation(declining!)).toMatchObject({ ok: false, code: 'card_declined' });
    expect(await status(declining!)).toBe('canceled');
    expect(await gw.confirmAuthorisation(secure!)).toMatchObject({ ok: 'requires_action' });
    // A prepared one is released like a held one.
    const kept = await gw.prepareAuthorisation({ amountCents: 100, metadata: {}, idempotencyKey: key(), card: offline('4242 4242 4242 4242') });
    if (!kept.ok) throw new Error('not prepared');
    expect(await gw.voidAuthorisation(kept.authorisationId)).toBe('voided');
    expect(await gw.confirmAuthorisation(kept.authorisationId)).toMatchObject({ ok: false });
  });
});

const fake = await new FakeStripeServer().start();
afterAll(() => fake.stop());

describeEachDb(
  'Stripe gateway: a prepared authorisation (official SDK against the local fake Stripe)',
  (t) => {
    const pm = (id: string): AuthorisationCard => ({ kind: 'stripe', paymentMethodId: id });

    test('preparing creates an unconfirmed manual-capture intent (no bank); confirming authorises it once, declines or asks for 3-D Secure', async () => {
      const gw = t().services.gateway;
      const idempotencyKey = key();
      const prepared = await gw.prepareAuthorisation({ amountCents: 5399, metadata: { drawId: 'd1', drawEntry: 'e1' }, idempotencyKey, card: pm('pm_card_visa') });
      expect(prepared).toMatchObject({ ok: true, cardFingerprint: 'fp_pm_card_visa' });
      if (!prepared.ok) return;
      const created = fake.requests.find((r) => r.path === '/v1/payment_intents' && r.idempotencyKey === idempotencyKey)!;
      expect(created.params).toMatchObject({ capture_method: 'manual', payment_method: 'pm_card_visa', amount: '5399' });
      expect(created.params.confirm).toBeUndefined();
      expect(fake.intents.get(prepared.authorisationId)?.status).toBe('requires_confirmation');

      expect(await gw.confirmAuthorisation(prepared.authorisationId)).toMatchObject({ ok: true, amount: 5399, cardFingerprint: 'fp_pm_card_visa' });
      expect(await gw.confirmAuthorisation(prepared.authorisationId)).toMatchObject({ ok: true });
      expect(fake.requests.filter((r) => r.path === `/v1/payment_intents/${prepared.authorisationId}/confirm`)).toHaveLength(1);
      expect(fake.intents.get(prepared.authorisationId)?.status).toBe('requires_capture');

      const declining = await gw.prepareAuthorisation({ amountCents: 100, metadata: {}, idempotencyKey: key(), card: pm('pm_card_chargeDeclined') });
      if (!declining.ok) throw new Error('not prepared');
      expect(await gw.confirmAuthorisation(declining.authorisationId)).toMatchObject({ ok: false, code: 'card_declined' });
      expect(await gw.confirmAuthorisation(declining.authorisationId)).toMatchObject({ ok: false });

      const secure = await gw.prepareAuthorisation({ amountCents: 100, metadata: {}, idempotencyKey: key(), card: pm('pm_card_threeDSecure2Required') });
      if (!secure.ok) throw new Error('not prepared');
      const asked = await gw.confirmAuthorisation(secure.authorisationId);
      expect(asked).toMatchObject({ ok: 'requires_action', clientSecret: fake.intents.get(secure.authorisationId)!.client_secret });
      fake.authenticate(secure.authorisationId, 'complete');
      expect(await gw.confirmAuthorisation(secure.authorisationId)).toMatchObject({ ok: true });
    });
  },
  { env: fake.env() },
);
