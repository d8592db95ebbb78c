import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { enterDraw, entrantsOf } from '../../../tests/support/draw-entrants';
import { createManualClock } from '../../lib/db-clock';
import type { MailMessage } from '../../lib/mailer';
import type { EnterDrawBody } from '../../../common/contracts/draws';
import { offlineIntents } from '../payments/payments.tables';
import { drawEntries } from './draws.tables';

// 3-D Secure at entry (docs/draw.md), with the offline gateway on the real database: the 3-D Secure test card
// answers requires_action and nothing is recorded; the page plays the bank, then sends the entry again with
// the authorisation, which counts only for its own draw, its own total and one entry.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2032, 2, 1, 12);
const clock = createManualClock(T0);
const sent: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => void sent.push(m) };

const THREE_DS = { cardNumber: '4000 0027 6000 3184', expiry: '12/40', cvc: '123' };
const AUTH_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

const entrant = entrantsOf((n) => ({
  email: `secure${n}@example.com`,
  firstName: 'Grace',
  lastName: `Secure${n}`,
  shippingAddress: `${200 + n} Harbour Road`,
  card: { ...THREE_DS, expiry: `${String((n % 12) + 1).padStart(2, '0')}/41` },
}));
const enter = enterDraw;

/** The page's second send: the same details, no card, the authorisation (a fresh proof of work). */
function again(body: Omit<EnterDrawBody, 'altcha'>, authorisationId: string): Omit<EnterDrawBody, 'altcha'> {
  return { ...body, card: undefined, authorisationId };
}

const authenticate = (c: TestClient, id: string, clientSecret: string, outcome: string) =>
  c.post(`/api/payments/offline/authorisations/${id}/authenticate`, { clientSecret, outcome });

const intent = async (t: TestApp, id: string) =>
  (await t.database.db.select().from(offlineIntents).where(eq(offlineIntents.id, id)))[0];

const entriesOf = (t: TestApp, drawId: string) =>
  t.database.db.select().from(drawEntries).where(eq(drawEntries.drawId, drawId));

async function openDraw(t: TestApp, price = '45.00') {
  const admin = await adminClient(t);
  const productId = await createProduct(t.database.db, { price, stock: 3, sizes: ['S', 'M', 'L'] });
  clock.set(T0);
  const res = await admin.post('/api/admin/draws', {
    productId,
    opensAt: new Date(T0 + HOUR).toISOString(),
    closesAt: new Date(T0 + 2 * DAY).toISOString(),
    drawAt: new Date(T0 + 2 * DAY + HOUR).toISOString(),
  });
  expect(res.statusCode, res.body).toBe(201);
  clock.set(T0 + 2 * HOUR);
  return (res.json() as { id: string }).id;
}

/** A 3-D Secure entry's first send: 202 requires_action, nothing recorded. */
async function startEntry(t: TestApp, c: TestClient, drawId: string, body: Omit<EnterDrawBody, 'altcha'>) {
  const res = await enter(c, drawId, body);
  expect(res.statusCode, res.body).toBe(202);
  const answer = res.json() as {
    status: string;
    clientSecret: string;
    authorisationId: string;
    message: string;
  };
  expect(answer).toEqual({
    status: 'requires_action',
    clientSecret: expect.stringMatching(/^pi_offline_auth_[0-9a-f]{24}_secret_/),
    authorisationId: expect.stringMatching(/^pi_offline_auth_[0-9a-f]{24}$/),
    message: 'Your bank asks you to confirm this card.',
  });
  return answer;
}

