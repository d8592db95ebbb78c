import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import {
  CERTIFICATE_NOT_FOUND,
  certificateSchema,
  FIND_ORDER_ANSWER,
  latestOrderSchema,
  ORDER_NOT_FOUND,
  orderViewSchema,
  type OrderView,
} from '../../../common/contracts/orders';
import { formatShopDate, shipByDate } from '../../../common/domain/ship-by';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { confirmOffline, createProduct, customer, readyShopper, startPayment } from '../../../tests/support/shop-fixtures';
import { createKeyService } from '../../lib/keys';
import { createOrderLinks } from './order-links';
import { orders } from './orders.tables';

const SECRET = 'test-session-secret-test-session-secret-0123';

/** Buys one piece (or `quantity`) of a new product and answers the success page's order. */
async function buy(t: TestApp, opts: { quantity?: number; email?: string; releaseAt?: Date; name?: string } = {}) {
  const productId = await createProduct(t.database.db, { stock: 50, name: opts.name, releaseAt: opts.releaseAt });
  const shopper = await readyShopper(t, productId, { quantity: opts.quantity });
  if (opts.email) await shopper.post('/api/customer-info', customer({ email: opts.email }));
  const intent = await startPayment(shopper);
  expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
  const latest = await shopper.get('/api/orders/latest');
  expect(latest.statusCode, latest.body).toBe(200);
  return { shopper, order: latestOrderSchema.parse(latest.json()) };
}

/** The API path of an order page path ('/orders/N?key=K' → '/api/orders/N?key=K'). */
const apiOf = (pagePath: string) => `/api${pagePath}`;

