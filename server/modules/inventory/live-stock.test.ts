import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, test } from 'vitest';
import type { LiveStock } from '../../../common/contracts/catalog';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/client';
import { buildTestApp, describeEachDb, type TestApp } from '../../../tests/support/build-test-app';
import { confirmOffline, createProduct, customer, startPayment } from '../../../tests/support/shop-fixtures';
import { products } from '../catalog/catalog.tables';

/** A shopper of their own (own e-mail and address, so per-shopper limits never join them) buys one piece. */
async function buyOne(t: TestApp, productId: string): Promise<void> {
  const shopper = t.client();
  const n = crypto.randomBytes(4).toString('hex');
  expect((await shopper.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' })).statusCode).toBe(200);
  const info = await shopper.post('/api/customer-info', customer({ email: `s${n}@example.com`, shippingAddress: `${n} Main St` }));
  expect(info.statusCode, info.body).toBe(200);
  const intent = await startPayment(shopper);
  expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
  const done = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
  expect(done.statusCode, done.body).toBe(200);
}

async function soldOutAt(t: TestApp, id: string): Promise<Date | null> {
  const [row] = await t.database.db.select({ at: products.soldOutAt }).from(products).where(eq(products.id, id));
  return row!.at;
}

/** Reads `event: stock` frames of an SSE response as they arrive. */
function openStream(base: string, productId: string, ip = '127.0.0.1') {
  const events: LiveStock[] = [];
  const waiters: Array<() => void> = [];
  let status = 0;
  let headers: http.IncomingHttpHeaders = {};
  let req!: http.ClientRequest;
  const opened = new Promise<void>((resolve, reject) => {
    const sent = { 'accept-encoding': 'gzip, br', 'x-forwarded-for': ip };
    req = http.get(`${base}/api/products/${productId}/stock/events`, { headers: sent, agent: false }, (res) => {
      status = res.statusCode ?? 0;
      headers = res.headers;
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (block.includes('event: stock') && data) {
            events.push(JSON.parse(data.slice(6)) as LiveStock);
            waiters.splice(0).forEach((w) => w());
          }
        }
      });
      resolve();
    });
    req.on('error', reject);
  });
  return {
    events,
    opened,
    get status() {
      return status;
    },
    get headers() {
      return headers;
    },
    /** The next event matching `match`, within `ms`. */
    async until(match: (e: LiveStock) => boolean, ms = 1_000): Promise<LiveStock> {
      const deadline = Date.now() + ms;
      for (;;) {
        const hit = events.find(match);
        if (hit) return hit;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching stock event within ${ms} ms: ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => req.destroy(),
  };
}

describeEachDb('live stock (ADR 011)', (t) => {
  let base = '';
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
  });

  test('the last piece held in a checkout reads "in checkouts", never sold out, until it sells', async () => {
    const db = t().database.db;
    const id = await createProduct(db, { stock: 1 });
    await db.update(products).set({ editionSize: 1 }).where(eq(products.id, id));
    const stream = openStream(base, id);
    await stream.opened;
    try {
      const shopper = t().client();
      expect((await shopper.post('/api/cart', { productId: id, quantity: 1, selectedSize: 'M' })).statusCode).toBe(200);
      const info = await shopper.post('/api/customer-info', customer({ email: 'held@example.com', shippingAddress: '9 Held St' }));
      expect(info.statusCode, info.body).toBe(200);
      const intent = await startPayment(shopper);
      const held = (await t().app.inject({ method: 'GET', url: `/api/products/${id}/stock` })).json() as LiveStock;
      expect(held).toMatchObject({ left: 0, inStock: false, soldOutAt: null, inCheckouts: true });
      await stream.until((e) => e.inCheckouts === true, 5_000);

      expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
      expect((await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId })).statusCode).toBe(200);
      const sold = (await t().app.inject({ method: 'GET', url: `/api/products/${id}/stock` })).json() as LiveStock;
      expect(sold).toMatchObject({ left: 0, inStock: false, inCheckouts: false });
      expect(sold.soldOutAt).not.toBeNull();
      // The stream says so too: the sale changes nothing but the flag and the story, and still sends a frame.
      await stream.until((e) => e.inCheckouts === false && e.left === 0, 5_000);
    } finally {
      stream.close();
    }
  });

  test('the last sale of the edition stamps sold_out_at; a returned piece clears it', async () => {
    const db = t().database.db;
    const id = await createProduct(db, { stock: 2 });
    await db.update(products).set({ editionSize: 2 }).where(eq(products.id, id));
    await buyOne(t(), id);
    expect(await soldOutAt(t(), id)).toBeNull();
    const before = Date.now();
    await buyOne(t(), id);
    const at = await soldOutAt(t(), id);
    expect(at).not.toBeNull();
    expect(Math.abs(at!.getTime() - before)).toBeLessThan(10_000);

    const stock = await t().app.inject({ method: 'GET', url: `/api/products/${id}/stock` });
    expect(stock.statusCode).toBe(200);
    expect(stock.headers['cache-control']).toBe('no-store');
    const body = stock.json() as LiveStock;
    expect(body).toMatchObject({ productId: id, left: 0, editionSize: 2, inStock: false, soldOutAt: at!.toISOString() });
    expect(body.sellOutSeconds).toBeGreaterThanOrEqual(0);
    // The product itself carries the story (server-rendered page, cards).
    const product = (await t().app.inject({ method: 'GET', url: `/api/products/${id}` })).json() as { soldOutAt: string | null };
    expect(product.soldOutAt).toBe(at!.toISOString());

    // A refunded sale puts the piece back on the shelf: no longer sold out.
    await db.transaction((tx) => t().services.inventory.returnSold(tx, id, [2]));
    expect(await soldOutAt(t(), id)).toBeNull();
    expect((await t().app.inject({ method: 'GET', url: `/api/products/${id}/stock` })).json()).toMatchObject({
      left: 1,
      inStock: true,
      soldOutAt: null,
      sellOutSeconds: null,
    });
  });

  test('stock of an unknown product is a JSON 404', async () => {
    const res = await t().app.inject({ method: 'GET', url: `/api/products/${crypto.randomUUID()}/stock` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Product not found' });
    const stream = await t().app.inject({ method: 'GET', url: `/api/products/${crypto.randomUUID()}/stock/events` });
    expect(stream.statusCode).toBe(404);
    expect(stream.json()).toEqual({ message: 'Product not found' });
  });

  test('the stream sends the numbers at once, the lower number within 1 s of a sale, and the sold-out flip', async () => {
    const db = t().database.db;
    const id = await createProduct(db, { stock: 2 });
    await db.update(products).set({ editionSize: 2 }).where(eq(products.id, id));
    const stream = openStream(base, id);
    await stream.opened;
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.headers['cache-control']).toContain('no-store');
    expect(await stream.until(() => true)).toMatchObject({ productId: id, left: 2, editionSize: 2, inStock: true, soldOutAt: null });

    await buyOne(t(), id);
    const start = Date.now();
    await stream.until((e) => e.left === 1, 1_000);
    expect(Date.now() - start).toBeLessThan(1_000);

    await buyOne(t(), id);
    const out = await stream.until((e) => e.left === 0 && e.soldOutAt !== null, 1_000);
    expect(out.inStock).toBe(false);
    expect(out.sellOutSeconds).not.toBeNull();
    stream.close();
  });

  test('another instance on the same database hears the change through NOTIFY', async () => {
    const otherDb = await openDatabase({ databaseUrl: t().config.DATABASE_URL, poolSize: 5 });
    const other = await buildApp(t().config, { database: otherDb, sessionSecret: 'test-session-secret-test-session-secret-0123', logger: false });
    try {
      await other.listen({ port: 0, host: '127.0.0.1' });
      const otherBase = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
      const id = await createProduct(t().database.db, { stock: 3 });
      const stream = openStream(otherBase, id);
      await stream.opened;
      await stream.until((e) => e.left === 3);
      await buyOne(t(), id);
      await stream.until((e) => e.left === 2, 1_000);
      stream.close();
    } finally {
      await other.close();
      await otherDb.close();
    }
  });

  test('streams beyond the cap are refused with 503 and Retry-After', async () => {
    const id = await createProduct(t().database.db, { stock: 3 });
    const hub = t().services.liveStock;
    const streams = [];
    // Fill the hub to its cap through the real route.
    // One cap for every stream of the instance (live stock and the waiting room: one hub).
    const cap = t().config.STREAMS_PER_INSTANCE!;
    expect(cap).toBe(3);
    const toOpen = cap - hub.size;
    for (let i = 0; i < toOpen; i++) {
      const s = openStream(base, id, `10.40.0.${i + 1}`);
      await s.opened;
      await s.until(() => true);
      streams.push(s);
    }
    const refused = await fetch(`${base}/api/products/${id}/stock/events`, { headers: { 'x-forwarded-for': '10.40.0.99' } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(((await refused.json()) as { message: string }).message).toMatch(/try again/);
    for (const s of streams) s.close();
    await expect.poll(() => hub.size).toBe(0);
  });

  test('1,000 stream requests dropped at every moment leave 0 slots in use (the cap is 3); a new stream is 200', async () => {
    const id = await createProduct(t().database.db, { stock: 3 });
    const hub = t().services.liveStock;
    const drop = (ip: string, afterMs: number) =>
      new Promise<void>((resolve) => {
        const req = http.get(`${base}/api/products/${id}/stock/events`, { headers: { 'x-forwarded-for': ip }, agent: false });
        req.on('error', () => undefined);
        req.on('close', () => resolve());
        if (afterMs === 0) req.on('finish', () => req.destroy());
        else setTimeout(() => req.destroy(), afterMs);
      });
    for (let batch = 0; batch < 10; batch++)
      await Promise.all(Array.from({ length: 100 }, (_, i) => drop(`10.41.${batch}.${i}`, i % 3 === 0 ? 0 : i % 9)));
    await expect.poll(() => hub.size, { timeout: 5000 }).toBe(0);
    const fresh = openStream(base, id, '10.41.200.1');
    await fresh.opened;
    expect(fresh.status).toBe(200);
    expect(await fresh.until(() => true)).toMatchObject({ productId: id, left: 3 });
    fresh.close();
    await expect.poll(() => hub.size).toBe(0);
  });

  test('one address holds 2 streams (STREAMS_PER_ADDRESS): the third is 429 with Retry-After and the message; another address gets one', async () => {
    const id = await createProduct(t().database.db, { stock: 3 });
    const hub = t().services.liveStock;
    const mine = [openStream(base, id, '10.42.0.1'), openStream(base, id, '10.42.0.1')];
    for (const s of mine) await s.until(() => true);
    expect(hub.heldBy('10.42.0.1')).toBe(2);
    const refused = await fetch(`${base}/api/products/${id}/stock/events`, { headers: { 'x-forwarded-for': '10.42.0.1' } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toEqual({ message: 'Too many open streams from your network. Close a tab or try again shortly.' });
    const other = openStream(base, id, '10.42.0.2');
    await other.opened;
    expect(other.status).toBe(200);
    for (const s of [...mine, other]) s.close();
    await expect.poll(() => hub.size).toBe(0);
  });

  test('closing the app ends open streams (shutdown does not hang)', async () => {
    const other = await buildTestApp();
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const otherBase = `http://127.0.0.1:${(other.app.server.address() as AddressInfo).port}`;
    const id = await createProduct(other.database.db, { stock: 3 });
    const stream = openStream(otherBase, id);
    await stream.opened;
    await stream.until(() => true);
    const start = Date.now();
    await other.close();
    expect(Date.now() - start).toBeLessThan(5_000);
  });
}, { env: { STREAMS_PER_INSTANCE: '3', STREAMS_PER_ADDRESS: '2' } });
