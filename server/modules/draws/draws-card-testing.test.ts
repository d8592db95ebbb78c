import { eq, inArray } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { entrantsOf, linkTokenIn, type EntrantBody } from '../../../tests/support/draw-entrants';
import { solvePow } from '../../../tests/support/pow';
import { createManualClock } from '../../lib/db-clock';
import type { MailMessage } from '../../lib/mailer';
import { offlineIntents } from '../payments/payments.tables';
import { drawEntries } from './draws.tables';

// Card testing through the draw (docs/security.md, "Card testing"): entries from one address with fresh
// mailboxes and stolen-looking cards. The bank is asked only once a mailbox is confirmed, every decline reads
// the same, and a few declines per address, session and card are allowed before 429.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2033, 5, 1, 12);
const clock = createManualClock(T0);
const sent: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => void sent.push(m) };

const NOT_AUTHORISED = 'Your card could not be authorised. Try another card.';
/** Stripe's test cards for each reason a bank gives (declined, funds, lost, stolen, expired, CVC, processing) and a bad number. */
const DECLINING = [
  '4000 0000 0000 0002',
  '4000 0000 0000 9995',
  '4000 0000 0000 9987',
  '4000 0000 0000 9979',
  '4000 0000 0000 0069',
  '4000 0000 0000 0127',
  '4000 0000 0000 0119',
  '4000 0000 0000 0001',
];
const TESTER = '203.0.113.7';

const entrant = entrantsOf((n) => ({
  email: `fresh${n}@mailbox${n}.example`,
  shippingAddress: `${300 + n} Tester Lane`,
  card: { cardNumber: DECLINING[n % DECLINING.length]!, expiry: `${String((n % 12) + 1).padStart(2, '0')}/42`, cvc: '123' },
}));

/** An entry sent from `ip` (each with its own proof of work, as the route needs). */
async function enterFrom(c: TestClient, ip: string, drawId: string, body: EntrantBody) {
  const challenge = await c.request({ method: 'GET', url: '/api/pow-challenge', remoteAddress: ip });
  return c.request({
    method: 'POST',
    url: `/api/draws/${drawId}/entries`,
    payload: { ...body, altcha: await solvePow(challenge.json()) },
    headers: { 'content-type': 'application/json' },
    remoteAddress: ip,
  });
}

const confirmFrom = (c: TestClient, ip: string, token: string, payload: object = {}) =>
  c.request({
    method: 'POST',
    url: `/api/draw-entries/${token}/confirm`,
    payload,
    headers: { 'content-type': 'application/json' },
    remoteAddress: ip,
  });

