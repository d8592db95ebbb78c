import { eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { createManualClock } from '../../lib/db-clock';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { createDrop, dropStatus, joinDrop } from '../../../tests/support/drops';
import { customer } from '../../../tests/support/shop-fixtures';
import { products } from '../catalog/catalog.tables';
import { checkouts } from '../checkout/checkout.tables';
import { dropQueue, drops } from './drops.tables';

// Admission that matches what can be bought (ADR 010 amendment): the live promises that count against
// floor(free pieces × (1 + DROP_OVERBOOKING)) are the admitted places whose pass has not lapsed, less the
// sessions that hold or bought the product (asked of checkout), on the real database through the real
// routes: join, pass, cart, payment intent, offline payment.

const MINUTE = 60_000;
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' };
const clock = createManualClock(Date.now());

describeEachDb(
  'waiting room: shoppers who hold or bought no longer count against the admission cap',
  (t) => {
    /** Advances the clock in ticker-sized steps, ticking at each. */
    async function tickFor(ms: number): Promise<void> {
      for (let at = 0; at < ms; at += 200) {
        clock.advance(200);
        await t().services.drops.tick();
      }
    }

    async function statusesOf(id: string, shoppers: TestClient[]) {
      return Promise.all(shoppers.map(async (c) => (await dropStatus(c, id)).ticket!));
    }

    async function buyUpTo(c: TestClient, id: string, n: number, step: 'cart' | 'hold' | 'paid') {
      expect((await c.post(`/api/drops/${id}/pass`)).statusCode).toBe(200);
      const add = await c.post('/api/cart', { productId: id, quantity: 1 });
      expect(add.statusCode, add.body).toBe(200);
      if (step === 'cart') return;
      expect((await c.post('/api/customer-info', customer({ email: `shopper-${n}@example.com`, shippingAddress: `${n} Queue Street` }))).statusCode).toBe(200);
      const intent = await c.post('/api/create-payment-intent', {});
      expect(intent.statusCode, intent.body).toBe(200);
      if (step === 'hold') return;
      const paid = await c.post('/api/payments/offline/confirm', { clientSecret: intent.json().clientSecret, ...CARD });
      expect(paid.statusCode, paid.body).toBe(200);
    }

    test('after buys and holds, lapsed passes let the line top up to the cap of the pieces left: buyers and holders are not counted, a cart alone is', async () => {
      const app: TestApp = t();
      const passMs = app.config.DROP_PASS_MINUTES * MINUTE;
      // 5 pieces: at most floor(5 × 1.2) = 6 live promises.
      const id = await createDrop(app, clock.now() - Date.now() - 1000, { stock: 5, maxPerShopper: 1 });
      const shoppers: TestClient[] = [];
      for (let i = 0; i < 10; i++) {
        const c = app.client();
        // After the release: first come, first served, in this order.
        expect((await joinDrop(c, id, { ip: `10.91.0.${i + 1}` })).statusCode).toBe(201);
        shoppers.push(c);
      }
      await app.database.db.update(drops).set({ admitPerMinute: 6000, admittedAt: new Date(clock.now()) }).where(eq(drops.productId, id));

      await tickFor(2000);
      let tickets = await statusesOf(id, shoppers);
      expect(tickets.map((k) => k.status)).toEqual([...Array(6).fill('admitted'), ...Array(4).fill('waiting')]);

      // Shopper 0 buys, 1 holds the piece at the payment step, 2 only puts it in the cart; the passes of
      // 3, 4 and 5 lapse unused.
      await buyUpTo(shoppers[0]!, id, 0, 'paid');
      await buyUpTo(shoppers[1]!, id, 1, 'hold');
      await buyUpTo(shoppers[2]!, id, 2, 'cart');
      const lapsed = tickets.slice(3, 6).map((k) => k.id);
      await app.database.db
        .update(dropQueue)
        .set({ admittedAt: new Date(clock.now() - passMs - 1000) })
        .where(sql`${dropQueue.id} in (${sql.join(lapsed.map((x) => sql`${x}`), sql`, `)})`);
      const [stock] = await app.database.db
        .select({ free: products.stock, held: products.heldCount, sold: products.soldCount })
        .from(products)
        .where(eq(products.id, id));
      expect(stock).toEqual({ free: 3, held: 1, sold: 1 });
      const engaged = await app.database.db
        .select({ status: checkouts.status })
        .from(checkouts)
        .where(sql`${checkouts.lines} @> ${JSON.stringify([{ productId: id }])}::jsonb`);
      expect(engaged.map((c) => c.status).sort()).toEqual(['fulfilled', 'open']);

      // 3 free pieces: room for floor(3 × 1.2) = 3 promises. Live: only shopper 2 (a cart holds nothing);
      // 0 and 1 are counted out, 3–5 lapsed. So 2 more are let in, and no more however long it ticks.
      // (Counting the buyer and the holder would let nobody in; not counting the cart would let in 3.)
      await tickFor(2000);
      tickets = await statusesOf(id, shoppers);
      expect(tickets.slice(6).map((k) => k.status)).toEqual(['admitted', 'admitted', 'waiting', 'waiting']);
      expect(tickets.slice(8).map((k) => k.position)).toEqual([1, 2]);
      await tickFor(2000);
      const [row] = await app.database.db.select({ n: drops.admittedCount }).from(drops).where(eq(drops.productId, id));
      expect(row!.n).toBe(8);

      // The holder's hold is given back (their pass is still live): they count again, and the piece they
      // held is free again: floor(4 × 1.2) = 4 room for 4 live promises (2, 1, 6, 7): still nobody let in.
      await app.database.db.update(checkouts).set({ holdExpiresAt: new Date(clock.now() - 1000) }).where(eq(checkouts.status, 'open'));
      expect(await app.services.checkout.releaseExpiredHolds()).toBe(1);
      await tickFor(2000);
      expect((await dropStatus(shoppers[8]!, id)).ticket).toMatchObject({ status: 'waiting', position: 1 });
    });
  },
  { deps: { clock } },
);
