import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb, type TestClient } from '../../tests/support/build-test-app';
import { solvePow } from '../../tests/support/pow';
import { createProduct, customer, startPayment } from '../../tests/support/shop-fixtures';
import { checkouts } from '../modules/checkout/checkout.tables';
import { productAlerts } from '../modules/alerts/alerts.tables';
import type { MailMessage } from '../modules/mail/mail.service';
import { redactUrl, scrubText } from './log-redaction';

// Logs at LOG_LEVEL=debug (every request logged) hold no token, no e-mail and no client address.

const lines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});

const SUBSCRIBER = `log-${crypto.randomBytes(3).toString('hex')}@example.org`;
const CLIENT_V4 = '203.0.113.77';
const CLIENT_V6 = '2001:db8:4:7::42';
const sent: MailMessage[] = [];
let failNextMail = false;
const mailer = {
  send: async (m: MailMessage) => {
    if (failNextMail) {
      failNextMail = false;
      // SMTP servers quote the recipient in their refusals.
      throw new Error(`550 5.1.1 <${m.to}>: mailbox unavailable`);
    }
    sent.push(m);
  },
};

test('redactUrl: query strings and the claim path token go; the path stays', () => {
  expect(redactUrl('/api/alerts/unsubscribe?token=abcdefabcdefabcdef')).toBe('/api/alerts/unsubscribe?[redacted]');
  expect(redactUrl('/api/alerts/claim/abcdefabcdefabcdef')).toBe('/api/alerts/claim/[redacted]');
  expect(redactUrl('/draw-entry/abcdefabcdefabcdef')).toBe('/draw-entry/[redacted]');
  expect(redactUrl('/api/draw-entries/abcdefabcdefabcdef/confirm')).toBe('/api/draw-entries/[redacted]/confirm');
  expect(redactUrl('/product/5?claim=zzz')).toBe('/product/5?[redacted]');
  expect(redactUrl('/api/products')).toBe('/api/products');
});

test('scrubText: e-mail, IPv4 and IPv6 addresses and query strings go; clock times and ids stay', () => {
  const out = scrubText(`GET /x?token=s3cret from ${CLIENT_V4} and [${CLIENT_V6}] for a.b@example.org at 16:22:28 id 3f2a-11`);
  expect(out).not.toMatch(/s3cret|203\.0\.113|2001:db8|a\.b@example/);
  expect(out).toContain('16:22:28');
  expect(out).toContain('id 3f2a-11');
});

describeEachDb(
  'logs at debug level carry no token, e-mail or client address',
  (t) => {
    async function fromAddress(client: TestClient, method: 'GET' | 'POST', url: string, payload?: object, ip = CLIENT_V4) {
      return client.request({
        method,
        url,
        remoteAddress: ip,
        ...(payload ? { payload, headers: { 'content-type': 'application/json' } } : {}),
      });
    }

    test('signup, restock mail (one failing), claim link, product page with ?claim=, unsubscribe, a claim path', async () => {
      expect(t().config.LOG_LEVEL).toBe('debug');
      const db = t().database.db;
      const id = await createProduct(db, { name: 'Log Tee', stock: 1, sizes: [] });
      const holder = t().client();
      expect((await holder.post('/api/cart', { productId: id, quantity: 1 })).statusCode).toBe(200);
      expect((await holder.post('/api/customer-info', customer({ email: `holder-${SUBSCRIBER}` }))).statusCode).toBe(200);
      const intent = await startPayment(holder);

      const shopper = t().client();
      const altcha = await solvePow((await shopper.get('/api/pow-challenge')).json());
      const signup = await fromAddress(shopper, 'POST', `/api/products/${id}/alerts`, { email: SUBSCRIBER, altcha });
      expect(signup.statusCode, signup.body).toBe(201);

      // The piece comes back; the first restock mail fails (its error names the address), the job sends it again.
      failNextMail = true;
      await db.update(checkouts).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(checkouts.paymentIntentId, intent.paymentIntentId));
      await t().services.checkout.releaseExpiredHolds();
      await expect.poll(() => failNextMail, { timeout: 10_000 }).toBe(false);
      // The job runs again, as its timer would, until the mail is out: the failed alert is released for the
      // next run only after the send that failed has been recorded, which a busy box may take a while to do.
      await expect
        .poll(
          async () => {
            await t().services.alerts.offerReturnedPieces();
            return sent.some((m) => m.to === SUBSCRIBER);
          },
          { timeout: 10_000 },
        )
        .toBe(true);
      const mail = sent.find((m) => m.to === SUBSCRIBER);
      const claimToken = /\?claim=([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
      const [row] = await db.select().from(productAlerts).where(eq(productAlerts.productId, id));
      const unsubscribeToken = row!.token;

      await fromAddress(shopper, 'GET', `/product/${id}?claim=${claimToken}`);
      expect((await fromAddress(shopper, 'POST', '/api/alerts/claim', { token: claimToken }, CLIENT_V6)).statusCode).toBe(200);
      await fromAddress(shopper, 'GET', `/api/alerts/claim/${claimToken}`);
      expect((await fromAddress(shopper, 'GET', `/api/alerts/unsubscribe?token=${unsubscribeToken}`)).statusCode).toBe(200);
      expect((await fromAddress(shopper, 'POST', `/api/alerts/unsubscribe?token=${unsubscribeToken}`)).statusCode).toBe(200);

      const log = lines.join('');
      // The requests were logged (debug), with their paths…
      expect(log).toContain('"msg":"incoming request"');
      expect(log).toContain('/api/alerts/unsubscribe?[redacted]');
      expect(log).toContain('/api/alerts/claim/[redacted]');
      expect(log).toContain('alert e-mail failed');
      // …and nothing that names the shopper or opens their links.
      for (const secret of [claimToken, unsubscribeToken, SUBSCRIBER, CLIENT_V4, CLIENT_V6, 'remoteAddress', '@example.org'])
        expect(log, secret).not.toContain(secret);
    });
  },
  { env: { LOG_LEVEL: 'debug' }, deps: { mailer, logger: { level: 'debug', stream } } },
);
