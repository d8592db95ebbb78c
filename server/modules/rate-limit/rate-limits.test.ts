import { eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/client';
import { describeEachDb, TestClient, type TestApp } from '../../../tests/support/build-test-app';
import { createProduct, customer } from '../../../tests/support/shop-fixtures';
import { rateLimitKey, RATE_LIMITS, tooManyRequestsMessage, type LimitedAction } from './rate-limits';
import { createRateLimitCounter } from './rate-limit.store';
import { rateLimits } from './rate-limit.tables';

/** A shopper behind `address` (app.inject's remote address), with their own cookie jar. */
class ShopperAt extends TestClient {
  constructor(
    app: TestApp['app'],
    readonly address: string,
  ) {
    super(app);
  }
  override request(opts: Parameters<TestClient['request']>[0]) {
    return super.request({ ...opts, remoteAddress: this.address });
  }
}

let nextAddress = 1;
/** A fresh documentation address (203.0.113.0/24, 198.51.100.0/24) per test, so budgets do not mix. */
const freshAddress = () => {
  const n = nextAddress++;
  return n < 250 ? `203.0.113.${n}` : `198.51.100.${n - 249}`;
};

function expectRefused(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(600);
  expect(res.json()).toEqual({ message: tooManyRequestsMessage(retryAfter) });
  expect(res.json().message).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
  expect(res.headers['content-type']).toMatch(/application\/json/);
}

const notLimited = (res: LightMyRequestResponse) => expect(res.statusCode, res.body).not.toBe(429);

describeEachDb('rate limits: per session (strict), per address (generous)', (t) => {
  let productId = '';
  const product = async () => (productId ||= await createProduct(t().database.db, { stock: 50, sizes: [] }));

  /** A shopper with a session (the cookie comes with their first cart line). */
  async function shopperWithSession(address = freshAddress()): Promise<ShopperAt> {
    const s = new ShopperAt(t().app, address);
    notLimited(await s.post('/api/cart', { productId: await product(), quantity: 1 }));
    expect(s.cookies.size).toBe(1);
    return s;
  }

  // (The waiting room's join and status limits are tested with the drops: server/modules/drops/drops.test.ts and
  // drops-live.test.ts; live stock's with live-stock.test.ts; 'Notify me' with the alerts; "Find my order" with the
  // order page, server/modules/orders/order-page.test.ts.)
  const calls: Record<Exclude<LimitedAction, 'newsletter' | 'drop-join' | 'alerts' | 'drop-status' | 'stock-status' | 'order-lookup'>, (s: ShopperAt) => Promise<LightMyRequestResponse>> = {
    'cart-add': async (s) => s.post('/api/cart', { productId: await product(), quantity: 1 }),
    'customer-info': (s) => s.post('/api/customer-info', customer()),
    discount: (s) => s.post('/api/validate-discount', { code: 'FALL15' }),
    'payment-intent': (s) => s.post('/api/create-payment-intent', {}),
  };

  for (const [action, call] of Object.entries(calls) as Array<[keyof typeof calls, (s: ShopperAt) => Promise<LightMyRequestResponse>]>) {
    test(`${action}: ${RATE_LIMITS[action].session.max} a minute per session, then 429 + Retry-After; another session behind the same address goes on`, async () => {
      const address = freshAddress();
      const shopper = await shopperWithSession(address);
      if (action === 'payment-intent') notLimited(await shopper.post('/api/customer-info', customer()));
      // (The cart line that made the session came without a cookie: only its address counted it.)
      for (let i = 0; i < RATE_LIMITS[action].session.max; i++) notLimited(await call(shopper));
      expectRefused(await call(shopper));
      expectRefused(await call(shopper));

      const other = await shopperWithSession(address);
      if (action === 'payment-intent') notLimited(await other.post('/api/customer-info', customer()));
      const res = await call(other);
      expect(res.statusCode, res.body).toBe(200);
    });
  }

  test(`newsletter: ${RATE_LIMITS.newsletter.identity!.max} signups per e-mail address in 10 minutes, whatever the session; ${RATE_LIMITS.newsletter.session.max} a minute per session`, async () => {
    const address = freshAddress();
    const email = `limit-${Date.now()}@example.com`;
    const statuses = [];
    for (let i = 0; i < RATE_LIMITS.newsletter.identity!.max; i++)
      statuses.push((await new ShopperAt(t().app, address).post('/api/newsletter', { email })).statusCode);
    // A repeat reads like a new signup (docs/security.md, "Who is on the list"), and still counts.
    expect(statuses).toEqual([201, 201, 201]);
    expectRefused(await new ShopperAt(t().app, address).post('/api/newsletter', { email }));
    expect((await new ShopperAt(t().app, address).post('/api/newsletter', { email: `other-${email}` })).statusCode).toBe(201);

    const shopper = await shopperWithSession(address);
    for (let i = 0; i < RATE_LIMITS.newsletter.session.max; i++)
      notLimited(await shopper.post('/api/newsletter', { email: `s${i}-${email}` }));
    expectRefused(await shopper.post('/api/newsletter', { email: `s-last-${email}` }));
  });

  test('a refused session does not use up its address: the strict limit is counted first', async () => {
    const address = freshAddress();
    const shopper = await shopperWithSession(address);
    const results = await Promise.all(Array.from({ length: 40 }, () => calls.discount(shopper)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(RATE_LIMITS.discount.session.max);
    for (const r of results.filter((r) => r.statusCode !== 200)) expectRefused(r);
    const [row] = await t()
      .database.db.select({ count: rateLimits.count })
      .from(rateLimits)
      .where(eq(rateLimits.key, rateLimitKey('discount', 'address', address)));
    expect(row?.count).toBe(RATE_LIMITS.discount.session.max);
  });

  test('50 shoppers behind one address all check out in the same minute', async () => {
    const address = freshAddress();
    const db = t().database.db;
    const ids = [
      await createProduct(db, { stock: 50, sizes: [] }),
      await createProduct(db, { stock: 50, sizes: [] }),
      await createProduct(db, { stock: 50, sizes: [] }),
    ];
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, async (_, n) => {
        const s = new ShopperAt(t().app, address);
        // A real shopper's minute: a few cart adds, details saved twice, a code tried twice, two intents.
        const statuses: number[] = [];
        for (const productId of ids) statuses.push((await s.post('/api/cart', { productId, quantity: 1 })).statusCode);
        statuses.push((await s.post('/api/customer-info', customer({ email: `nat${n}@example.com` }))).statusCode);
        statuses.push((await s.post('/api/customer-info', customer({ email: `nat${n}@example.com` }))).statusCode);
        statuses.push((await s.post('/api/validate-discount', { code: 'NOPE' })).statusCode);
        statuses.push((await s.post('/api/validate-discount', { code: 'FALL15' })).statusCode);
        statuses.push((await s.post('/api/create-payment-intent', {})).statusCode);
        statuses.push((await s.post('/api/create-payment-intent', {})).statusCode);
        return statuses;
      }),
    );
    const all = outcomes.flat();
    expect(all.filter((s) => s === 429)).toEqual([]);
    expect(outcomes.filter((s) => s[7] !== 200)).toEqual([]);
  });

  test(`per address: ${RATE_LIMITS.discount.address.max} code checks a minute without a session, then 429`, async () => {
    const address = freshAddress();
    const anonymous = () => new ShopperAt(t().app, address).post('/api/validate-discount', { code: 'FALL15' });
    const max = RATE_LIMITS.discount.address.max;
    const results = await Promise.all(Array.from({ length: max }, anonymous));
    expect(results.filter((r) => r.statusCode !== 200).map((r) => r.body)).toEqual([]);
    expectRefused(await anonymous());
    // Another address is not affected.
    expect((await new ShopperAt(t().app, freshAddress()).post('/api/validate-discount', { code: 'FALL15' })).statusCode).toBe(200);
  });

  test('IPv6 addresses share a budget per /48 (IPV6_PREFIX): 60 /64s of one /48 are one address', () => {
    const keys = new Set(Array.from({ length: 60 }, (_, i) => rateLimitKey('cart-add', 'address', `2001:db8:1:${i.toString(16)}::5`)));
    expect(keys.size).toBe(1);
    expect(rateLimitKey('cart-add', 'address', '2001:db8:1:2::5')).not.toBe(rateLimitKey('cart-add', 'address', '2001:db8:2:2::5'));
    expect(rateLimitKey('cart-add', 'address', '::ffff:203.0.113.9')).toBe(rateLimitKey('cart-add', 'address', '203.0.113.9'));
    expect(rateLimitKey('cart-add', 'address', '2001:db8:1:2::5', 64)).not.toBe(rateLimitKey('cart-add', 'address', '2001:db8:1:3::5', 64));
  });

  test('junk from one address (bad proofs of work, empty payment intents, bad bodies) spends none of its budget and writes no row; a real shopper behind it goes on', async () => {
    const address = freshAddress();
    const db = t().database.db;
    const rowsOf = async () =>
      (await db.select({ key: rateLimits.key }).from(rateLimits)).filter((r) =>
        (['newsletter', 'payment-intent', 'cart-add', 'alerts', 'drop-join'] as const).some(
          (a) => r.key === rateLimitKey(a, 'address', address),
        ),
      ).length;
    const before = await rowsOf();
    const junk = await Promise.all([
      // Cookieless signups whose proof of work is junk, each with another e-mail.
      ...Array.from({ length: 150 }, (_, i) =>
        new ShopperAt(t().app, address).post('/api/newsletter', { email: `junk${i}@example.com`, altcha: 'bm90LWEtcHJvb2Y=' }),
      ),
      // Empty payment intents (no cart, no details) and bodies that fail validation.
      ...Array.from({ length: 150 }, () => new ShopperAt(t().app, address).post('/api/create-payment-intent', {})),
      ...Array.from({ length: 150 }, () => new ShopperAt(t().app, address).post('/api/cart', { productId: 'nope', quantity: -1 })),
    ]);
    expect(junk.filter((r) => r.statusCode < 400 || r.statusCode === 429).map((r) => r.statusCode)).toEqual([]);
    await t().services.rateLimitCounter.idle();
    expect((await rowsOf()) - before).toBe(0);
    expect(await db.select({ key: rateLimits.key }).from(rateLimits).where(eq(rateLimits.key, rateLimitKey('newsletter', 'identity', 'junk1@example.com')))).toEqual([]);

    // The real shopper on that address: a signup, a cart, details and a payment all go through.
    const real = new ShopperAt(t().app, address);
    expect((await real.post('/api/newsletter', { email: `real-${Date.now()}@example.com` })).statusCode).toBe(201);
    expect((await real.post('/api/cart', { productId: await product(), quantity: 1 })).statusCode).toBe(200);
    expect((await real.post('/api/customer-info', customer())).statusCode).toBe(200);
    expect((await real.post('/api/create-payment-intent', {})).statusCode).toBe(200);
  });

  test('a burst over the per-address budget: exactly the budget passes, refusals are not counted', async () => {
    const address = freshAddress();
    const max = RATE_LIMITS.discount.address.max;
    const results = await Promise.all(
      Array.from({ length: max + 50 }, () => new ShopperAt(t().app, address).post('/api/validate-discount', { code: 'FALL15' })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(max);
    for (const r of results.filter((r) => r.statusCode !== 200)) expectRefused(r);
    await t().services.rateLimitCounter.idle();
    const [row] = await t()
      .database.db.select({ count: rateLimits.count })
      .from(rateLimits)
      .where(eq(rateLimits.key, rateLimitKey('discount', 'address', address)));
    expect(row?.count).toBe(max);
  });

  test('two app instances on one database share the counts', async () => {
    const second = await openDatabase({ databaseUrl: t().config.DATABASE_URL, poolSize: 4 });
    const app2 = await buildApp(t().config, { database: second, sessionSecret: 'test-session-secret-test-session-secret-0123', logger: false });
    await app2.ready();
    try {
      const address = freshAddress();
      const shopper = await shopperWithSession(address);
      const onSecond = new ShopperAt(app2, address);
      onSecond.cookies = shopper.cookies; // one browser, its requests spread over two instances
      const max = RATE_LIMITS.discount.session.max;
      const results = await Promise.all(
        Array.from({ length: max }, (_, i) => (i % 2 ? shopper : onSecond).post('/api/validate-discount', { code: 'FALL15' })),
      );
      expect(results.map((r) => r.statusCode)).toEqual(Array(max).fill(200));
      // Each instance refuses from what the table last told it: at most one more request each passes
      // (its count brings the news), then both refuse.
      const next = [
        await onSecond.post('/api/validate-discount', { code: 'FALL15' }),
        await shopper.post('/api/validate-discount', { code: 'FALL15' }),
      ];
      expect(next.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(2);
      expectRefused(await onSecond.post('/api/validate-discount', { code: 'FALL15' }));
      expectRefused(await shopper.post('/api/validate-discount', { code: 'FALL15' }));
    } finally {
      await app2.close();
      await second.close();
    }
  });

  test('when the counters cannot be reached the limited routes still answer (skipOnError), never 500', async () => {
    const db = t().database.db;
    const shopper = await shopperWithSession();
    await db.execute(sql`alter table rate_limits rename to rate_limits_away`);
    try {
      for (let i = 0; i < RATE_LIMITS.discount.session.max + 3; i++) {
        const res = await calls.discount(shopper);
        expect(res.statusCode, res.body).toBe(200);
      }
    } finally {
      await db.execute(sql`alter table rate_limits_away rename to rate_limits`);
    }
  });
});

describeEachDb('rate limit counter (the store)', (t) => {
  test('a count slower than its time limit lets the request through uncounted, and the next ones too for a while (no pile-up on a slow database)', async () => {
    const counter = createRateLimitCounter(t().database.db, { statementTimeoutMs: 300, openAfterFailureMs: 60_000 });
    const incr = (key: string) =>
      new Promise<Error | null>((resolve) => counter.incr(key, 60_000, (err) => resolve(err ?? null)));
    // Another transaction holds the key's row: the count waits on its lock, as on a database too busy to answer.
    const holder = await t().database.pool.connect();
    try {
      await holder.query('begin');
      await holder.query(`insert into rate_limits (key, count, reset_at) values ('test:slow', 1, now() + interval '1 minute')`);
      expect((await incr('test:slow'))?.message).toBe('rate limit count timed out');
      const started = Date.now();
      expect((await incr('test:other'))?.message).toBe('rate limit store unavailable');
      expect(Date.now() - started).toBeLessThan(250);
    } finally {
      await holder.query('rollback');
      holder.release();
    }
  });

  test('parallel increments of one key get distinct counts; the window restarts from 1 once over', async () => {
    const counter = createRateLimitCounter(t().database.db);
    const incr = (key: string, windowMs: number) =>
      new Promise<{ current: number; ttl: number }>((resolve, reject) =>
        counter.incr(key, windowMs, (err, res) => (err ? reject(err) : resolve(res!))),
      );
    const counts = await Promise.all(Array.from({ length: 100 }, () => incr('test:hot', 60_000)));
    expect(counts.map((c) => c.current).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    for (const c of counts) expect(c.ttl).toBeGreaterThan(50_000);

    expect((await incr('test:short', 300)).current).toBe(1);
    expect((await incr('test:short', 300)).current).toBe(2);
    await new Promise((r) => setTimeout(r, 350));
    const after = await incr('test:short', 300);
    expect(after.current).toBe(1);
    expect(after.ttl).toBeGreaterThan(200);

    await new Promise((r) => setTimeout(r, 350));
    expect(await counter.pruneExpired()).toBeGreaterThanOrEqual(1);
    const left = await t().database.db.select({ key: rateLimits.key }).from(rateLimits).where(eq(rateLimits.key, 'test:short'));
    expect(left).toEqual([]);
  });
});

describeEachDb(
  'rate limits: RATE_LIMIT_ADDRESS_FACTOR and RATE_LIMITS=off',
  (t) => {
    test('RATE_LIMIT_ADDRESS_FACTOR scales the per-address budget', async () => {
      const address = freshAddress();
      const max = Math.round(RATE_LIMITS.discount.address.max * 0.1);
      const anonymous = () => new ShopperAt(t().app, address).post('/api/validate-discount', { code: 'FALL15' });
      const results = await Promise.all(Array.from({ length: max }, anonymous));
      expect(results.every((r) => r.statusCode === 200)).toBe(true);
      expectRefused(await anonymous());
    });
  },
  { env: { RATE_LIMIT_ADDRESS_FACTOR: '0.1' } },
);

describeEachDb(
  'rate limits off',
  (t) => {
    test('RATE_LIMITS=off: no limit is applied', async () => {
      const shopper = new ShopperAt(t().app, freshAddress());
      expect((await shopper.post('/api/customer-info', customer())).statusCode).toBe(200);
      for (let i = 0; i < RATE_LIMITS.discount.session.max + 5; i++)
        expect((await shopper.post('/api/validate-discount', { code: 'FALL15' })).statusCode).toBe(200);
    });
  },
  { env: { RATE_LIMITS: 'off' } },
);
