import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/client';
import type { MailMessage } from '../../lib/mailer';
import { describeEachDb, type TestClient } from '../../../tests/support/build-test-app';
import { solvePow } from '../../../tests/support/pow';
import { createProduct, customer, startPayment } from '../../../tests/support/shop-fixtures';
import { products } from '../catalog/catalog.tables';
import { checkouts } from '../checkout/checkout.tables';
import { productAlerts } from './alerts.tables';

const sent: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => void sent.push(m) };

const RELEASE_MESSAGE = "We'll e-mail you when it drops.";
const RESTOCK_MESSAGE = "We'll e-mail you if a piece comes back.";

async function signUp(shopper: TestClient, productId: string, email: string, altcha?: string | null) {
  const body: Record<string, unknown> = { email };
  if (altcha !== null) body.altcha = altcha ?? (await solvePow((await shopper.get('/api/pow-challenge')).json()));
  return shopper.post(`/api/products/${productId}/alerts`, body);
}

const mailsTo = (email: string) => sent.filter((m) => m.to === email);
const email = (name: string) => `${name}-${crypto.randomBytes(3).toString('hex')}@example.com`;

/** The link a restock mail carries: /product/:id?claim=<token>. */
function claimToken(mail: MailMessage): string {
  const m = /\?claim=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!m) throw new Error(`no claim link in: ${mail.text}`);
  return m[1]!;
}

