import { eq, sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/client';
import { createManualClock } from '../../lib/db-clock';
import { buildTestApp, describeEachDb, TestClient, type TestApp } from '../../../tests/support/build-test-app';
import { createDrop, dropStatus, joinDrop } from '../../../tests/support/drops';
import { customer } from '../../../tests/support/shop-fixtures';
import { checkouts } from '../checkout/checkout.tables';
import { dropQueue, drops } from './drops.tables';

// One clock for drop-day decisions, admission at any rate, admission that matches what can be bought (ADR 010).

const SECRET = 'test-session-secret-test-session-secret-0123';
const MINUTE = 60_000;

async function fillQueue(t: TestApp, productId: string, n: number): Promise<void> {
  await t.database.db.insert(dropQueue).values(
    Array.from({ length: n }, (_, i) => ({ productId, sessionId: `q-${i}`, addressKey: `addr-${i}`, raffle: false, lotteryKey: Math.random() })),
  );
}

async function counts(t: TestApp, productId: string, nowMs: number, passMs: number): Promise<{ admitted: number; live: number }> {
  const [row] = await t.database.db
    .select({
      admitted: sql<number>`(count(*) filter (where ${dropQueue.status} = 'admitted'))::int`,
      live: sql<number>`(count(*) filter (where ${dropQueue.status} = 'admitted' and ${dropQueue.admittedAt} > ${new Date(nowMs - passMs).toISOString()}::timestamptz))::int`,
    })
    .from(dropQueue)
    .where(eq(dropQueue.productId, productId));
  return row!;
}

async function setDrop(t: TestApp, productId: string, change: Partial<typeof drops.$inferInsert>) {
  await t.database.db.insert(drops).values({ productId }).onConflictDoNothing();
  await t.database.db.update(drops).set(change).where(eq(drops.productId, productId));
}

test('two instances whose clocks are 60 s behind and 60 s ahead: no admitted shopper is refused, no hold is released early', async () => {
  // A 30 s hold: an instance trusting its own clock 60 s ahead would release it at once.
  const a = await buildTestApp({ env: { TEST_CLOCK_OFFSET_MS: String(-MINUTE), HOLD_MINUTES: '0.5', POW_TRIES: '2' } });
  const database2 = await openDatabase({ databaseUrl: a.config.DATABASE_URL!, poolSize: 5 });
  const b = await buildApp({ ...a.config, TEST_CLOCK_OFFSET_MS: MINUTE }, { database: database2, sessionSecret: SECRET, logger: false });
  await b.ready();
  try {
    const id = await createDrop(a, 1500, { stock: 20 });
    b.services.catalog.invalidate();
    // Shoppers join in the raffle, half through each instance; each later talks to both.
    const shoppers = Array.from({ length: 8 }, () => {
      const onA = a.client();
      const onB = new TestClient(b);
      onB.cookies = onA.cookies;
      return { onA, onB };
    });
    for (const [i, s] of shoppers.entries()) {
      const res = await joinDrop(i % 2 ? s.onB : s.onA, id, { ip: `198.51.100.${i + 1}` });
      expect(res.statusCode, res.body).toBe(201);
    }
    await expect
      .poll(async () => {
        await Promise.all([a.services.drops.tick(), b.services.drops.tick()]);
        const states = await Promise.all(shoppers.map((s) => dropStatus(s.onA, id)));
        return states.filter((st) => st.ticket?.status === 'admitted').length;
      }, { timeout: 15_000, interval: 200 })
      .toBe(8);

    let refused = 0;
    for (const [i, s] of shoppers.entries()) {
      const [passOn, addOn, payOn] = i % 2 ? [s.onA, s.onB, s.onA] : [s.onB, s.onA, s.onB];
      expect((await passOn.post(`/api/drops/${id}/pass`)).statusCode).toBe(200);
      const add = await addOn.post('/api/cart', { productId: id, quantity: 1 });
      if (add.statusCode !== 200) refused++;
      expect((await payOn.post('/api/customer-info', customer())).statusCode).toBe(200);
      const pay = await payOn.post('/api/create-payment-intent', {});
      if (pay.statusCode !== 200) refused++;
    }
    expect(refused).toBe(0);

    // Both instances run hold expiry now: the 30 s holds are still young by the database's clock.
    expect(await b.services.checkout.releaseExpiredHolds()).toBe(0);
    expect(await a.services.checkout.releaseExpiredHolds()).toBe(0);
    const open = await a.database.db.select({ n: sql<number>`count(*)::int` }).from(checkouts).where(eq(checkouts.status, 'open'));
    expect(open[0]!.n).toBe(8);
  } finally {
    await b.close();
    await database2.close();
    await a.close();
  }
}, 60_000);

const clock = createManualClock(Date.now());

describeEachDb(
  'waiting room on a clock the test moves',
  (t) => {
    afterAll(() => undefined);

    test('6 a minute lets one shopper in every 10 s, 1 a minute one every 60 s; the estimate is from the real rate', async () => {
      for (const [rate, every] of [
        [6, 10_000],
        [1, 60_000],
      ] as const) {
        const id = await createDrop(t(), clock.now() - Date.now() - 1000, { stock: 20 });
        await fillQueue(t(), id, 5);
        await setDrop(t(), id, { admitPerMinute: rate, admittedAt: new Date(clock.now()) });
        const start = clock.now();
        const admittedAt: number[] = [];
        let before = 0;
        for (let s = 1; s <= (3 * every) / 1000; s++) {
          clock.set(start + s * 1000);
          await t().services.drops.tick();
          const { admitted } = await counts(t(), id, clock.now(), 10 * MINUTE);
          for (let k = before; k < admitted; k++) admittedAt.push(s * 1000);
          before = admitted;
        }
        expect(admittedAt).toEqual([every, 2 * every, 3 * every]);
        const waiting = await t().services.drops.status(id, 'q-3');
        expect(waiting.ticket).toMatchObject({ status: 'waiting', position: 1, estimatedWaitSeconds: every / 1000 });
      }
    });

    test('300 shoppers for 50 pieces: live admissions never exceed 50 × 1.2; lapsed passes top up the line', async () => {
      const passMs = t().config.DROP_PASS_MINUTES * MINUTE;
      const id = await createDrop(t(), clock.now() - Date.now() - 1000, { stock: 50 });
      await fillQueue(t(), id, 300);
      await setDrop(t(), id, { admitPerMinute: 6000, admittedAt: new Date(clock.now()) });
      let most = 0;
      const step = async (ms: number) => {
        clock.advance(ms);
        await t().services.drops.tick();
        const c = await counts(t(), id, clock.now(), passMs);
        most = Math.max(most, c.live);
        return c;
      };
      for (let i = 0; i < 30; i++) await step(200);
      expect(most).toBe(60);
      expect((await counts(t(), id, clock.now(), passMs)).admitted).toBe(60);
      // The 61st in line waits for a pass to lapse: the estimate says when, not "less than a minute".
      const next = await t().services.drops.status(id, 'q-60');
      expect(next.ticket?.position).toBe(1);
      expect(next.ticket!.estimatedWaitSeconds!).toBeGreaterThan(passMs / 1000 - 30);

      // Every pass lapses unused: the line is topped up to the cap again, never past it.
      clock.advance(passMs);
      for (let i = 0; i < 30; i++) await step(200);
      expect(most).toBe(60);
      const after = await counts(t(), id, clock.now(), passMs);
      expect(after).toEqual({ admitted: 120, live: 60 });
    });
  },
  { deps: { clock } },
);