describeEachDb(
  'the draw: 3-D Secure at entry (offline gateway)',
  (t) => {
    test('a 3-D Secure card: 202 requires_action and no entry; the bank step completes; the second send records the entry and mails the link', async () => {
      const drawId = await openDraw(t());
      const c = t().client();
      const body = entrant();
      const mailsBefore = sent.length;
      const first = await startEntry(t(), c, drawId, body);
      expect(await entriesOf(t(), drawId)).toHaveLength(0);
      expect(sent.length).toBe(mailsBefore);
      expect(await intent(t(), first.authorisationId)).toMatchObject({
        status: 'requires_action',
        amount: 5399,
      });

      // Only the holder of the secret plays the bank; a malformed id or outcome is a 400.
      expect(
        (await authenticate(t().client(), first.authorisationId, 'pi_offline_auth_x_secret_y', 'complete'))
          .statusCode,
      ).toBe(404);
      expect((await authenticate(c, 'pi_nope', first.clientSecret, 'complete')).statusCode).toBe(400);
      expect((await authenticate(c, first.authorisationId, first.clientSecret, 'maybe')).statusCode).toBe(
        400,
      );
      expect(await intent(t(), first.authorisationId)).toMatchObject({ status: 'requires_action' });

      const done = await authenticate(c, first.authorisationId, first.clientSecret, 'complete');
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toEqual({ id: first.authorisationId, status: 'requires_capture' });

      const second = await enter(c, drawId, again(body, first.authorisationId));
      expect(second.statusCode, second.body).toBe(202);
      expect(second.json()).toMatchObject({
        status: 'pending',
        message: expect.stringMatching(/Check your e-mail/),
      });
      const [entry] = await entriesOf(t(), drawId);
      expect(entry).toMatchObject({
        status: 'pending',
        authorisationId: first.authorisationId,
        authorisationState: 'authorised',
        amountCents: 5399,
        email: body.email,
      });
      // The entry's public id is the one the authorisation was made for; the card counts for one-per-person.
      const held = await intent(t(), first.authorisationId);
      expect(held?.metadata).toMatchObject({ drawId, drawEntry: entry!.publicId });
      expect(second.json().publicId).toBe(entry!.publicId);
      expect(entry!.cardKey).toMatch(/.+/);
      expect(held?.status).toBe('requires_capture');
      expect(
        sent.filter((m) => m.to === body.email && m.subject.startsWith('Confirm your entry')),
      ).toHaveLength(1);

      // The same authorisation for a second entry (another person): refused, and the first entry's hold stays.
      const thief = await enter(t().client(), drawId, again(entrant(), first.authorisationId));
      expect(thief.statusCode).toBe(409);
      expect(thief.json()).toEqual({
        message: 'This card check cannot be used for this entry. Please enter your card again.',
      });
      // The same person sending it twice: already entered; the hold stays too.
      const twice = await enter(c, drawId, again(body, first.authorisationId));
      expect(twice.statusCode).toBe(409);
      expect(await entriesOf(t(), drawId)).toHaveLength(1);
      expect(await intent(t(), first.authorisationId)).toMatchObject({ status: 'requires_capture' });
    });

    test('the bank step fails: 402 from the bank, the second send is 402 too, and nothing is recorded or held', async () => {
      const drawId = await openDraw(t());
      const c = t().client();
      const body = entrant();
      const first = await startEntry(t(), c, drawId, body);
      const failed = await authenticate(c, first.authorisationId, first.clientSecret, 'fail');
      expect(failed.statusCode).toBe(402);
      expect(failed.json()).toEqual({ message: AUTH_FAILED });
      // The first answer stands.
      expect((await authenticate(c, first.authorisationId, first.clientSecret, 'complete')).statusCode).toBe(
        402,
      );

      const second = await enter(c, drawId, again(body, first.authorisationId));
      expect(second.statusCode).toBe(402);
      expect(second.json()).toEqual({
        message: 'Your bank did not confirm this card, so nothing is held. Please try another card.',
      });
      expect(await entriesOf(t(), drawId)).toHaveLength(0);
      expect(await intent(t(), first.authorisationId)).toMatchObject({ status: 'canceled' });

      // Another card then works at once (no dead end).
      const other = await enter(c, drawId, {
        ...body,
        card: { cardNumber: '4242424242424242', expiry: '12/40', cvc: '123' },
      });
      expect(other.statusCode, other.body).toBe(202);
      expect(other.json()).toMatchObject({ status: 'pending' });
    });

    test('sent again without the bank step: 402 and the waiting hold is released', async () => {
      const drawId = await openDraw(t());
      const c = t().client();
      const body = entrant();
      const first = await startEntry(t(), c, drawId, body);
      const second = await enter(c, drawId, again(body, first.authorisationId));
      expect(second.statusCode).toBe(402);
      expect(second.json().message).toMatch(/has not confirmed this card yet/);
      expect(await entriesOf(t(), drawId)).toHaveLength(0);
      expect(await intent(t(), first.authorisationId)).toMatchObject({ status: 'canceled' });
    });

    test('an authorisation counts only for its own draw and its own total: another draw is refused (its hold untouched), another amount is refused (released)', async () => {
      const drawA = await openDraw(t());
      const drawB = await openDraw(t());
      const c = t().client();
      const body = entrant();
      const first = await startEntry(t(), c, drawA, body);
      expect((await authenticate(c, first.authorisationId, first.clientSecret, 'complete')).statusCode).toBe(
        200,
      );

      const elsewhere = await enter(c, drawB, again(body, first.authorisationId));
      expect(elsewhere.statusCode).toBe(409);
      expect(elsewhere.json().message).toBe(
        'This card check cannot be used for this entry. Please enter your card again.',
      );
      expect(await entriesOf(t(), drawB)).toHaveLength(0);
      expect(await intent(t(), first.authorisationId)).toMatchObject({ status: 'requires_capture' });

      // Express shipping: another total than the one the bank confirmed.
      const dearer = await enter(
        c,
        drawA,
        again({ ...body, shippingMethod: 'express' }, first.authorisationId),
      );
      expect(dearer.statusCode).toBe(409);
      expect(dearer.json().message).toBe(
        'Your total changed after your bank confirmed the card. Please enter the draw again.',
      );
      expect(await entriesOf(t(), drawA)).toHaveLength(0);
      expect(await intent(t(), first.authorisationId)).toMatchObject({ status: 'canceled' });
      // Released: it cannot be used afterwards either.
      expect((await enter(c, drawA, again(body, first.authorisationId))).statusCode).toBe(409);
    });

    test('a forged or foreign authorisation id is a 4xx, never a 500', async () => {
      const drawId = await openDraw(t());
      const c = t().client();
      const body = entrant();
      // A checkout's payment intent (no draw in its metadata) and ids the gateway never made.
      const checkoutIntent = await t().services.gateway.createIntent({
        amountCents: 5399,
        metadata: { checkoutId: 'c1' },
        idempotencyKey: `3ds-test-${process.pid}`,
      });
      for (const id of [checkoutIntent.id, 'pi_offline_auth_000000000000000000000000', 'pi_3AbCdEf']) {
        const res = await enter(c, drawId, again(body, id));
        expect(res.statusCode, `${id}: ${res.body}`).toBe(409);
      }
      for (const id of ['not-an-id', 'pi_../../x', `pi_${'a'.repeat(300)}`]) {
        const res = await enter(c, drawId, again(body, id));
        expect(res.statusCode, `${id}: ${res.body}`).toBe(400);
      }
      expect(await entriesOf(t(), drawId)).toHaveLength(0);
      expect(await intent(t(), checkoutIntent.id)).toMatchObject({ status: 'requires_payment_method' });
    });
  },
  { deps: { mailer, clock } },
);
