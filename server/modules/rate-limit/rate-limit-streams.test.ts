import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, onTestFinished, test, vi } from 'vitest';
import { describeEachDb, type TestApp } from '../../../tests/support/build-test-app';
import { createDrop, joinDrop } from '../../../tests/support/drops';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { registerErrorHandler } from '../../plugins/error-handler';
import { createRateLimitCounter } from './rate-limit.store';
import { rateLimits } from './rate-limit.tables';
import { RATE_LIMITS, rateLimitKey, registerRateLimits, tooManyRequestsMessage } from './rate-limits';

/** Opens an event stream, reads its first frame (or its refusal), then hangs up; resolves with the status. */
function openAndClose(base: string, path: string, ip: string, cookie = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) }, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (status === 200 && body.includes('\n\n')) {
          req.destroy();
          resolve(status);
        }
      });
      res.on('end', () => resolve(status));
      res.on('error', () => undefined);
    });
    req.on('error', reject);
  });
}

function expectRefused(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.json()).toEqual({ message: tooManyRequestsMessage(retryAfter) });
}

/** Time moves on by `ms` for the app (its Date) and for the shared counters (their windows end as the database's clock would end them). */
async function timePasses(t: TestApp, ms: number): Promise<void> {
  vi.setSystemTime(Date.now() + ms);
  await t.database.db.execute(sql`update rate_limits set reset_at = reset_at - ${ms} * interval '1 millisecond'`);
}

const FACTOR = 0.1;

describeEachDb(
  'rate limits and event streams: a stream counts once and holds no place in flight',
  (t) => {
    let base = '';
    beforeAll(async () => {
      await t().app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    });

    test('an address opens and closes its whole minute of waiting-room streams: each counted once, none held; the shopper behind it waits for the window, not for a restart', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      onTestFinished(() => void vi.useRealTimers());
      const ip = '10.90.0.1';
      const budget = Math.round(RATE_LIMITS['drop-status'].address.max * FACTOR);
      const id = await createDrop(t(), 5 * 60_000, { stock: 5 });
      // A real shopper in the line, behind the same address (a carrier NAT, an office).
      const shopper = t().client();
      expect((await joinDrop(shopper, id, { ip })).statusCode).toBe(201);

      // The attack: the address's whole budget of stream opens (no cookie, no proof of work), 20 at a time
      // (under the hub's cap of streams per address), each closed as soon as its first status arrives.
      const statuses: number[] = [];
      for (let i = 0; i < budget; i += 20) {
        statuses.push(...(await Promise.all(Array.from({ length: 20 }, () => openAndClose(base, `/api/drops/${id}/events`, ip)))));
        await expect.poll(() => t().services.liveStock.heldBy(ip)).toBe(0);
      }
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      // Each open counted once in the shared table (it took a slot and a read), even though its reply was hijacked.
      await t().services.rateLimitCounter.idle();
      const [row] = await t()
        .database.db.select({ count: rateLimits.count })
        .from(rateLimits)
        .where(eq(rateLimits.key, rateLimitKey('drop-status', 'address', ip)));
      expect(row?.count).toBe(budget);

      // This minute of the address is spent, so its shopper is told to wait (at most the window)…
      const read = () => shopper.request({ method: 'GET', url: `/api/drops/${id}`, remoteAddress: ip });
      expectRefused(await read());
      // …and once the window ends, every call of the waiting room works again for them: no place was left held.
      await timePasses(t(), 61_000);
      const status = await read();
      expect(status.statusCode, status.body).toBe(200);
      const heartbeat = await shopper.request({
        method: 'POST',
        url: `/api/drops/${id}/ticket/heartbeat`,
        payload: { visible: true },
        headers: { 'content-type': 'application/json' },
        remoteAddress: ip,
      });
      expect(heartbeat.statusCode, heartbeat.body).toBe(200);
      expect(await openAndClose(base, `/api/drops/${id}/events`, ip, shopper.cookieHeader)).toBe(200);
      const leave = await shopper.request({ method: 'DELETE', url: `/api/drops/${id}/queue`, remoteAddress: ip });
      expect(leave.statusCode, leave.body).toBe(200);
    });

    test('a shopper views 130 product pages in one session (live stock opened and closed on each, 2 s apart): live stock never stops', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      onTestFinished(() => void vi.useRealTimers());
      const ip = '10.91.0.1';
      const ids = await Promise.all(Array.from({ length: 10 }, () => createProduct(t().database.db, { stock: 5, sizes: [] })));
      const shopper = t().client();
      expect((await shopper.request({ method: 'POST', url: '/api/cart', payload: { productId: ids[0], quantity: 1 }, remoteAddress: ip })).statusCode).toBe(200);
      expect(shopper.cookies.size).toBe(1);
      // More pages than the session's budget of a minute (120): spread over four minutes, as a shopper browses.
      const pages = RATE_LIMITS['stock-status'].session.max + 10;
      const refused: number[] = [];
      for (let page = 0; page < pages; page++) {
        const status = await openAndClose(base, `/api/products/${ids[page % ids.length]}/stock/events`, ip, shopper.cookieHeader);
        if (status !== 200) refused.push(page);
        await timePasses(t(), 2_000);
      }
      expect(refused).toEqual([]);
      const stock = await shopper.request({ method: 'GET', url: `/api/products/${ids[0]}/stock`, remoteAddress: ip });
      expect(stock.statusCode, stock.body).toBe(200);
      await expect.poll(() => t().services.liveStock.heldBy(ip)).toBe(0);
    });
  },
  { env: { RATE_LIMIT_ADDRESS_FACTOR: String(FACTOR) } },
);

