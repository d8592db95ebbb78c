import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb, type TestApp } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { solvePow } from '../../../tests/support/pow';
import { entrantsOf, linkTokenIn } from '../../../tests/support/draw-entrants';
import { createManualClock } from '../../lib/db-clock';
import type { MailMessage } from '../../lib/mailer';
import { publicDrawSchema, type PublicDraw } from '../../../common/contracts/draws';
import { verifyDraw } from '../../../scripts/verify-draw.mjs';
import { offlineIntents } from '../payments/payments.tables';
import { drawEntries, drawFairness } from './draws.tables';

// Fair over time (common/domain/draw-fairness.ts, docs/draw.md): draws in a row on the real database, the
// later one under the loyalty or the sit_out rule, recognising entrants by their folded mailbox.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2032, 2, 1, 12);
const clock = createManualClock(T0);
const sent: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => void sent.push(m) };

/** An entrant with this e-mail; street and card differ each time, so only the mailbox ties entries together. */
const person = entrantsOf((n) => ({
  shippingAddress: `${200 + n} Fair Street`,
  size: undefined,
  card: { cardNumber: '4242 4242 4242 4242', expiry: `${String((n % 12) + 1).padStart(2, '0')}/${50 + Math.floor(n / 12)}`, cvc: '123' },
}));
const entrant = (email: string) => person({ email });
const tokenOf = (email: string) => linkTokenIn(sent, email);

/**
 * One whole draw of a one-piece product from `at`: made (with `fairness`), entered and confirmed by each
 * e-mail, run and settled. Returns the public draw.
 */
async function runDraw(t: TestApp, at: number, emails: string[], fairness?: unknown): Promise<PublicDraw> {
  clock.set(at);
  const admin = await adminClient(t);
  const productId = await createProduct(t.database.db, { price: '30.00', stock: 1, sizes: [] });
  const made = await admin.post('/api/admin/draws', {
    productId,
    opensAt: new Date(at + HOUR).toISOString(),
    closesAt: new Date(at + DAY).toISOString(),
    drawAt: new Date(at + DAY + HOUR).toISOString(),
    ...(fairness ? { fairness } : {}),
  });
  expect(made.statusCode, made.body).toBe(201);
  const drawId = (made.json() as { id: string }).id;
  clock.set(at + 2 * HOUR);
  for (const email of emails) {
    const c = t.client();
    const altcha = await solvePow((await c.get('/api/pow-challenge')).json());
    const res = await c.post(`/api/draws/${drawId}/entries`, { ...entrant(email), altcha });
    expect(res.statusCode, res.body).toBe(202);
    clock.advance(1000);
    expect((await c.post(`/api/draw-entries/${tokenOf(email)}/confirm`)).statusCode).toBe(200);
  }
  clock.set(at + DAY + HOUR + 1);
  const run = await admin.post(`/api/admin/draws/${drawId}/run`);
  expect(run.statusCode, run.body).toBe(200);
  await t.services.drawFlows.settle.drain();
  return publicDrawSchema.parse((await t.client().get(`/api/draws/${drawId}`)).json());
}

async function entryRows(t: TestApp, drawId: string) {
  return t.database.db.select().from(drawEntries).where(eq(drawEntries.drawId, drawId));
}

