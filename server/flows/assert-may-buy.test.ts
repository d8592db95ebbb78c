import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { dropMessages } from '../../common/domain/drop';
import { createManualClock } from '../lib/db-clock';
import { describeEachDb, type TestClient } from '../../tests/support/build-test-app';
import { createDrop, joinDrop } from '../../tests/support/drops';
import { solvePow } from '../../tests/support/pow';
import { createProduct, customer, startPayment } from '../../tests/support/shop-fixtures';
import { products } from '../modules/catalog/catalog.tables';
import { checkouts } from '../modules/checkout/checkout.tables';
import { drops } from '../modules/drops/drops.tables';
import { PASS_COOKIE } from '../lib/cookies';

// assertMayBuy (server/flows/assert-may-buy.ts) guards every path that adds or holds: cart add, line raise
// (PUT /api/cart/:id) and payment. On the real database, through the real routes.

const clock = createManualClock(Date.now());
const MINUTE = 60_000;

const message = (res: { json(): unknown }) => (res.json() as { message: string }).message;

describeEachDb(
  'assertMayBuy on every path that adds or holds',
  (t) => {
    async function lineOf(c: TestClient): Promise<{ id: string; quantity: number }> {
      const cart = (await c.get('/api/cart')).json() as Array<{ id: string; quantity: number }>;
      expect(cart).toHaveLength(1);
      return cart[0]!;
    }

    test('during a live drop, a line is not raised, added to or paid for without an admission pass; lowering still works', async () => {
      const app = t();
      const id = await createDrop(app, clock.now() - Date.now() - 1000, { name: 'Pass Tee', stock: 5, maxPerShopper: 3 });
      const c = app.client();
      expect((await joinDrop(c, id, { ip: '10.77.0.1' })).statusCode).toBe(201);
      await app.database.db.update(drops).set({ admitPerMinute: 6000, admittedAt: new Date(clock.now()) }).where(eq(drops.productId, id));
      for (let i = 0; i < 10; i++) {
        clock.advance(200);
        await app.services.drops.tick();
      }
      expect((await c.post(`/api/drops/${id}/pass`)).statusCode).toBe(200);
      const added = await c.post('/api/cart', { productId: id, quantity: 1 });
      expect(added.statusCode, added.body).toBe(200);
      // With the pass the line may grow…
      const line = await lineOf(c);
      expect((await c.put(`/api/cart/${line.id}`, { quantity: 2 })).statusCode).toBe(200);
      expect(await c.post('/api/customer-info', customer({ email: 'pass-tee@example.com' }))).toMatchObject({ statusCode: 200 });

      // …without it (the cookie gone), not on any path.
      c.cookies.delete(PASS_COOKIE);
      const raised = await c.put(`/api/cart/${line.id}`, { quantity: 3 });
      expect(raised.statusCode, raised.body).toBe(403);
      expect(message(raised)).toBe(dropMessages.passNeeded('Pass Tee'));
      expect((await lineOf(c)).quantity).toBe(2);
      const more = await c.post('/api/cart', { productId: id, quantity: 1 });
      expect(more.statusCode).toBe(403);
      expect(message(more)).toBe(dropMessages.passNeeded('Pass Tee'));
      const pay = await c.post('/api/create-payment-intent', {});
      expect(pay.statusCode).toBe(403);
      expect(message(pay)).toBe(dropMessages.passNeeded('Pass Tee'));
      // Lowering gives back and asks nothing.
      const lowered = await c.put(`/api/cart/${line.id}`, { quantity: 1 });
      expect(lowered.statusCode, lowered.body).toBe(200);
      expect(lowered.json()).toMatchObject({ quantity: 1 });
    });

    test('a line is not raised while the pieces left are reserved for the waiting list; the add and the payment are refused alike', async () => {
      const app = t();
      const db = app.database.db;
      const id = await createProduct(db, { name: 'Kept Tee', stock: 2, sizes: [], maxPerShopper: 5 });
      // A cart reserves nothing: this shopper has one in the cart while two are free.
      const early = app.client();
      expect((await early.post('/api/cart', { productId: id, quantity: 1 })).statusCode).toBe(200);
      expect((await early.post('/api/customer-info', customer({ email: 'early@example.com', shippingAddress: '1 Early St' }))).statusCode).toBe(200);
      // Another holds both at the payment step: sold out, and two people ask to be told of a return.
      const holder = app.client();
      expect((await holder.post('/api/cart', { productId: id, quantity: 2 })).statusCode).toBe(200);
      expect((await holder.post('/api/customer-info', customer({ email: 'holder@example.com' }))).statusCode).toBe(200);
      const intent = await startPayment(holder);
      for (const email of ['first@example.com', 'second@example.com']) {
        const who = app.client();
        const altcha = await solvePow((await who.get('/api/pow-challenge')).json());
        expect((await who.post(`/api/products/${id}/alerts`, { email, altcha })).statusCode).toBe(201);
      }
      // The hold lapses: both pieces come back, each kept for one on the waiting list.
      await db.update(checkouts).set({ holdExpiresAt: new Date(clock.now() - 1000) }).where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
      expect(await app.services.checkout.releaseExpiredHolds()).toBeGreaterThanOrEqual(1);
      const [row] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, id));
      expect(row!.stock).toBe(2);

      // Raising 1 → 2 fits the stock, but the pieces are someone else's.
      const line = await lineOf(early);
      const raised = await early.put(`/api/cart/${line.id}`, { quantity: 2 });
      expect(raised.statusCode, raised.body).toBe(409);
      expect(message(raised)).toMatch(/^This piece is reserved for someone on the waiting list for another \d+ minutes?\.$/);
      expect((await lineOf(early)).quantity).toBe(1);
      const add = await app.client().post('/api/cart', { productId: id, quantity: 1 });
      expect(add.statusCode).toBe(409);
      expect(message(add)).toMatch(/^This piece is reserved for someone on the waiting list/);
      const pay = await early.post('/api/create-payment-intent', {});
      expect(pay.statusCode).toBe(409);
      expect(message(pay)).toMatch(/^This piece is reserved for someone on the waiting list/);
    });

    test('a line whose release moved later is not raised or paid for (the database clock decides)', async () => {
      const app = t();
      const db = app.database.db;
      // On sale (no release time) when it goes in the cart; then a release is set for later.
      const id = await createProduct(db, { name: 'Moved Tee', stock: 5, sizes: [] });
      const c = app.client();
      expect((await c.post('/api/cart', { productId: id, quantity: 1 })).statusCode).toBe(200);
      expect((await c.post('/api/customer-info', customer({ email: 'moved@example.com' }))).statusCode).toBe(200);
      const releaseAt = new Date(clock.now() + 60 * MINUTE);
      await db.update(products).set({ releaseAt }).where(eq(products.id, id));
      app.services.catalog.invalidate();
      const line = await lineOf(c);
      const raised = await c.put(`/api/cart/${line.id}`, { quantity: 2 });
      expect(raised.statusCode, raised.body).toBe(409);
      expect(message(raised)).toMatch(/^Moved Tee drops on .*\. It can't be bought yet\.$/);
      const pay = await c.post('/api/create-payment-intent', {});
      expect(pay.statusCode).toBe(409);
      expect(message(pay)).toMatch(/^Moved Tee drops on /);
      // The clock passes the release and its drop window (a pass is needed only inside it): the raise goes through.
      clock.set(releaseAt.getTime() + (app.config.DROP_WINDOW_MINUTES + 1) * MINUTE);
      expect((await c.put(`/api/cart/${line.id}`, { quantity: 2 })).statusCode).toBe(200);
    });
  },
  { deps: { clock } },
);