async function openDraw(t: TestApp) {
  const admin = await adminClient(t);
  const productId = await createProduct(t.database.db, { price: '45.00', stock: 2, sizes: ['S', 'M', 'L'] });
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

const intentsOf = async (t: TestApp, ids: string[]) =>
  t.database.db.select().from(offlineIntents).where(inArray(offlineIntents.id, ids));

describeEachDb(
  'the draw: no card testing',
  (t) => {
    test('24 entries from one address with fresh mailboxes and declining cards: no authorisation before confirmation, one message for every decline, the 4th decline in 10 minutes is 429', async () => {
      const drawId = await openDraw(t());
      const bodies = Array.from({ length: 24 }, () => entrant());
      const answers = [];
      for (const body of bodies) answers.push(await enterFrom(t().client(), TESTER, drawId, body));

      // Every entry reads the same (202, pending): nothing about its card.
      expect(answers.map((a) => a.statusCode)).toEqual(Array(24).fill(202));
      expect(new Set(answers.map((a) => JSON.stringify({ ...a.json(), publicId: '' }))).size).toBe(1);
      // Not one card reached the "bank": every intent waits for its confirmation, nothing is held or declined.
      const entries = await t().database.db.select().from(drawEntries).where(eq(drawEntries.drawId, drawId));
      expect(entries).toHaveLength(24);
      const before = await intentsOf(t(), entries.map((e) => e.authorisationId));
      expect(before.map((i) => i.status)).toEqual(Array(24).fill('requires_confirmation'));

      // The tester follows every link (they own the mailboxes), from the same address.
      const confirmations = [];
      for (const body of bodies) confirmations.push(await confirmFrom(t().client(), TESTER, linkTokenIn(sent, body.email)));
      const declined = confirmations.filter((r) => r.statusCode === 402);
      expect(declined).toHaveLength(3);
      // Declined, insufficient funds, lost: the same words each time.
      expect(new Set(declined.map((r) => r.body))).toEqual(new Set([JSON.stringify({ message: NOT_AUTHORISED })]));
      // The 4th and every later one: 429 with Retry-After, before the bank is asked.
      expect(confirmations.slice(0, 3).map((r) => r.statusCode)).toEqual([402, 402, 402]);
      const limited = confirmations.slice(3);
      expect(limited.map((r) => r.statusCode)).toEqual(Array(21).fill(429));
      for (const r of limited) {
        const retryAfter = Number(r.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(600);
        expect(r.json()).toEqual({ message: `Too many cards could not be authorised. Please try again in ${retryAfter} seconds.` });
      }
      const after = await intentsOf(t(), entries.map((e) => e.authorisationId));
      expect(after.filter((i) => i.status !== 'requires_confirmation')).toHaveLength(3);
      // A new entry from that address waits too.
      const more = await enterFrom(t().client(), TESTER, drawId, entrant());
      expect(more.statusCode).toBe(429);
      expect(more.headers['retry-after']).toMatch(/^\d+$/);
    });

    test('every reason a bank gives (declined, funds, lost, stolen, expired, CVC, processing, a bad number) reads the same', async () => {
      const drawId = await openDraw(t());
      const answers = [];
      for (const [i, cardNumber] of DECLINING.entries()) {
        const body = entrant({ card: { cardNumber, expiry: '10/44', cvc: '123' } });
        const ip = `198.18.0.${10 + i}`;
        expect((await enterFrom(t().client(), ip, drawId, body)).statusCode).toBe(202);
        answers.push(await confirmFrom(t().client(), ip, linkTokenIn(sent, body.email)));
      }
      expect(answers.map((a) => a.statusCode)).toEqual(Array(DECLINING.length).fill(402));
      expect(new Set(answers.map((a) => a.body))).toEqual(new Set([JSON.stringify({ message: NOT_AUTHORISED })]));
    });

    test('the budget follows the card and the session too, and a shopper elsewhere still enters, confirms and is held', async () => {
      const drawId = await openDraw(t());
      // One declining card from three addresses, then a fourth: the card's budget is spent.
      const card = { cardNumber: '4000 0000 0000 9995', expiry: '07/43', cvc: '123' };
      for (let i = 0; i < 4; i++) {
        const body = entrant({ card });
        const ip = `198.51.100.${10 + i}`;
        expect((await enterFrom(t().client(), ip, drawId, body)).statusCode).toBe(202);
        const res = await confirmFrom(t().client(), ip, linkTokenIn(sent, body.email));
        expect(res.statusCode).toBe(i < 3 ? 402 : 429);
      }
      // One browser session across addresses: its budget is spent after 3 declines.
      const browser = t().client();
      const saved = await browser.post('/api/wishlist', { productId: await createProduct(t().database.db, { price: '10.00', stock: 1 }) });
      expect(saved.statusCode, saved.body).toBeLessThan(300);
      expect(browser.cookies.size).toBeGreaterThan(0);
      for (let i = 0; i < 4; i++) {
        const body = entrant();
        const ip = `192.0.2.${20 + i}`;
        const entered = await enterFrom(browser, ip, drawId, body);
        expect(entered.statusCode).toBe(i < 3 ? 202 : 429);
        if (i < 3) expect((await confirmFrom(browser, ip, linkTokenIn(sent, body.email))).statusCode).toBe(402);
      }

      // Someone else, elsewhere, with a good card: entered, confirmed, held.
      const good = entrant({ card: { cardNumber: '4242 4242 4242 4242', expiry: '09/44', cvc: '123' } });
      expect((await enterFrom(t().client(), '192.0.2.200', drawId, good)).statusCode).toBe(202);
      const ok = await confirmFrom(t().client(), '192.0.2.200', linkTokenIn(sent, good.email));
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ status: 'confirmed' });
      const [row] = await t()
        .database.db.select()
        .from(drawEntries)
        .where(eq(drawEntries.email, good.email));
      expect(row).toMatchObject({ status: 'confirmed', authorisationState: 'authorised' });
      expect((await intentsOf(t(), [row!.authorisationId]))[0]?.status).toBe('requires_capture');
    });
  },
  { deps: { mailer, clock } },
);
