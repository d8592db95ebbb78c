import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { enterDraw, entrantsOf, linkTokenIn } from '../../../tests/support/draw-entrants';
import { createManualClock } from '../../lib/db-clock';
import type { MailMessage } from '../../lib/mailer';
import { offlineIntents } from '../payments/payments.tables';
import { drawEntries } from './draws.tables';

// 3-D Secure at confirmation (docs/draw.md), with the offline gateway on the real database: the entry records
// the card without asking the bank; the mailed link's confirmation asks it, the 3-D Secure test card answers
// `cardAction` (nothing held, still pending); the page plays the bank, then confirms again.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2032, 2, 1, 12);
const clock = createManualClock(T0);
const sent: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => void sent.push(m) };

const THREE_DS = { cardNumber: '4000 0027 6000 3184', expiry: '12/40', cvc: '123' };
const NOT_AUTHORISED = 'Your card could not be authorised. Try another card.';

const entrant = entrantsOf((n) => ({
  email: `secure${n}@example.com`,
  firstName: 'Grace',
  lastName: `Secure${n}`,
  shippingAddress: `${200 + n} Harbour Road`,
  card: { ...THREE_DS, expiry: `${String((n % 12) + 1).padStart(2, '0')}/41` },
}));
const enter = enterDraw;

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

/** A 3-D Secure card's entry and its first confirmation: pending, the bank's step asked for, nothing held. */
async function enterAndConfirm(t: TestApp, c: TestClient, drawId: string) {
  const body = entrant();
  const res = await enter(c, drawId, body);
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json()).toMatchObject({ status: 'pending' });
  const token = linkTokenIn(sent, body.email);
  const first = await c.post(`/api/draw-entries/${token}/confirm`);
  expect(first.statusCode, first.body).toBe(200);
  const view = first.json() as { status: string; cardAction: { clientSecret: string; authorisationId: string; message: string } };
  expect(view.status).toBe('pending');
  expect(view.cardAction).toEqual({
    clientSecret: expect.stringMatching(/^pi_offline_auth_[0-9a-f]{24}_secret_/),
    authorisationId: expect.stringMatching(/^pi_offline_auth_[0-9a-f]{24}$/),
    message: 'Your bank asks you to confirm this card.',
  });
  expect((await intent(t, view.cardAction.authorisationId))?.status).toBe('requires_action');
  return { token, body, action: view.cardAction };
}

describeEachDb(
  'the draw: 3-D Secure at confirmation',
  (t) => {
    test('a 3-D Secure card: the entry asks nothing of the bank; the confirmation asks for the bank step; once done, confirming again holds the card', async () => {
      const drawId = await openDraw(t());
      const c = t().client();
      const { token, action } = await enterAndConfirm(t(), c, drawId);
      const [entry] = await entriesOf(t(), drawId);
      expect(entry).toMatchObject({ status: 'pending', authorisationState: 'prepared', authorisationId: action.authorisationId });
      // The bank step (the offline gateway's stand-in), then the same link's confirmation again.
      expect((await authenticate(c, action.authorisationId, action.clientSecret, 'complete')).statusCode).toBe(200);
      const done = await c.post(`/api/draw-entries/${token}/confirm`);
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({ status: 'confirmed' });
      expect(done.json().cardAction).toBeUndefined();
      expect((await intent(t(), action.authorisationId))?.status).toBe('requires_capture');
      const [after] = await entriesOf(t(), drawId);
      expect(after).toMatchObject({ status: 'confirmed', authorisationState: 'authorised' });
      expect(after!.cardKey).not.toBeNull();
    });

    test('the bank step fails: the confirmation is 402 with the one message, nothing held; another card confirms the entry', async () => {
      const drawId = await openDraw(t());
      const c = t().client();
      const { token, action } = await enterAndConfirm(t(), c, drawId);
      expect((await authenticate(c, action.authorisationId, action.clientSecret, 'fail')).statusCode).toBe(402);
      const refused = await c.post(`/api/draw-entries/${token}/confirm`);
      expect(refused.statusCode).toBe(402);
      expect(refused.json()).toEqual({ message: NOT_AUTHORISED });
      expect((await intent(t(), action.authorisationId))?.status).toBe('canceled');
      expect((await c.get(`/api/draw-entries/${token}`)).json()).toMatchObject({ status: 'pending', cardFailed: true });
      // Another card on the same link.
      const other = await c.post(`/api/draw-entries/${token}/confirm`, {
        card: { cardNumber: '4242 4242 4242 4242', expiry: '11/41', cvc: '123' },
      });
      expect(other.statusCode, other.body).toBe(200);
      expect(other.json()).toMatchObject({ status: 'confirmed', cardFailed: false });
      const [entry] = await entriesOf(t(), drawId);
      expect(entry!.authorisationId).not.toBe(action.authorisationId);
      expect((await intent(t(), entry!.authorisationId))?.status).toBe('requires_capture');
    });

    test('confirmed again without the bank step: still pending, the same step asked for, nothing held', async () => {
      const drawId = await openDraw(t());
      const c = t().client();
      const { token, action } = await enterAndConfirm(t(), c, drawId);
      const again = await c.post(`/api/draw-entries/${token}/confirm`);
      expect(again.json()).toMatchObject({ status: 'pending', cardAction: { authorisationId: action.authorisationId } });
      expect((await intent(t(), action.authorisationId))?.status).toBe('requires_action');
    });

    test('an entry naming an authorisation instead of a card is refused (409), and a forged id is a 4xx, never a 500', async () => {
      const drawId = await openDraw(t());
      const c = t().client();
      const { card: _card, ...noCard } = entrant();
      const named = await enter(c, drawId, { ...noCard, authorisationId: 'pi_offline_auth_0123456789abcdef01234567' });
      expect(named.statusCode).toBe(409);
      expect(named.json()).toEqual({ message: 'This card check cannot be used for this entry. Please enter your card again.' });
      const forged = await enter(c, drawId, { ...noCard, authorisationId: 'not an id' });
      expect(forged.statusCode).toBe(400);
      expect(await entriesOf(t(), drawId)).toHaveLength(0);
    });
  },
  { deps: { mailer, clock } },
);