describeEachDb('rate limits: places in flight', (t) => {
  const MAX = 30;
  /** Requests of /held wait here until the test lets them answer (a 404: costs nothing, so nothing is counted). */
  const gates: Array<{ wave: number; open: () => void }> = [];
  let wave = 0;
  let app: FastifyInstance;
  let base = '';

  beforeAll(async () => {
    app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.decorateRequest('readSignedCookie', () => null);
    // 'drop-status' at 3,000 a minute per address × 0.01: 30.
    await registerRateLimits(app, { counter: createRateLimitCounter(t().database.db), addressFactor: MAX / RATE_LIMITS['drop-status'].address.max });
    app.get('/held', { config: { rateLimited: 'drop-status' } }, async (_request, reply) => {
      const mine = wave;
      await new Promise<void>((open) => gates.push({ wave: mine, open }));
      return reply.code(404).send({ message: 'Not found' });
    });
    // Any route that takes the socket over (not only the shop's streams), whose client then leaves.
    app.get('/hijacked', { config: { rateLimited: 'drop-status' } }, async (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      reply.raw.write('taken over\n\n');
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
  });

  const held = (ip: string) => app.inject({ method: 'GET', url: '/held', remoteAddress: ip });
  const openWave = (n: number) => {
    for (const g of gates.filter((g) => g.wave === n)) g.open();
  };

  test('places in flight never exceed the window’s max and are not carried into the next window', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    onTestFinished(() => void vi.useRealTimers());
    const ip = '10.92.0.1';
    const first = Array.from({ length: MAX + 10 }, () => held(ip));
    await expect.poll(() => gates.filter((g) => g.wave === 0).length).toBe(MAX);
    // The rest of the burst is refused while the 30 are under way.
    const refusedNow = await Promise.all(Array.from({ length: 5 }, () => held(ip)));
    for (const r of refusedNow) expectRefused(r);

    // The window ends with the 30 still under way: the new window starts with none in flight…
    wave = 1;
    vi.setSystemTime(Date.now() + 61_000);
    const second = Array.from({ length: MAX + 10 }, () => held(ip));
    await expect.poll(() => gates.filter((g) => g.wave === 1).length).toBe(MAX);
    // …and the first window's requests, ending now, give nothing back to the second: it stays full.
    openWave(0);
    const firstDone = await Promise.all(first);
    expect(firstDone.filter((r) => r.statusCode === 404)).toHaveLength(MAX);
    for (const r of firstDone.filter((r) => r.statusCode !== 404)) expectRefused(r);
    expectRefused(await held(ip));

    openWave(1);
    const secondDone = await Promise.all(second);
    expect(secondDone.filter((r) => r.statusCode === 404)).toHaveLength(MAX);
    // All answered (uncounted): the window has its 30 places again, no more.
    wave = 2;
    const third = Array.from({ length: MAX + 5 }, () => held(ip));
    await expect.poll(() => gates.filter((g) => g.wave === 2).length).toBe(MAX);
    openWave(2);
    expect((await Promise.all(third)).filter((r) => r.statusCode === 404)).toHaveLength(MAX);
  });

  test('a request whose reply is hijacked gives its place back when its client leaves', async () => {
    const ip = '10.92.0.2';
    const statuses: number[] = [];
    for (let i = 0; i < MAX + 10; i++) statuses.push(await openAndClose(base, '/hijacked', ip));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    await expect.poll(() => new Promise<number>((resolve) => app.server.getConnections((_err, n) => resolve(n)))).toBe(0);
    // Nothing under way is left: a full burst of held requests still gets all 30 places.
    wave = 3;
    const burst = Array.from({ length: MAX }, () => held(ip));
    await expect.poll(() => gates.filter((g) => g.wave === 3).length).toBe(MAX);
    openWave(3);
    expect((await Promise.all(burst)).map((r) => r.statusCode)).toEqual(Array(MAX).fill(404));
  });
});
