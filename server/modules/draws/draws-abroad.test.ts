import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { enterDraw, entrantsOf, linkTokenIn } from '../../../tests/support/draw-entrants';
import { createManualClock } from '../../lib/db-clock';
import type { MailMessage } from '../../lib/mailer';
import { orders } from '../orders/orders.tables';
import { drawEntries } from './draws.tables';

// A draw entry from abroad (docs/decisions/023-international-addresses.md): the address is judged by its
// country's rules at the door, and a winner's order ships to that country at the international rate.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2031, 4, 1, 12);
const clock = createManualClock(T0);
const sent: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => void sent.push(m) };
const entrant = entrantsOf();

const london = {
  shippingAddress: '12 Brick Lane',
  shippingCity: 'London',
  shippingState: '',
  shippingZip: 'e16rf',
  shippingCountry: 'GB',
};

async function createDraw(t: TestApp, admin: TestClient, productId: string) {
  clock.set(T0);
  const res = await admin.post('/api/admin/draws', {
    productId,
    opensAt: new Date(T0 + HOUR).toISOString(),
    closesAt: new Date(T0 + 2 * DAY).toISOString(),
    drawAt: new Date(T0 + 2 * DAY + HOUR).toISOString(),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

describeEachDb(
  'a draw entry from abroad',
  (t) => {
    test("an address its country would refuse is 400 with the field's message, and no entry is kept", async () => {
      const admin = await adminClient(t());
      const productId = await createProduct(t().database.db, { price: '45.00', stock: 1, sizes: ['M'] });
      const draw = await createDraw(t(), admin, productId);
      clock.set(T0 + 2 * HOUR);
      const cases: Array<[Record<string, string>, string]> = [
        [{ shippingCountry: 'ZZ' }, 'Please choose a country we ship to'],
        [{ ...london, shippingZip: '75011' }, 'This postcode does not look like a UK postcode'],
        [{ ...london, shippingCity: '' }, 'Town/City is required'],
        // The London address sent without its country is a US address, and not a valid one.
        [{ ...london, shippingCountry: 'US' }, 'State is required'],
      ];
      for (const [address, message] of cases) {
        const res = await enterDraw(t().client(), draw.id, entrant({ ...address }));
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual({ message });
      }
      const kept = await t().database.db.select().from(drawEntries).where(eq(drawEntries.drawId, draw.id));
      expect(kept).toEqual([]);
    });

    test("a London winner's order ships to London at the international rate, postcode in its canonical form", async () => {
      const db = t().database.db;
      const admin = await adminClient(t());
      const productId = await createProduct(db, { price: '80.00', stock: 1, sizes: ['M'] });
      const draw = await createDraw(t(), admin, productId);
      clock.set(T0 + 2 * HOUR);
      sent.length = 0;
      const ann = entrant({ email: 'ann@example.co.uk', size: 'M', ...london, shippingMethod: 'express' });
      const entered = await enterDraw(t().client(), draw.id, ann);
      expect(entered.statusCode, entered.body).toBe(202);
      const confirm = await t()
        .client()
        .post(`/api/draw-entries/${linkTokenIn(sent, ann.email)}/confirm`);
      expect(confirm.statusCode, confirm.body).toBe(200);
      const [entry] = await db.select().from(drawEntries).where(eq(drawEntries.drawId, draw.id));
      // Over the free-shipping threshold, but abroad: the international rate is paid.
      expect(entry).toMatchObject({
        shippingCountry: 'GB',
        shippingZip: 'E1 6RF',
        shippingMethod: 'international',
        shippingCents: 2499,
        amountCents: 8000 + 2499,
      });

      clock.set(T0 + 2 * DAY + HOUR + 1);
      const run = await admin.post(`/api/admin/draws/${draw.id}/run`);
      expect(run.statusCode, run.body).toBe(200);
      await t().services.drawFlows.settle.drain();
      const [order] = await db.select().from(orders).where(eq(orders.customerEmail, ann.email));
      expect(order).toMatchObject({
        shippingAddress: '12 Brick Lane',
        shippingCity: 'London',
        shippingZip: 'E1 6RF',
        shippingCountry: 'GB',
        shippingMethod: 'international',
        shippingCents: 2499,
        totalCents: 10499,
      });
    });
  },
  { deps: { mailer, clock } },
);
