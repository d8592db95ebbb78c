import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import type { MailMessage } from '../../lib/mailer';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { admitAndPass, createDrop, joinDrop, moveRelease, restartPacing } from '../../../tests/support/drops';
import { solvePow } from '../../../tests/support/pow';
import { createProduct, customer, startPayment } from '../../../tests/support/shop-fixtures';
import { products } from '../catalog/catalog.tables';
import { checkouts } from '../checkout/checkout.tables';
import { productAlerts } from './alerts.tables';

// Returned pieces during a drop go to the admitted line; claim links are their own, single-purpose,
// bound to the first browser (ADR 011, amended).

const sent: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => void sent.push(m) };
const mailsTo = (email: string) => sent.filter((m) => m.to === email);
const email = (name: string) => `${name}-${crypto.randomBytes(3).toString('hex')}@example.com`;
let ipCounter = 0;
const freshIp = () => `10.66.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

const OTHER_BROWSER =
  'This link was already opened in another browser. Open it in the browser where you first used it: the piece is kept for that one only.';

async function signUp(shopper: TestClient, productId: string, who: string) {
  const altcha = await solvePow((await shopper.get('/api/pow-challenge')).json());
  return shopper.post(`/api/products/${productId}/alerts`, { email: who, altcha });
}

/** The link a restock mail carries: /product/:id?claim=<token>. */
function claimTokenOf(mail: MailMessage): string {
  const m = /\?claim=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!m) throw new Error(`no claim link in: ${mail.text}`);
  return m[1]!;
}

/** A shopper holds the product's pieces in a checkout (sold out while held); returns the intent id. */
async function hold(shopper: TestClient, productId: string, quantity = 1): Promise<string> {
  const add = await shopper.post('/api/cart', { productId, quantity });
  expect(add.statusCode, add.body).toBe(200);
  expect((await shopper.post('/api/customer-info', customer({ email: email('holder') }))).statusCode).toBe(200);
  return (await startPayment(shopper)).paymentIntentId;
}

/** The hold lapses and the expiry job gives the pieces back (inventory's onUnitsReturned runs). */
async function lapse(t: TestApp, intentId: string): Promise<void> {
  await t.database.db.update(checkouts).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(checkouts.paymentIntentId, intentId));
  expect(await t.services.checkout.releaseExpiredHolds()).toBeGreaterThanOrEqual(1);
  t.services.catalog.invalidate();
}

const alertRows = (t: TestApp, productId: string) =>
  t.database.db.select().from(productAlerts).where(eq(productAlerts.productId, productId));

describeEachDb(
  'returned pieces during a drop go to the line',
  (t) => {
    test('the attack: Notify-me signups during the drop, a hold lapses → no reservation; the admitted shopper buys the piece, the subscriber without a pass cannot', async () => {
      // Two pieces, both let in while they are free; then one shopper holds both: sold out while held.
      const id = await createDrop(t(), -200, { name: 'Line Tee', stock: 2 });
      await restartPacing(t(), id);
      const holder = t().client();
      expect((await joinDrop(holder, id, { ip: freshIp() })).statusCode).toBe(201);
      const buyer = t().client();
      expect((await joinDrop(buyer, id, { ip: freshIp() })).statusCode).toBe(201);
      await admitAndPass(t(), holder, id);
      await admitAndPass(t(), buyer, id);
      const intent = await hold(holder, id, 2);

      // While every piece is held the product reads sold out: four signups for a returned piece.
      const subscriber = t().client();
      const people = [email('s1'), email('s2'), email('s3'), email('s4')];
      for (const who of people) {
        const res = await signUp(subscriber, id, who);
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json()).toMatchObject({ kind: 'restock' });
      }

      await lapse(t(), intent);
      // Neither the event nor the job reserves it (the job is what runs every 15 s on every instance).
      expect(await t().services.alerts.offerReturnedPieces()).toBe(0);
      const rows = await alertRows(t(), id);
      expect(rows).toHaveLength(4);
      expect(rows.every((r) => r.reservedUntil === null && r.claimToken === null)).toBe(true);
      expect((await t().services.inventory.stockOf(id))?.stock).toBe(2);
      for (const who of people) expect(mailsTo(who)).toHaveLength(0);

      // The subscriber has no pass: refused by the waiting room, not handed the piece.
      const theirs = await subscriber.post('/api/cart', { productId: id, quantity: 1 });
      expect(theirs.statusCode).toBe(403);
      expect(theirs.json()).toEqual({ message: 'Join the waiting room to buy Line Tee.' });
      // The admitted shopper buys it: cart and payment (the hold) both go through.
      const added = await buyer.post('/api/cart', { productId: id, quantity: 1 });
      expect(added.statusCode, added.body).toBe(200);
      expect((await buyer.post('/api/customer-info', customer({ email: email('buyer') }))).statusCode).toBe(200);
      const paid = await buyer.post('/api/create-payment-intent', {});
      expect(paid.statusCode, paid.body).toBe(200);
    });

    test('a piece that came back during the window and was not bought goes to the waiting list once the window is over', async () => {
      const id = await createDrop(t(), -200, { name: 'After Tee', stock: 1 });
      await restartPacing(t(), id);
      const holder = t().client();
      expect((await joinDrop(holder, id, { ip: freshIp() })).statusCode).toBe(201);
      await admitAndPass(t(), holder, id);
      const intent = await hold(holder, id);
      const who = email('after');
      expect((await signUp(t().client(), id, who)).statusCode).toBe(201);
      await lapse(t(), intent);
      expect(await t().services.alerts.offerReturnedPieces()).toBe(0);

      // DROP_WINDOW_MINUTES (60) later: the job offers the piece on the shelf as before.
      await moveRelease(t(), id, -61 * 60_000);
      expect(await t().services.alerts.offerReturnedPieces()).toBe(1);
      expect(mailsTo(who)).toHaveLength(1);
      const stranger = await t().client().post('/api/cart', { productId: id, quantity: 1 });
      expect(stranger.statusCode).toBe(409);
      expect((stranger.json() as { message: string }).message).toMatch(/^This piece is reserved for someone on the waiting list/);
    });

    test('after the window a lapsed hold is reserved for the first subscriber in the same transaction, as before', async () => {
      const id = await createDrop(t(), -2 * 3_600_000, { name: 'Old Drop', stock: 1 });
      const intent = await hold(t().client(), id);
      const [first, second] = [email('old1'), email('old2')];
      for (const who of [first, second]) expect((await signUp(t().client(), id, who)).statusCode).toBe(201);
      await lapse(t(), intent);
      const rows = await alertRows(t(), id);
      expect(rows.find((r) => r.email === first)!.reservedUntil).not.toBeNull();
      expect(rows.find((r) => r.email === second)!.reservedUntil).toBeNull();
      await expect.poll(() => mailsTo(first).length, { timeout: 2_000 }).toBe(1);
      expect((await t().client().post('/api/cart', { productId: id, quantity: 1 })).statusCode).toBe(409);
    });

    test('inside the window but the drop sold out (everyone waiting was told): a refunded piece goes to the waiting list', async () => {
      const db = t().database.db;
      const id = await createDrop(t(), -200, { name: 'Gone Tee', stock: 0 });
      await db.update(products).set({ soldCount: 1 }).where(eq(products.id, id));
      await t().services.drops.tick();
      expect((await t().services.drops.status(id, null)).phase).toBe('sold_out');
      const who = email('gone');
      expect((await signUp(t().client(), id, who)).statusCode).toBe(201);
      await db.transaction((tx) => t().services.inventory.returnSold(tx, id, [1]));
      await expect.poll(() => mailsTo(who).length, { timeout: 3_000 }).toBe(1);
      expect((await t().client().post('/api/cart', { productId: id, quantity: 1 })).statusCode).toBe(409);
    });
  },
  { deps: { mailer } },
);

describeEachDb(
  'claim links: their own token, single-purpose, bound to the first browser',
  (t) => {
    /** A product with no drop whose one piece came back: `who` is mailed a reservation. */
    async function reservedFor(who: string): Promise<{ id: string; mail: MailMessage; unsubscribeToken: string }> {
      const id = await createProduct(t().database.db, { name: 'Claim Tee', stock: 1, sizes: [] });
      const intent = await hold(t().client(), id);
      expect((await signUp(t().client(), id, who)).statusCode).toBe(201);
      await lapse(t(), intent);
      await expect.poll(() => mailsTo(who).length, { timeout: 2_000 }).toBe(1);
      const [row] = await alertRows(t(), id);
      return { id, mail: mailsTo(who)[0]!, unsubscribeToken: row!.token };
    }

    test('the claim link carries a token of its own, never the List-Unsubscribe token', async () => {
      const { mail, unsubscribeToken, id } = await reservedFor(email('own'));
      const claim = claimTokenOf(mail);
      expect(claim).not.toBe(unsubscribeToken);
      expect(mail.headers?.['List-Unsubscribe']).toContain(`token=${unsubscribeToken}`);
      expect(mail.headers?.['List-Unsubscribe']).not.toContain(claim);
      expect(mail.text).not.toContain(`?claim=${unsubscribeToken}`);
      const [row] = await alertRows(t(), id);
      expect(row!.claimToken).toBe(claim);
    });

    test('single-purpose: the unsubscribe token claims nothing (404), the claim token unsubscribes nothing (404); unsubscribing still works', async () => {
      const { mail, unsubscribeToken, id } = await reservedFor(email('purpose'));
      const claim = claimTokenOf(mail);
      const shopper = t().client();
      const byUnsub = await shopper.post('/api/alerts/claim', { token: unsubscribeToken });
      expect(byUnsub.statusCode).toBe(404);
      expect(byUnsub.json()).toEqual({ message: 'This link is not valid (any more).' });
      expect(shopper.cookies.has('fifty_claim')).toBe(false);
      expect((await shopper.post('/api/cart', { productId: id, quantity: 1 })).statusCode).toBe(409);

      const unsubByClaim = await t().app.inject({ method: 'POST', url: `/api/alerts/unsubscribe?token=${claim}` });
      expect(unsubByClaim.statusCode).toBe(404);
      expect((await alertRows(t(), id))[0]!.unsubscribedAt).toBeNull();

      const unsub = await t().app.inject({ method: 'POST', url: `/api/alerts/unsubscribe?token=${unsubscribeToken}` });
      expect(unsub.statusCode).toBe(200);
      expect(unsub.json()).toEqual({ message: "You're unsubscribed: we won't e-mail you about this piece." });
      expect((await alertRows(t(), id))[0]!.unsubscribedAt).not.toBeNull();
    });

    test('bound to the first browser: it claims and buys, may open the link again; a forwarded link in a second browser is refused with a clear message', async () => {
      const { mail, id } = await reservedFor(email('bound'));
      const token = claimTokenOf(mail);
      const first = t().client();
      const claimed = await first.post('/api/alerts/claim', { token });
      expect(claimed.statusCode, claimed.body).toBe(200);
      expect(claimed.json()).toMatchObject({ productId: id });
      // The same browser reloads the page with the link: still its claim.
      expect((await first.post('/api/alerts/claim', { token })).statusCode).toBe(200);

      const second = t().client();
      const refused = await second.post('/api/alerts/claim', { token });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: OTHER_BROWSER });
      expect(second.cookies.has('fifty_claim')).toBe(false);
      const secondAdd = await second.post('/api/cart', { productId: id, quantity: 1 });
      expect(secondAdd.statusCode).toBe(409);

      const firstAdd = await first.post('/api/cart', { productId: id, quantity: 1 });
      expect(firstAdd.statusCode, firstAdd.body).toBe(200);
    });

    test('one browser keeps two claims (two reserved pieces) in its claim cookie', async () => {
      const a = await reservedFor(email('two-a'));
      const b = await reservedFor(email('two-b'));
      const browser = t().client();
      expect((await browser.post('/api/alerts/claim', { token: claimTokenOf(a.mail) })).statusCode).toBe(200);
      expect((await browser.post('/api/alerts/claim', { token: claimTokenOf(b.mail) })).statusCode).toBe(200);
      expect((await browser.post('/api/cart', { productId: a.id, quantity: 1 })).statusCode).toBe(200);
      expect((await browser.post('/api/cart', { productId: b.id, quantity: 1 })).statusCode).toBe(200);
    });
  },
  { deps: { mailer } },
);