describeEachDb(
  'the draw, fair over time',
  (t) => {
    test('the owner sets the rule when making or editing a scheduled draw; bad rules are a 400; it is public', async () => {
      clock.set(T0);
      const admin = await adminClient(t());
      const productId = await createProduct(t().database.db, { price: '30.00', stock: 1, sizes: [] });
      const times = {
        productId,
        opensAt: new Date(T0 + HOUR).toISOString(),
        closesAt: new Date(T0 + DAY).toISOString(),
        drawAt: new Date(T0 + DAY).toISOString(),
      };
      for (const fairness of [
        { rule: 'loyalty' },
        { rule: 'sit_out', lookback: null },
        { rule: 'loyalty', lookback: 6 },
        { rule: 'loyalty', lookback: 0 },
        { rule: 'loyalty', lookback: 1.5 },
        { rule: 'lottery', lookback: 2 },
      ]) {
        const res = await admin.post('/api/admin/draws', { ...times, fairness });
        expect(res.statusCode, JSON.stringify(fairness)).toBe(400);
        expect(typeof res.json().message).toBe('string');
      }
      const made = await admin.post('/api/admin/draws', times);
      expect(made.statusCode, made.body).toBe(201);
      const id = made.json().id as string;
      expect(made.json().fairness).toEqual({ rule: 'off', lookback: null });

      const patch = (payload: unknown) =>
        admin.request({
          method: 'PATCH',
          url: `/api/admin/draws/${id}`,
          payload: payload as Record<string, unknown>,
          headers: { 'content-type': 'application/json' },
        });
      const set = await patch({ fairness: { rule: 'loyalty', lookback: 2 } });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().fairness).toEqual({ rule: 'loyalty', lookback: 2 });
      expect((await t().client().get(`/api/draws/${id}`)).json().fairness).toEqual({
        rule: 'loyalty',
        lookback: 2,
      });
      // Off drops the look-back; a bad one changes nothing.
      expect((await patch({ fairness: { rule: 'off', lookback: 3 } })).json().fairness).toEqual({
        rule: 'off',
        lookback: null,
      });
      expect((await patch({ fairness: { rule: 'sit_out', lookback: 9 } })).statusCode).toBe(400);
      const [row] = await t().database.db.select().from(drawFairness).where(eq(drawFairness.drawId, id));
      expect(row).toMatchObject({ rule: 'off', lookback: null });
      // Once the window has opened the rule is fixed, like the schedule.
      clock.set(T0 + 2 * HOUR);
      expect((await patch({ fairness: { rule: 'sit_out', lookback: 1 } })).statusCode).toBe(409);
    });

    test('loyalty: the losers of one draw weigh 2 in the next, the winner and a newcomer 1; published and verified', async () => {
      const emails = ['lia@example.com', 'mo@example.com', 'noor@example.com'];
      const first = await runDraw(t(), T0 + 10 * DAY, emails);
      expect(first.fairness).toEqual({ rule: 'off', lookback: null });
      expect(first.entries.map((e) => e.weight)).toEqual([1, 1, 1]);
      const firstRows = await entryRows(t(), first.id);
      const winner = firstRows.find((r) => r.status === 'won')!;
      const losers = firstRows.filter((r) => r.status === 'lost').map((r) => r.email);
      expect(losers).toHaveLength(2);

      const second = await runDraw(t(), T0 + 13 * DAY, [...emails, 'newcomer@example.com'], {
        rule: 'loyalty',
        lookback: 2,
      });
      expect(second.fairness).toEqual({ rule: 'loyalty', lookback: 2 });
      const rows = await entryRows(t(), second.id);
      const weightOf = (email: string) => rows.find((r) => r.email === email)!.weight;
      for (const email of losers) expect(weightOf(email), email).toBe(2);
      expect(weightOf(winner.email)).toBe(1);
      expect(weightOf('newcomer@example.com')).toBe(1);
      // The published list carries the stored weights, and the independent verifier recomputes the order from it.
      const published = new Map(second.entries.map((e) => [e.publicId, e.weight]));
      for (const r of rows) expect(published.get(r.publicId), r.email).toBe(r.weight);
      expect([...published.values()].sort()).toEqual([1, 1, 2, 2]);
      expect(verifyDraw(second)).toEqual([]);
    });

    test('sit_out: the winner of the last draw is removed before the next, the reason recorded; the rest verify', async () => {
      const emails = ['oona@example.com', 'pim@example.com', 'quin@example.com'];
      const first = await runDraw(t(), T0 + 20 * DAY, emails);
      const winner = (await entryRows(t(), first.id)).find((r) => r.status === 'won')!;

      sent.length = 0;
      const second = await runDraw(t(), T0 + 23 * DAY, [...emails, 'rue@example.com'], {
        rule: 'sit_out',
        lookback: 1,
      });
      const rows = await entryRows(t(), second.id);
      const out = rows.find((r) => r.email === winner.email)!;
      expect(out).toMatchObject({
        status: 'removed',
        rank: null,
        duplicateOf: null,
        authorisationState: 'voided',
      });
      expect(out.removedReason).toMatch(/won the last draw here.*recent winners sit out/);
      expect(
        await t()
          .database.db.select({ s: offlineIntents.status })
          .from(offlineIntents)
          .where(eq(offlineIntents.id, out.authorisationId)),
      ).toEqual([{ s: 'canceled' }]);
      expect(second.entries.map((e) => e.publicId)).not.toContain(out.publicId);
      expect(second.entries).toHaveLength(3);
      expect(second).toMatchObject({ removedRecentWinners: 1, removedDuplicates: 0, entryCount: 3 });
      expect(second.entries.every((e) => e.weight === 1)).toBe(true);
      expect(second.winners).toHaveLength(1);
      expect(verifyDraw(second)).toEqual([]);
      expect(
        sent.filter((m) => m.to === winner.email && /recent winners sit this one out/.test(m.subject)),
      ).toHaveLength(1);
      // Everyone else who lost the first draw took part.
      for (const r of rows.filter((r) => r.email !== winner.email)) expect(r.rank, r.email).not.toBeNull();
    });
  },
  { deps: { mailer, clock } },
);
