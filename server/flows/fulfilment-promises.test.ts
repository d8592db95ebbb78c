import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb, type TestApp, type TestClient } from '../../tests/support/build-test-app';
import { adminClient } from '../../tests/support/admin-session';
import { enterDraw, entrantsOf, linkTokenIn } from '../../tests/support/draw-entrants';
import { confirmOffline, createProduct, customer, startPayment } from '../../tests/support/shop-fixtures';
import { productSchema } from '../../common/contracts/catalog';
import { PO_BOX_MESSAGE } from '../../common/domain/fulfilment-promises';
import { createManualClock } from '../lib/db-clock';
import type { MailMessage } from '../lib/mailer';
import { products } from '../modules/catalog/catalog.tables';
import { drawEntries } from '../modules/draws/draws.tables';

// The shipping page's promises as data (docs/product.md, "Fulfilment promises"): no P.O. box for a limited
// edition, a signature over $200, the final-sale mark, and the winner's order confirmation.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2031, 4, 1, 12);
const clock = createManualClock(T0);
const sent: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => void sent.push(m) };
const entrant = entrantsOf();

/** A piece released on a schedule, its drop window long over: bought as usual, but a limited edition. */
async function pastDrop(t: TestApp, over: { price?: string } = {}): Promise<string> {
  const id = await createProduct(t.database.db, { stock: 5, releaseAt: new Date(T0 - 3 * DAY), ...over });
  t.services.catalog.invalidate();
  return id;
}

async function addToCart(shopper: TestClient, productId: string): Promise<void> {
  const add = await shopper.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' });
  expect(add.statusCode, add.body).toBe(200);
}

/** Cart → details → intent → offline card → order: the order number. */
async function buy(t: TestApp, productId: string): Promise<string> {
  const shopper = t.client();
  await addToCart(shopper, productId);
  expect((await shopper.post('/api/customer-info', customer())).statusCode).toBe(200);
  const intent = await startPayment(shopper);
  expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
  const done = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
  expect(done.statusCode, done.body).toBe(200);
  return (done.json() as { orderNumber: string }).orderNumber;
}