describeEachDb(
  "'Notify me' alerts (ADR 011)",
  (t) => {
    const future = () => new Date(Date.now() + 3_600_000);

    test('signup: e-mail checked like the newsletter, proof of work required, unknown product 404', async () => {
      const id = await createProduct(t().database.db, { releaseAt: future() });
      const shopper = t().client();
      const bad = await signUp(shopper, id, 'not-an-email');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'Please enter a valid email address' });
      const empty = await signUp(shopper, id, '  ');
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toEqual({ message: 'Email is required' });
      const noProof = await signUp(shopper, id, email('np'), null);
      expect(noProof.statusCode).toBe(400);
      expect((noProof.json() as { message: string }).message).toBeTruthy();
      const unknown = await signUp(shopper, crypto.randomUUID(), email('u'));
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: 'Product not found' });
      const rows = await t().database.db.select().from(productAlerts).where(eq(productAlerts.productId, id));
      expect(rows).toHaveLength(0);
    });

    test('rate-limited per e-mail address: the 11th signup in 10 minutes is 429 with Retry-After', async () => {
      const id = await createProduct(t().database.db, { releaseAt: future() });
      const who = email('limited');
      // Refused tries (no proof of work: 400) spend no budget (rate-limits.ts counts answered requests only).
      for (let i = 0; i < 3; i++) expect((await signUp(t().client(), id, who, null)).statusCode).toBe(400);
      // Ten answered signups of one mailbox (the first 201, then 200 'already asked')…
      for (let i = 0; i < 10; i++) expect((await signUp(t().client(), id, who)).statusCode).toBe(i === 0 ? 201 : 200);
      // …and the eleventh is refused before its proof of work is even looked at.
      const limited = await signUp(t().client(), id, who, null);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeTruthy();
      expect((limited.json() as { message: string }).message).toMatch(/^Too many requests/);
      // Another address is not affected.
      expect((await signUp(t().client(), id, email('free'))).statusCode).toBe(201);
    });

    test('on sale and in stock: 409 "It\'s on sale now." and nothing stored', async () => {
      const id = await createProduct(t().database.db, { stock: 3 });
      const res = await signUp(t().client(), id, email('onsale'));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: "It's on sale now." });
      expect(await t().database.db.select().from(productAlerts).where(eq(productAlerts.productId, id))).toHaveLength(0);
    });

    test('before the release: 201, and the same address again is 200 with the same message, one row', async () => {
      const id = await createProduct(t().database.db, { releaseAt: future() });
      const who = email('twice');
      const first = await signUp(t().client(), id, who);
      expect(first.statusCode).toBe(201);
      expect(first.json()).toEqual({ kind: 'release', message: RELEASE_MESSAGE });
      const again = await signUp(t().client(), id, who.toUpperCase());
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ kind: 'release', message: RELEASE_MESSAGE });
      const rows = await t().database.db.select().from(productAlerts).where(eq(productAlerts.productId, id));
      expect(rows.map((r) => [r.email, r.kind])).toEqual([[who, 'release']]);
    });

    test('release mail: every subscriber exactly once at the release time, even with two instances', async () => {
      const db = t().database.db;
      const id = await createProduct(db, { name: 'Release Tee', releaseAt: future() });
      const people = [email('r1'), email('r2'), email('r3')];
      for (const p of people) expect((await signUp(t().client(), id, p)).statusCode).toBe(201);
      // Not released yet: nothing goes out.
      await t().services.alerts.sendReleaseAlerts();
      for (const p of people) expect(mailsTo(p)).toHaveLength(0);

      const otherDb = await openDatabase({ databaseUrl: t().config.DATABASE_URL, poolSize: 5 });
      let other: FastifyInstance | null = null;
      try {
        other = await buildApp(t().config, { database: otherDb, sessionSecret: 'test-session-secret-test-session-secret-0123', logger: false, mailer });
        await other.ready();
        const releasedAt = Date.now() + 3_600_000 + 1_000;
        await Promise.all([
          t().services.alerts.sendReleaseAlerts(releasedAt),
          other.services.alerts.sendReleaseAlerts(releasedAt),
          t().services.alerts.sendReleaseAlerts(releasedAt),
          other.services.alerts.sendReleaseAlerts(releasedAt),
        ]);
      } finally {
        await other?.close();
        await otherDb.close();
      }
      for (const p of people) {
        const mails = mailsTo(p);
        expect(mails).toHaveLength(1);
        const [mail] = mails;
        expect(mail!.subject).toBe('Release Tee just dropped');
        expect(mail!.text).toContain(`/product/${id}`);
        // One-click unsubscribe (RFC 8058) and no one else's address.
        expect(mail!.headers).toEqual({
          'List-Unsubscribe': expect.stringMatching(/^<http:\/\/.+\/api\/alerts\/unsubscribe\?token=[A-Za-z0-9_-]+>$/),
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        });
        for (const o of people.filter((x) => x !== p)) {
          expect(mail!.text).not.toContain(o);
          expect(mail!.html).not.toContain(o);
        }
      }
      // Later runs send nothing again.
      await t().services.alerts.sendReleaseAlerts(Date.now() + 7_200_000);
      for (const p of people) expect(mailsTo(p)).toHaveLength(1);
    });

    test('restock: an expired hold returns the last piece → the first subscriber is mailed a claim, others are refused at cart add, the claimant gets it; a lapsed window passes to the next', async () => {
      const db = t().database.db;
      const id = await createProduct(db, { name: 'Last One', stock: 1, sizes: [] });
      // One shopper put it in the cart while it was there (a cart reserves nothing)…
      const early = t().client();
      expect((await early.post('/api/cart', { productId: id, quantity: 1 })).statusCode).toBe(200);
      expect((await early.post('/api/customer-info', customer({ email: email('early'), shippingAddress: '9 Early St' }))).statusCode).toBe(200);
      // …another holds the only piece: sold out.
      const holder = t().client();
      expect((await holder.post('/api/cart', { productId: id, quantity: 1 })).statusCode).toBe(200);
      expect((await holder.post('/api/customer-info', customer({ email: email('holder') }))).statusCode).toBe(200);
      const intent = await startPayment(holder);

      const [first, second, third] = [email('first'), email('second'), email('third')];
      for (const p of [first, second, third]) {
        const res = await signUp(t().client(), id, p);
        expect(res.statusCode).toBe(201);
        expect(res.json()).toEqual({ kind: 'restock', message: RESTOCK_MESSAGE });
      }

      // The hold lapses: the piece comes back, kept for the first in line.
      await db.update(checkouts).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
      expect(await t().services.checkout.releaseExpiredHolds()).toBeGreaterThanOrEqual(1);
      await expect.poll(() => mailsTo(first).length, { timeout: 2_000 }).toBe(1);
      expect(mailsTo(second)).toHaveLength(0);
      const mail = mailsTo(first)[0]!;
      expect(mail.subject).toContain('Last One');
      expect(mail.text).toMatch(new RegExp(`/product/${id}\\?claim=`));
      expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      expect(mail.text).not.toContain(second);

      // Anyone else is refused while the window lasts.
      const stranger = t().client();
      const refused = await stranger.post('/api/cart', { productId: id, quantity: 1 });
      expect(refused.statusCode).toBe(409);
      expect((refused.json() as { message: string }).message).toMatch(
        /^This piece is reserved for someone on the waiting list for another 1[45] minutes\.$/,
      );
      // Nor can a cart that had it from before start a payment for it.
      const early409 = await early.post('/api/create-payment-intent', {});
      expect(early409.statusCode).toBe(409);
      expect((early409.json() as { message: string }).message).toMatch(/^This piece is reserved for someone on the waiting list/);
      // A wrong claim does not help.
      const wrong = await stranger.post('/api/alerts/claim', { token: 'x'.repeat(32) });
      expect(wrong.statusCode).toBe(404);
      expect((await stranger.post('/api/cart', { productId: id, quantity: 1 })).statusCode).toBe(409);

      // The claimant follows the link: the claim cookie lets their cart take the piece.
      const claimant = t().client();
      const claim = await claimant.post('/api/alerts/claim', { token: claimToken(mail) });
      expect(claim.statusCode, claim.body).toBe(200);
      expect(claim.json()).toMatchObject({ productId: id });
      // The claim cookie (beside the new session's) is HttpOnly: no script on the page can read the claim.
      const claimCookie = [claim.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('fifty_claim='));
      expect(claimCookie).toMatch(/HttpOnly/i);
      const added = await claimant.post('/api/cart', { productId: id, quantity: 1 });
      expect(added.statusCode, added.body).toBe(200);

      // The second subscriber unsubscribes (one click), so the lapsed window skips them.
      await t().services.alerts.offerReturnedPieces();
      expect(mailsTo(second)).toHaveLength(0);
      const [secondRow] = await db.select().from(productAlerts).where(and(eq(productAlerts.productId, id), eq(productAlerts.email, second)));
      const oneClick = await t().app.inject({
        method: 'POST',
        url: `/api/alerts/unsubscribe?token=${secondRow!.token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.statusCode, oneClick.body).toBe(200);
      expect(oneClick.json()).toEqual({ message: "You're unsubscribed: we won't e-mail you about this piece." });

      // The window lapses unused (the claimant never paid): the next one still subscribed is mailed.
      await db.update(productAlerts).set({ reservedUntil: new Date(Date.now() - 1000) }).where(eq(productAlerts.email, first));
      await t().services.alerts.offerReturnedPieces();
      expect(mailsTo(second)).toHaveLength(0);
      expect(mailsTo(third)).toHaveLength(1);
      expect(mailsTo(first)).toHaveLength(1);
      // The old claim has ended.
      const ended = await claimant.post('/api/alerts/claim', { token: claimToken(mail) });
      expect(ended.statusCode).toBe(410);
      expect(ended.json()).toEqual({ message: 'Sorry, your reserved window has ended.' });

      // The next claimant holds it at the payment (their claim cookie is read there too).
      const next = t().client();
      expect((await next.post('/api/alerts/claim', { token: claimToken(mailsTo(third)[0]!) })).statusCode).toBe(200);
      expect((await next.post('/api/cart', { productId: id, quantity: 1 })).statusCode).toBe(200);
      expect((await next.post('/api/customer-info', customer({ email: third, shippingAddress: '3 Third St' }))).statusCode).toBe(200);
      const held = await next.post('/api/create-payment-intent', {});
      expect(held.statusCode, held.body).toBe(200);
    });

    test('a refunded sale of a sold-out edition also offers the piece to the waiting list', async () => {
      const db = t().database.db;
      const id = await createProduct(db, { name: 'Refunded', stock: 0, sizes: [] });
      const who = email('refund');
      expect((await signUp(t().client(), id, who)).statusCode).toBe(201);
      await db.update(products).set({ soldCount: 1 }).where(eq(products.id, id));
      await db.transaction((tx) => t().services.inventory.returnSold(tx, id, [1]));
      await expect.poll(() => mailsTo(who).length, { timeout: 2_000 }).toBe(1);
      expect(mailsTo(who)[0]!.text).toContain('?claim=');
    });

    test('unsubscribe: GET shows a confirmation (HTML with a form, or JSON), unknown token 404, no mail after', async () => {
      const id = await createProduct(t().database.db, { releaseAt: future() });
      const who = email('unsub');
      expect((await signUp(t().client(), id, who)).statusCode).toBe(201);
      const [row] = await t().database.db.select().from(productAlerts).where(eq(productAlerts.email, who));
      const html = await t().app.inject({ url: `/api/alerts/unsubscribe?token=${row!.token}`, headers: { accept: 'text/html' } });
      expect(html.statusCode).toBe(200);
      expect(html.headers['content-type']).toMatch(/text\/html/);
      expect(html.body).toContain('<button type="submit"');
      const json = await t().app.inject({ url: `/api/alerts/unsubscribe?token=${row!.token}` });
      expect(json.json()).toMatchObject({ unsubscribed: false });
      // GET alone changes nothing (link scanners fetch links).
      const [still] = await t().database.db.select().from(productAlerts).where(eq(productAlerts.email, who));
      expect(still!.unsubscribedAt).toBeNull();

      const unknown = await t().app.inject({ url: `/api/alerts/unsubscribe?token=${'y'.repeat(32)}` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: 'This link is not valid (any more).' });
      const unknownPost = await t().app.inject({ method: 'POST', url: `/api/alerts/unsubscribe?token=${'y'.repeat(32)}` });
      expect(unknownPost.statusCode).toBe(404);

      const post = await t().app.inject({ method: 'POST', url: `/api/alerts/unsubscribe?token=${row!.token}` });
      expect(post.statusCode).toBe(200);
      await t().services.alerts.sendReleaseAlerts(Date.now() + 7_200_000);
      expect(mailsTo(who)).toHaveLength(0);
    });
  },
  { deps: { mailer } },
);

