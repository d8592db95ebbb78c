import { expect, test } from 'vitest';
import { createManualClock } from './lib/db-clock';
import { describeEachDb } from '../tests/support/build-test-app';
import { dropStatus } from '../tests/support/drops';
import { createProduct, readyShopper, startPayment } from '../tests/support/shop-fixtures';

// The boot check of ADR 010's "One clock": the app is built with a clock a year behind this machine's
// (and the database's), and every drop-day decision (release, waiting-room phase, pass required, hold
// expiry) follows it. A service that read Date.now() or SQL now() on its own would decide otherwise here.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const clock = createManualClock(Date.now() - 365 * DAY);

describeEachDb(
  'every drop-day decision reads the one clock',
  (t) => {
    test('release, the room, the pass and hold expiry follow the injected clock, not the machine’s', async () => {
      // Released long ago by this machine's clock, tomorrow by the shop's.
      const releaseAt = clock.now() + DAY;
      const id = await createProduct(t().database.db, { releaseAt: new Date(releaseAt), stock: 5 });
      t().services.catalog.invalidate();

      const early = t().client();
      const refused = await early.post('/api/cart', { productId: id, quantity: 1, selectedSize: 'M' });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().message).toMatch(/can't be bought yet/);
      expect((await dropStatus(early, id)).phase).toBe('not_open');

      // Inside the drop window by the shop's clock: the room is open and buying needs a pass.
      clock.set(releaseAt + MINUTE);
      expect((await dropStatus(early, id)).phase).toBe('open');
      expect((await early.post('/api/cart', { productId: id, quantity: 1, selectedSize: 'M' })).statusCode).toBe(403);

      // After the window (60 min): on sale to anyone, and a hold lasts HOLD_MINUTES (10) by the shop's clock.
      clock.set(releaseAt + 61 * MINUTE);
      expect((await dropStatus(early, id)).phase).toBe('ended');
      const shopper = await readyShopper(t(), id);
      await startPayment(shopper);
      expect(await t().services.checkout.releaseExpiredHolds()).toBe(0);
      clock.advance(9 * MINUTE);
      expect(await t().services.checkout.releaseExpiredHolds()).toBe(0);
      clock.advance(2 * MINUTE);
      expect(await t().services.checkout.releaseExpiredHolds()).toBe(1);
    });
  },
  { deps: { clock } },
);
