import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, onTestFinished, test, vi } from 'vitest';
import { describeEachDb } from '../../tests/support/build-test-app';
import { createProduct, productState, readyShopper } from '../../tests/support/shop-fixtures';
import { createDbClock, createManualClock, createSteeredClock, shiftFromFile, type Clock } from './db-clock';

// The clock a test drives (docs/decisions/010-fair-waiting-room.md "One clock"): the app's `now()` and the
// statements' `sqlNow()` read the same instant, so a test moves both at once and no drop test has to sleep.

const DAY = 24 * 60 * 60_000;

describeEachDb(
  'clocks on the real database',
  (t) => {
    /** What PostgreSQL makes of `clock.sqlNow()`, in ms since the epoch. */
    async function sqlMs(clock: Clock): Promise<number> {
      const { rows } = await t().database.db.execute<{ ms: number | string }>(
        sql`select (extract(epoch from ${clock.sqlNow()}) * 1000)::float8 as ms`,
      );
      return Number(rows[0]!.ms);
    }

    test('a manual clock: now() and sqlNow() are the same instant, far from the real one, moved by set() and advance()', async () => {
      const start = Date.UTC(2031, 4, 17, 9, 30, 12, 345);
      const clock = createManualClock(start);
      expect(clock.now()).toBe(start);
      expect(await sqlMs(clock)).toBe(start);

      clock.advance(1_500);
      expect(clock.now()).toBe(start + 1_500);
      expect(await sqlMs(clock)).toBe(start + 1_500);

      clock.advance(-3 * DAY);
      expect(await sqlMs(clock)).toBe(start + 1_500 - 3 * DAY);

      clock.set(start - 7);
      expect(clock.now()).toBe(start - 7);
      expect(await sqlMs(clock)).toBe(start - 7);
    });

    test('a manual clock decides in SQL: comparisons and intervals see its instant, not the database time', async () => {
      const clock = createManualClock(Date.now() + 10 * DAY);
      const releaseAt = new Date(Date.now() + DAY).toISOString();
      const released = async () => {
        const { rows } = await t().database.db.execute<{ released: boolean }>(
          sql`select ${releaseAt}::timestamptz <= ${clock.sqlNow()} as released`,
        );
        return rows[0]!.released;
      };
      expect(await released()).toBe(true);
      clock.set(Date.now());
      expect(await released()).toBe(false);
      clock.advance(DAY);
      expect(await released()).toBe(true);

      const { rows } = await t().database.db.execute<{ ms: number | string }>(
        sql`select (extract(epoch from ${clock.sqlNow()} + interval '90 seconds') * 1000)::float8 as ms`,
      );
      expect(Number(rows[0]!.ms)).toBe(clock.now() + 90_000);
    });

    test('a steered clock (a browser test moving a spawned shop): the file moves now() and sqlNow() together; the base clock keeps its sync', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-clock-'));
      const file = path.join(dir, 'shift');
      try {
        const start = Date.UTC(2031, 4, 17, 9, 30, 12, 345);
        const base = createManualClock(start);
        const clock = createSteeredClock(base, shiftFromFile(file));
        // No file yet: the base clock's instant, and its own SQL.
        expect(clock.now()).toBe(start);
        expect(await sqlMs(clock)).toBe(start);
        fs.writeFileSync(file, '65000');
        expect(clock.now()).toBe(start + 65_000);
        expect(await sqlMs(clock)).toBe(start + 65_000);
        base.advance(1_000);
        expect(clock.now()).toBe(start + 66_000);
        expect(await sqlMs(clock)).toBe(start + 66_000);
        // Anything but whole ms counts as no shift (a half-written file never throws the clock far off).
        for (const junk of ['', '1.5', '12abc', '9'.repeat(16)]) {
          fs.writeFileSync(file, junk);
          expect(clock.now(), junk).toBe(start + 1_000);
        }
        const measured = createDbClock(t().database.db);
        const steered = createSteeredClock(measured, () => 3_600_000);
        await steered.sync();
        expect(steered.roundTripMs).toBe(measured.roundTripMs);
        expect(Math.abs(steered.now() - 3_600_000 - Date.now() - measured.offsetMs)).toBeLessThan(50);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    test("the database clock: now() is the app's clock corrected to PostgreSQL's, sqlNow() is PostgreSQL's now()", async () => {
      const skew = -5 * 60_000;
      const clock = createDbClock(t().database.db, { localNow: () => Date.now() + skew });
      await clock.sync();
      // Measured with a round trip on a local server: within a few hundred ms of the true offset.
      expect(Math.abs(clock.offsetMs + skew)).toBeLessThan(Math.max(250, clock.roundTripMs));
      const { rows } = await t().database.db.execute<{ ms: number | string }>(
        sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`,
      );
      expect(Math.abs(clock.now() - Number(rows[0]!.ms))).toBeLessThan(500);
      // The statement's now() is its transaction's start: no later than the server's clock after it.
      const before = Date.now();
      const db = await sqlMs(clock);
      expect(db).toBeGreaterThanOrEqual(before - 250);
      expect(db).toBeLessThanOrEqual(Date.now() + 250);
    });
  },
  { seed: false },
);

// The host's clock stepped back 90 s (NTP, a resumed VM, `date -s`) between two syncs of the database clock:
// a hold taken then still lasts its full HOLD_MINUTES by the database's clock. The shop's clock is steered
// (TEST_CLOCK_FILE) to a moment shortly before the hold's end, and the release job runs there.
const clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-clock-step-')), 'shift');
describeEachDb(
  'a backward step of the host clock',
  (t) => {
    afterAll(() => fs.rmSync(path.dirname(clockFile), { recursive: true, force: true }));
    test('a hold taken 90 s after the host clock stepped back lasts its full time: not released 30 s before its end, released after it', async () => {
      const productId = await createProduct(t().database.db, { stock: 3 });
      const shopper = await readyShopper(t(), productId);
      // The app synced its database clock at start; now the host's clock jumps back 90 s.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 90_000 });
      onTestFinished(() => void vi.useRealTimers());
      expect((await shopper.post('/api/create-payment-intent', {})).statusCode).toBe(200);
      const { rows } = await t().database.pool.query<{ left: number }>(
        `select extract(epoch from hold_expires_at - now())::float8 as left from checkouts where status = 'open'`,
      );
      const holdMs = t().config.HOLD_MINUTES * 60_000;
      // By the database's clock the hold ends HOLD_MINUTES from now (a round trip's error aside), not 90 s sooner.
      expect(rows.length).toBe(1);
      expect(Math.abs(rows[0]!.left * 1000 - holdMs)).toBeLessThan(5_000);
      const held = async () => (await productState(t().database.db, productId)).stock;
      expect(await held()).toBe(2);

      fs.writeFileSync(clockFile, String(holdMs - 30_000));
      await t().services.checkout.releaseExpiredHolds();
      expect(await held()).toBe(2);
      fs.writeFileSync(clockFile, String(holdMs + 5_000));
      await t().services.checkout.releaseExpiredHolds();
      expect(await held()).toBe(3);
    });
  },
  { env: { TEST_CLOCK_FILE: clockFile } },
);