describeEachDb(
  'fulfilment promises',
  (t) => {
    test('checkout: a limited edition never ships to a P.O. box; a plain piece may', async () => {
      clock.set(T0);
      const drop = await pastDrop(t());
      const plain = await createProduct(t().database.db, { stock: 5 });
      t().services.catalog.invalidate();

      const dropShopper = t().client();
      await addToCart(dropShopper, drop);
      // Every spelling, also in look-alike letters (Cyrillic "РО") or with an invisible space between them.
      for (const shippingAddress of ['PO Box 12', 'P.O. Box 4410', 'Post Office Box 9', 'POB 12', 'Box 12', '\u0420\u041E Box 12', 'P\u200B.O. Box 3']) {
        const refused = await dropShopper.post('/api/customer-info', customer({ shippingAddress }));
        expect(refused.statusCode, shippingAddress).toBe(400);
        expect(refused.json()).toEqual({ message: PO_BOX_MESSAGE });
      }
      // Nothing was saved; a street address (even one with "Box" in its name) is.
      expect((await dropShopper.get('/api/customer-info')).json()).toBeNull();
      const street = await dropShopper.post('/api/customer-info', customer({ shippingAddress: '12 Boxwood Lane' }));
      expect(street.statusCode, street.body).toBe(200);

      const plainShopper = t().client();
      await addToCart(plainShopper, plain);
      const poBox = await plainShopper.post('/api/customer-info', customer({ shippingAddress: 'PO Box 12' }));
      expect(poBox.statusCode, poBox.body).toBe(200);
      expect((await startPayment(plainShopper)).clientSecret).toBeTruthy();
    });

    test('payment step: a P.O. box saved before a limited edition came into the cart is refused (409), nothing held', async () => {
      clock.set(T0);
      const drop = await pastDrop(t());
      const shopper = t().client();
      // Saved with an empty cart: nothing to refuse yet.
      expect((await shopper.post('/api/customer-info', customer({ shippingAddress: 'P.O. Box 77' }))).statusCode).toBe(200);
      await addToCart(shopper, drop);
      const refused = await shopper.post('/api/create-payment-intent', {});
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ message: PO_BOX_MESSAGE });
      const [row] = await t().database.db.select({ held: products.heldCount }).from(products).where(eq(products.id, drop));
      expect(row!.held).toBe(0);
    });

    test('draw entry: a P.O. box is refused before any card is kept; a street address enters', async () => {
      const admin = await adminClient(t());
      const productId = await createProduct(t().database.db, { price: '45.00', stock: 3 });
      t().services.catalog.invalidate();
      clock.set(T0);
      const made = await admin.post('/api/admin/draws', {
        productId,
        opensAt: new Date(T0 + HOUR).toISOString(),
        closesAt: new Date(T0 + 2 * DAY).toISOString(),
        drawAt: new Date(T0 + 2 * DAY + HOUR).toISOString(),
      });
      expect(made.statusCode, made.body).toBe(201);
      const drawId = (made.json() as { id: string }).id;
      clock.set(T0 + 2 * HOUR);
      const c = t().client();
      const refused = await enterDraw(c, drawId, entrant({ email: 'pobox@example.com', shippingAddress: 'PO Box 12' }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ message: PO_BOX_MESSAGE });
      expect(await t().database.db.select().from(drawEntries).where(eq(drawEntries.drawId, drawId))).toEqual([]);
      const entered = await enterDraw(c, drawId, entrant({ email: 'street@example.com', shippingAddress: '12 Boxwood Lane' }));
      expect(entered.statusCode, entered.body).toBe(202);
    });

    test('the winner of a draw gets the buyers\' order confirmation: edition number, address, totals, [TEST], order link, support', async () => {
      const admin = await adminClient(t());
      const productId = await createProduct(t().database.db, { name: 'Winner Tee', price: '45.00', stock: 1 });
      await t().database.db.update(products).set({ editionSize: 1 }).where(eq(products.id, productId));
      t().services.catalog.invalidate();
      clock.set(T0);
      const made = await admin.post('/api/admin/draws', {
        productId,
        opensAt: new Date(T0 + HOUR).toISOString(),
        closesAt: new Date(T0 + 2 * DAY).toISOString(),
        drawAt: new Date(T0 + 2 * DAY + HOUR).toISOString(),
      });
      expect(made.statusCode, made.body).toBe(201);
      const drawId = (made.json() as { id: string }).id;
      clock.set(T0 + 2 * HOUR);
      const c = t().client();
      const winner = entrant({ email: 'winner@example.com', firstName: 'Grace', lastName: 'Hopper', shippingAddress: '7 Compiler Court' });
      expect((await enterDraw(c, drawId, winner)).statusCode).toBe(202);
      const confirmed = await c.post(`/api/draw-entries/${linkTokenIn(sent, 'winner@example.com')}/confirm`);
      expect(confirmed.statusCode, confirmed.body).toBe(200);

      clock.set(T0 + 2 * DAY + HOUR + 1);
      const run = await admin.post(`/api/admin/draws/${drawId}/run`);
      expect(run.statusCode, run.body).toBe(200);
      await t().services.drawFlows.settle.drain();

      const [entry] = await t().database.db.select().from(drawEntries).where(eq(drawEntries.drawId, drawId));
      expect(entry).toMatchObject({ status: 'won' });
      const orderNumber = entry!.orderNumber!;
      const mail = sent.find((m) => m.to === 'winner@example.com' && m.subject.includes(`order ${orderNumber} confirmed`));
      expect(mail, sent.map((m) => m.subject).join('\n')).toBeDefined();
      expect(mail!.subject).toBe(`[TEST] FIFTY order ${orderNumber} confirmed`);
      for (const body of [mail!.text, mail!.html]) {
        expect(body).toContain('No. 1 of 1');
        expect(body).toContain('7 Compiler Court');
        expect(body).toContain('Springfield, IL 62701');
        expect(body).toContain('$45.00');
        expect(body).toContain('Total');
        expect(body).toContain(t().config.SUPPORT_EMAIL);
      }
      expect(mail!.text).toContain('TEST ORDER');
      // The order page's link, signed for this order: it opens it.
      const link = new RegExp(`/orders/${orderNumber}\\?key=([\\w-]+)`).exec(mail!.text);
      expect(link).not.toBeNull();
      expect(await t().services.orders.viewOrder(orderNumber, link![1])).toMatchObject({ orderNumber });
      // Once: a second run sends no second confirmation.
      await t().services.drawFlows.settle.advance(drawId, { runNow: true });
      await t().services.drawFlows.settle.drain();
      expect(sent.filter((m) => m.subject.includes(`order ${orderNumber} confirmed`))).toHaveLength(1);
    });

    test('a $250 order says "Signature required" in the CSV and the pick list; a $45 one does not', async () => {
      clock.set(T0);
      const big = await createProduct(t().database.db, { name: 'Heavy Coat', price: '250.00', stock: 3 });
      const small = await createProduct(t().database.db, { name: 'Light Tee', price: '45.00', stock: 3 });
      t().services.catalog.invalidate();
      const bigOrder = await buy(t(), big);
      const smallOrder = await buy(t(), small);
      const admin = await adminClient(t());

      const csv = await admin.get('/api/admin/orders.csv');
      expect(csv.statusCode).toBe(200);
      const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toContain('"Signature"');
      expect(lines.find((l) => l.startsWith(`"${bigOrder}"`))).toMatch(/"Signature required","United States","[^"]+"$/);
      expect(lines.find((l) => l.startsWith(`"${smallOrder}"`))).toMatch(/,"","United States","[^"]+"$/);

      // Paid orders waiting to be packed: the pick list names the ones that ship signed-for.
      const listed = (await admin.get('/api/admin/orders')).json() as Array<{ id: string; orderNumber: string }>;
      const ids = listed.filter((o) => [bigOrder, smallOrder].includes(o.orderNumber)).map((o) => o.id);
      expect(ids).toHaveLength(2);
      const moved = await admin.post('/api/admin/orders/bulk-status', { orderIds: ids, status: 'confirmed' });
      expect(moved.statusCode, moved.body).toBe(200);
      const pick = await admin.get('/api/admin/pick-list.csv');
      expect(pick.statusCode).toBe(200);
      const rows = pick.body.replace(/^\uFEFF/, '').split('\r\n');
      expect(rows[0]).toMatch(/"Signature required \(orders\)"$/);
      expect(rows.find((l) => l.startsWith('"Heavy Coat"'))).toMatch(new RegExp(`"${bigOrder}","${bigOrder}"$`));
      expect(rows.find((l) => l.startsWith('"Light Tee"'))).toMatch(new RegExp(`"${smallOrder}",""$`));

      // Every order mail names support: the buyer's confirmation and the shipped notice.
      const shipped = await admin.post('/api/admin/orders/bulk-status', {
        orderIds: ids,
        status: 'shipped',
        tracking: ids.map((orderId, i) => ({ orderId, carrier: 'ups', trackingNumber: `1Z999AA1012345678${i}` })),
      });
      expect(shipped.statusCode, shipped.body).toBe(200);
      await t().services.orders.drainMail();
      const support = `Write to ${t().config.SUPPORT_EMAIL}; we reply within 24 hours.`;
      for (const subject of [`FIFTY order ${bigOrder} confirmed`, `FIFTY order ${bigOrder} has shipped`]) {
        const mail = sent.find((m) => m.subject.endsWith(subject));
        expect(mail, subject).toBeDefined();
        expect(mail!.text).toContain(support);
        expect(mail!.html).toContain(`mailto:${t().config.SUPPORT_EMAIL}`);
      }
    });

    test('the owner marks a piece final sale: the catalogue JSON says so; it stays off for others', async () => {
      const admin = await adminClient(t());
      const productId = await createProduct(t().database.db, { stock: 3 });
      t().services.catalog.invalidate();
      const before = productSchema.parse((await t().client().get(`/api/products/${productId}`)).json());
      expect(before.nonReturnable).toBe(false);

      const marked = await admin.request({
        method: 'PATCH',
        url: `/api/admin/products/${productId}`,
        payload: { nonReturnable: true },
        headers: { 'content-type': 'application/json' },
      });
      expect(marked.statusCode, marked.body).toBe(200);
      expect(marked.json()).toMatchObject({ nonReturnable: true });
      const shown = productSchema.parse((await t().client().get(`/api/products/${productId}`)).json());
      expect(shown.nonReturnable).toBe(true);
      const listed = (await t().client().get('/api/products')).json() as Array<{ id: string; nonReturnable: boolean }>;
      expect(listed.find((p) => p.id === productId)?.nonReturnable).toBe(true);
      expect(listed.filter((p) => p.id !== productId).every((p) => p.nonReturnable === false)).toBe(true);

      const bad = await admin.request({
        method: 'PATCH',
        url: `/api/admin/products/${productId}`,
        payload: { nonReturnable: 'yes' },
        headers: { 'content-type': 'application/json' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'nonReturnable must be true or false' });
    });
  },
  { deps: { mailer, clock } },
);