function outbox(t: TestApp): string[] {
  const dir = path.join(t.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  // Quoted-printable soft line breaks joined, so links read whole.
  return fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='));
}

function expectNotFound(res: { statusCode: number; json(): unknown; body: string }) {
  expect(res.statusCode).toBe(404);
  expect(res.json()).toEqual({ message: ORDER_NOT_FOUND });
}

describeEachDb('order page: signed links, Find my order, certificates', (t) => {
  test('the signed link of the success page shows the order: status, pieces, address, totals, ship-by date', async () => {
    const { shopper, order } = await buy(t(), { quantity: 2, name: 'Order Page Tee' });
    expect(order.orderPath).toMatch(new RegExp(`^/orders/${order.orderNumber}\\?key=[\\w-]{22}$`));
    // Another browser (the link opened from the mail on a phone) sees it too: the key is all it needs.
    for (const client of [shopper, t().client()]) {
      const res = await client.get(apiOf(order.orderPath));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      const view = orderViewSchema.parse(res.json());
      expect(view).toMatchObject({
        orderNumber: order.orderNumber,
        status: 'pending',
        customerName: 'Ada Lovelace',
        shippingAddress: { address: order.shippingAddress, city: order.shippingCity, zip: order.shippingZip, country: 'US' },
        subtotal: order.subtotal,
        total: order.total,
        isTest: true,
        tracking: null,
      });
      expect(view.items).toHaveLength(1);
      expect(view.items[0]).toMatchObject({ productName: 'Order Page Tee', quantity: 2, selectedSize: 'M', editionSize: 50 });
      expect(view.items[0]!.pieces.map((p) => p.editionNumber)).toEqual([1, 2]);
      // The promise is kept on the order (an in-stock piece: two business days, the shop's calendar).
      expect(view.shipBy).toBe(shipByDate(new Date(view.placedAt), { limitedDrop: false, timeZone: t().config.SHOP_TIME_ZONE }));
      expect(order.shipBy).toBe(view.shipBy);
      // Nothing the page does not need: no payment id, no session, no e-mail address, no internal ids.
      expect(res.body).not.toContain(order.stripePaymentIntentId);
      expect(res.body).not.toContain(order.id);
      expect(res.body).not.toContain('ada@example.com');
    }
  });

  test('the admin sees the ship-by date, and an unshipped order past it is late', async () => {
    const { order } = await buy(t(), { email: 'late@example.com' });
    const db = t().database.db;
    const admin = async () => (await t().services.orders.listOrders({ q: 'late@example.com' }))[0]!;
    expect(await admin()).toMatchObject({ shipBy: order.shipBy, shipLate: false });
    await db.update(orders).set({ shipBy: '2020-01-06' }).where(eq(orders.id, order.id));
    expect(await admin()).toMatchObject({ shipBy: '2020-01-06', shipLate: true });
    await t().services.orders.updateStatus(order.id, 'shipped');
    expect(await admin()).toMatchObject({ shipLate: false });
  });

  test('a limited drop ships by a day later than an in-stock piece ordered at the same time', async () => {
    const { order } = await buy(t(), { releaseAt: new Date(Date.now() - 30 * 24 * 3600_000) });
    const placed = new Date(order.createdAt);
    expect(order.shipBy).toBe(shipByDate(placed, { limitedDrop: true, timeZone: t().config.SHOP_TIME_ZONE }));
    expect(order.shipBy! > shipByDate(placed, { limitedDrop: false, timeZone: t().config.SHOP_TIME_ZONE })).toBe(true);
  });

  test('a forged key, another order’s key, a key for another purpose or none: 404, the same answer, nothing leaked', async () => {
    const a = (await buy(t())).order;
    const b = (await buy(t())).order;
    const keyOf = (p: string) => new URL(p, 'http://x').searchParams.get('key')!;
    const links = createOrderLinks(createKeyService(SECRET));
    expect(keyOf(a.orderPath)).toBe(links.viewKey(a.orderNumber));
    const view = (await t().client().get(apiOf(a.orderPath))).json() as OrderView;
    const certificateId = view.items[0]!.pieces[0]!.certificateId;
    const attempts = [
      `/api/orders/${a.orderNumber}`,
      `/api/orders/${a.orderNumber}?key=`,
      `/api/orders/${a.orderNumber}?key=${keyOf(b.orderPath)}`,
      `/api/orders/${b.orderNumber}?key=${keyOf(a.orderPath)}`,
      `/api/orders/${a.orderNumber}?key=${'A'.repeat(22)}`,
      `/api/orders/${a.orderNumber}?key=${keyOf(a.orderPath).slice(0, -1)}`,
      // The same order signed for another purpose, and signed with another shop's secret.
      `/api/orders/${a.orderNumber}?key=${links.sign('certificate', a.orderNumber)}`,
      `/api/orders/${a.orderNumber}?key=${certificateId}`,
      `/api/orders/${a.orderNumber}?key=${createOrderLinks(createKeyService('another-secret')).viewKey(a.orderNumber)}`,
      `/api/orders/${a.orderNumber.toLowerCase()}?key=${keyOf(a.orderPath)}`,
      `/api/orders/FIFTY-ZZZZ-ZZZZ?key=${links.viewKey('FIFTY-ZZZZ-ZZZZ')}`,
    ];
    for (const url of attempts) {
      const res = await t().client().get(url);
      expectNotFound(res);
      expect(res.body).not.toContain(a.customerLastName);
    }
    // Bad input is a 400 { message }, never a 500.
    const long = await t().client().get(`/api/orders/${'X'.repeat(41)}?key=x`);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toHaveProperty('message');
  });

  test('the confirmation and shipped mails carry the link, and it opens the order', async () => {
    const { order } = await buy(t(), { email: 'linked@example.com', name: 'Mailed Link Tee' });
    await t().services.fulfilment.drain();
    const confirmation = outbox(t()).find((m) => m.includes(`order ${order.orderNumber} confirmed`));
    expect(confirmation).toBeDefined();
    const url = `http://localhost:${t().config.PORT}${order.orderPath}`;
    expect(confirmation).toContain(url);
    expect(confirmation).toContain('View your order');
    expect(confirmation).toContain(`Ships by: ${formatShopDate(order.shipBy!)}`);
    expect((await t().client().get(apiOf(new URL(url).pathname + new URL(url).search))).statusCode).toBe(200);

    await t().services.orders.updateStatus(order.id, 'shipped', { trackingNumber: '1Z999', carrier: 'ups' });
    await t().services.orders.drainMail();
    const shipped = outbox(t()).find((m) => m.includes(`order ${order.orderNumber} has shipped`));
    expect(shipped).toContain(url);
    const view = orderViewSchema.parse((await t().client().get(apiOf(order.orderPath))).json());
    expect(view.status).toBe('shipped');
    expect(view.tracking).toEqual({ number: '1Z999', carrier: 'ups', url: 'https://www.ups.com/track?tracknum=1Z999' });
  });

  test('Find my order answers the same for a right and a wrong pair, and mails the link only on a match', async () => {
    const { order } = await buy(t(), { email: 'finder@example.com' });
    await t().services.fulfilment.drain();
    const linkMails = () => outbox(t()).filter((m) => m.includes(`the link to your order ${order.orderNumber}`));
    expect(linkMails()).toHaveLength(0);

    const find = (client: TestClient, body: object) => client.post('/api/orders/find', body);
    const wrong = [
      { orderNumber: order.orderNumber, email: 'someone-else@example.com' },
      { orderNumber: 'FIFTY-ZZZZ-ZZZZ', email: 'finder@example.com' },
      { orderNumber: order.orderNumber.replace(/.$/, (c) => (c === '2' ? '3' : '2')), email: 'finder@example.com' },
    ];
    const answers = [];
    for (const body of wrong) answers.push(await find(t().client(), body));
    await t().services.orders.drainMail();
    expect(linkMails()).toHaveLength(0);

    // The right pair, typed as people type it: lower case number, the address in another spelling of the mailbox.
    answers.push(await find(t().client(), { orderNumber: order.orderNumber.toLowerCase(), email: ' Finder@Example.com ' }));
    for (const res of answers) {
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ message: FIND_ORDER_ANSWER });
      expect(Object.keys(res.headers).sort()).toEqual(Object.keys(answers[0]!.headers).sort());
    }
    await t().services.orders.drainMail();
    const mails = linkMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('To: finder@example.com');
    const link = /http:\/\/localhost:\d+(\/orders\/[^\s"<]+)/.exec(mails[0]!)![1]!;
    expect(link).toBe(order.orderPath);
    expect((await t().client().get(apiOf(link))).statusCode).toBe(200);

    const bad = await find(t().client(), { orderNumber: order.orderNumber, email: 'not an address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: expect.any(String) });
  });

  test('a piece’s certificate: product, number and date, nothing personal; forged or cancelled: 404', async () => {
    const { order } = await buy(t(), { quantity: 2, name: 'Certified Hoodie', email: 'private-person@example.com' });
    const view = orderViewSchema.parse((await t().client().get(apiOf(order.orderPath))).json());
    const [first, second] = view.items[0]!.pieces;
    expect(first!.certificateId).not.toBe(second!.certificateId);
    const res = await t().client().get(`/api/certificates/${second!.certificateId}`);
    expect(res.statusCode, res.body).toBe(200);
    const cert = certificateSchema.parse(res.json());
    expect(cert).toEqual({
      productName: 'Certified Hoodie',
      productImage: order.items[0]!.productImage,
      editionNumber: second!.editionNumber,
      editionSize: 50,
      madeOn: view.placedAt.slice(0, 10),
    });
    for (const personal of [
      order.orderNumber,
      order.id,
      'private-person',
      order.customerFirstName,
      order.customerLastName,
      order.shippingAddress,
      order.shippingZip,
      order.stripePaymentIntentId,
    ])
      expect(res.body).not.toContain(personal);

    const id = second!.certificateId;
    const links = createOrderLinks(createKeyService(SECRET));
    const { orderItemId } = links.readCertificateId(id)!;
    const forged = [
      id.slice(0, -1) + (id.endsWith('A') ? 'B' : 'A'),
      // Another number on the same line, signed by nobody.
      id.slice(0, 24) + first!.certificateId.slice(24),
      // The same piece signed with another shop's secret, or signed as a view key.
      createOrderLinks(createKeyService('another-secret')).certificateId(orderItemId, second!.editionNumber),
      links.sign('view-order', id.slice(0, 24)),
      'not-a-certificate',
      // A view key is not a certificate.
      new URL(order.orderPath, 'http://x').searchParams.get('key')!,
    ];
    for (const bad of forged) {
      const r = await t().client().get(`/api/certificates/${encodeURIComponent(bad)}`);
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ message: CERTIFICATE_NOT_FOUND });
    }
    // A piece not on its line (signed right, but never sold there) is not certified either.
    expect((await t().client().get(`/api/certificates/${links.certificateId(orderItemId, 49)}`)).statusCode).toBe(404);
    const [row] = await t().database.db.select({ id: orders.id }).from(orders).where(eq(orders.orderNumber, order.orderNumber));
    // A cancelled order's pieces go back: their certificates stop.
    await t().services.orders.updateStatus(row!.id, 'cancelled');
    expect((await t().client().get(`/api/certificates/${id}`)).statusCode).toBe(404);
  });
});

describeEachDb(
  'order page: rate limit of Find my order, and no key in the logs',
  (t) => {
    test(`Find my order: 3 per e-mail address in 15 minutes whatever the session, then 429`, async () => {
      const body = { orderNumber: 'FIFTY-AAAA-AAAA', email: 'limited@example.com' };
      for (let i = 0; i < 3; i++) expect((await t().client().post('/api/orders/find', body)).statusCode).toBe(202);
      const refused = await t().client().post('/api/orders/find', { ...body, email: 'LIMITED@example.com' });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.json()).toEqual({ message: expect.stringMatching(/^Too many requests\. Please try again in \d+ seconds\.$/) });
      // Another address is not held up by it.
      expect((await t().client().post('/api/orders/find', { ...body, email: 'other@example.com' })).statusCode).toBe(202);
    });
  },
  { env: { RATE_LIMITS: 'on' } },
);

const logLines: string[] = [];
describeEachDb(
  'order page: the key never reaches a log line',
  (t) => {
    test('request logs carry the order page and API paths without the key', async () => {
      const { order } = await buy(t());
      const key = new URL(order.orderPath, 'http://x').searchParams.get('key')!;
      logLines.length = 0;
      expect((await t().client().get(apiOf(order.orderPath))).statusCode).toBe(200);
      expect((await t().client().get(`/api/orders/${order.orderNumber}?key=${key}x`)).statusCode).toBe(404);
      await t().client().get(order.orderPath);
      const logged = logLines.join('\n');
      expect(logged).toContain(`/api/orders/${order.orderNumber}?[redacted]`);
      expect(logged).not.toContain(key);
    });
  },
  {
    env: { LOG_LEVEL: 'debug' },
    deps: {
      logger: {
        stream: new Writable({
          write(chunk: Buffer, _enc, done) {
            logLines.push(chunk.toString());
            done();
          },
        }),
      },
    },
  },
);
