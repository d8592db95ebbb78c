import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, test } from 'vitest';
import { ADMIN_IDLE_TIMEOUT_MS, ADMIN_SESSION_MAX_AGE_MS } from '../../../common/contracts/admin';
import { buildTestApp, describeEachDb } from '../../../tests/support/build-test-app';
import { loginAsAdmin, TEST_ADMIN_PASSWORD } from '../../../tests/support/admin-session';
import { KNOWN_DEVICE_COOKIE, SESSION_COOKIE } from '../../lib/cookies';
import { revokeAdminLogins } from '../session/session.service';
import { sessions } from '../session/session.tables';
import { ADMIN_PASSWORD_HASH_KEY, createAdminAuthService, GLOBAL_THROTTLE, loginAddressKey, loginShareKey, NETWORK_SHARE } from './admin-auth.service';
import { adminLoginThrottle, appSettings } from './admin.tables';

/** Every [method, path] Fastify has registered under /api/admin (from its route tree). */
function registeredAdminRoutes(app: FastifyInstance): Array<[string, string]> {
  const stack: string[] = [];
  const routes: Array<[string, string]> = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    const path = stack.join('');
    if (m[3] && path.startsWith('/api/admin')) {
      for (const method of m[3].split(', ')) if (method !== 'HEAD') routes.push([method, path]);
    }
  }
  return routes;
}

const json = <T = { message: string }>(res: { body: string }) => JSON.parse(res.body) as T;
const sidOf = (value: string | undefined) => value?.split('.')[0];

describeEachDb('admin access', (t) => {
  test('every admin route but login and status refuses with 401 JSON without an admin session', async () => {
    const routes = registeredAdminRoutes(t().app);
    // The tree really was read: the spec's calls are all there.
    expect(routes).toEqual(
      expect.arrayContaining([
        ['GET', '/api/admin/products'],
        ['POST', '/api/admin/products'],
        ['PUT', '/api/admin/products/:id'],
        ['DELETE', '/api/admin/products/:id'],
        ['GET', '/api/admin/orders'],
        ['PUT', '/api/admin/orders/:orderId/status'],
        ['GET', '/api/admin/newsletter-signups'],
        ['POST', '/api/admin/images/upload-url'],
        ['POST', '/api/admin/images/normalize'],
        ['PUT', '/api/admin/images/upload/:token'],
        ['POST', '/api/admin/logout'],
      ]),
    );
    const shopper = t().client();
    const [first] = await t().services.catalog.listProducts();
    await shopper.post('/api/cart', {
      productId: first.id,
      selectedSize: 'M',
      selectedColor: first.colors[0]?.name,
    });
    const guarded = routes.filter(([, path]) => path !== '/api/admin/login' && path !== '/api/admin/status');
    expect(guarded.length).toBeGreaterThanOrEqual(15);
    for (const caller of [t().client(), shopper]) {
      for (const [method, path] of guarded) {
        const url = path.replace(/:[A-Za-z]+/g, crypto.randomUUID());
        const upload = path.includes('/upload/');
        const res = await caller.request({
          method: method as 'GET',
          url,
          payload: method === 'GET' || method === 'DELETE' ? undefined : upload ? Buffer.from('x') : {},
          headers:
            method === 'GET' || method === 'DELETE'
              ? {}
              : { 'content-type': upload ? 'image/png' : 'application/json' },
        });
        expect(res.statusCode, `${method} ${path}`).toBe(401);
        expect(json(res).message, `${method} ${path}`).toMatch(/log in/i);
      }
    }
  });

  test('status is false without a session; login with the wrong password is 401 "Invalid password"', async () => {
    const client = t().client();
    expect(json(await client.get('/api/admin/status'))).toEqual({ isAuthenticated: false });
    const wrong = await client.post('/api/admin/login', { password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);
    expect(json(wrong)).toEqual({ message: 'Invalid password' });
    expect(json(await client.get('/api/admin/status'))).toEqual({ isAuthenticated: false });
    const blank = await client.post('/api/admin/login', { password: '' });
    expect(blank.statusCode).toBe(400);
    expect(json(blank).message).toBe('Password is required');
  });

  test('login with the right password answers {success: true}, and admin routes then work', async () => {
    const client = t().client();
    const res = await client.post('/api/admin/login', { password: TEST_ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ success: true });
    expect(json(await client.get('/api/admin/status'))).toEqual({ isAuthenticated: true });
    const products = await client.get('/api/admin/products');
    expect(products.statusCode).toBe(200);
    expect(products.headers['cache-control']).toBe('no-store');
  });

  test('login gives a new session id; the old cookie is not admin and the cart follows the new one', async () => {
    const client = t().client();
    const product = (await t().services.catalog.listProducts()).find((p) => p.sizes.length > 0 && p.inStock)!;
    const added = await client.post('/api/cart', {
      productId: product.id,
      selectedSize: product.sizes[0],
      selectedColor: product.colors[0]?.name,
      quantity: 2,
    });
    expect(added.statusCode).toBeLessThan(300);
    const before = client.cookies.get(SESSION_COOKIE)!;
    expect(before).toBeTruthy();

    await loginAsAdmin(client);
    const after = client.cookies.get(SESSION_COOKIE)!;
    expect(sidOf(after)).not.toBe(sidOf(before));

    const cart = json<Array<{ productId: string; quantity: number }>>(await client.get('/api/cart'));
    expect(cart).toEqual([expect.objectContaining({ productId: product.id, quantity: 2 })]);

    const stale = t().client();
    stale.cookies.set(SESSION_COOKIE, before);
    expect(json(await stale.get('/api/admin/status'))).toEqual({ isAuthenticated: false });
    expect((await stale.get('/api/admin/products')).statusCode).toBe(401);
    const [row] = await t()
      .services.db.select()
      .from(sessions)
      .where(eq(sessions.sid, sidOf(before)!));
    expect(row).toBeUndefined();
  });

  test('logout destroys the session on the server: the old cookie no longer works', async () => {
    const client = await loginAsAdmin(t().client());
    const cookie = client.cookies.get(SESSION_COOKIE)!;
    const res = await client.request({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ success: true });
    expect(json(await client.get('/api/admin/status'))).toEqual({ isAuthenticated: false });

    const replay = t().client();
    replay.cookies.set(SESSION_COOKIE, cookie);
    expect(json(await replay.get('/api/admin/status'))).toEqual({ isAuthenticated: false });
    expect((await replay.get('/api/admin/orders')).statusCode).toBe(401);
    const [row] = await t()
      .services.db.select()
      .from(sessions)
      .where(eq(sessions.sid, sidOf(cookie)!));
    expect(row).toBeUndefined();
  });

  test('the admin session ends after 2 hours without an admin request', async () => {
    const client = await loginAsAdmin(t().client());
    const sid = sidOf(client.cookies.get(SESSION_COOKIE))!;
    const [row] = await t().services.db.select().from(sessions).where(eq(sessions.sid, sid));
    expect(row.sess.admin?.at).toBeGreaterThan(Date.now() - 10_000);

    // Active use keeps it alive: a request refreshes a stamp older than a minute.
    await t()
      .services.db.update(sessions)
      .set({ sess: { ...row.sess, admin: { at: Date.now() - ADMIN_IDLE_TIMEOUT_MS + 60_000 } } })
      .where(eq(sessions.sid, sid));
    expect((await client.get('/api/admin/products')).statusCode).toBe(200);
    const [touched] = await t().services.db.select().from(sessions).where(eq(sessions.sid, sid));
    expect(touched.sess.admin?.at).toBeGreaterThan(Date.now() - 10_000);

    await t()
      .services.db.update(sessions)
      .set({ sess: { ...row.sess, admin: { at: Date.now() - ADMIN_IDLE_TIMEOUT_MS - 1000 } } })
      .where(eq(sessions.sid, sid));
    expect(json(await client.get('/api/admin/status'))).toEqual({ isAuthenticated: false });
    const expired = await client.get('/api/admin/products');
    expect(expired.statusCode).toBe(401);
    expect(json(expired).message).toMatch(/expired/);
  });

  test('an admin login ends 8 hours after it began, however active the admin is', async () => {
    const client = await loginAsAdmin(t().client());
    const sid = sidOf(client.cookies.get(SESSION_COOKIE))!;
    const [row] = await t().services.db.select().from(sessions).where(eq(sessions.sid, sid));
    expect(row.sess.admin?.since).toBeGreaterThan(Date.now() - 10_000);
    // Active a second ago, but logged in 8 hours ago.
    await t()
      .services.db.update(sessions)
      .set({ sess: { ...row.sess, admin: { at: Date.now() - 1000, since: Date.now() - ADMIN_SESSION_MAX_AGE_MS - 1000 } } })
      .where(eq(sessions.sid, sid));
    expect(json(await client.get('/api/admin/status'))).toEqual({ isAuthenticated: false });
    const expired = await client.get('/api/admin/orders');
    expect(expired.statusCode).toBe(401);
    expect(json(expired).message).toMatch(/expired/);
    // The activity refresh keeps the login time: a request 7 hours in does not extend the 8 hours.
    const again = await loginAsAdmin(t().client());
    const sid2 = sidOf(again.cookies.get(SESSION_COOKIE))!;
    const since = Date.now() - 7 * 60 * 60 * 1000;
    await t()
      .services.db.update(sessions)
      .set({ sess: { admin: { at: Date.now() - 5 * 60 * 1000, since } } })
      .where(eq(sessions.sid, sid2));
    expect((await again.get('/api/admin/products')).statusCode).toBe(200);
    const [touched] = await t().services.db.select().from(sessions).where(eq(sessions.sid, sid2));
    expect(touched.sess.admin).toEqual({ at: expect.any(Number), since });
  });

  test('only an argon2 hash of the password is stored', async () => {
    const [row] = await t()
      .services.db.select()
      .from(appSettings)
      .where(eq(appSettings.key, ADMIN_PASSWORD_HASH_KEY));
    expect(row.value).toMatch(/^\$argon2id\$/);
    expect(row.value).not.toContain(TEST_ADMIN_PASSWORD);
  });
});

describeEachDb('admin login slow-down', (t) => {
  const db = () => t().services.db;
  beforeEach(async () => {
    await db().delete(adminLoginThrottle);
  });
  const attempt = (password: string, from: string, client = t().client()) =>
    client.request({
      method: 'POST',
      url: '/api/admin/login',
      payload: { password },
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    });
  const statuses = (list: Array<{ statusCode: number }>) =>
    list.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.statusCode]: (acc[r.statusCode] ?? 0) + 1 }), {});
  /** As if the wait were over, without sleeping through it. */
  const endWait = (key: string) =>
    db().update(adminLoginThrottle).set({ nextAt: sql`now()` }).where(eq(adminLoginThrottle.key, key));

  test('40 parallel wrong passwords from one address: only 5 reach the password check, the rest are 429 with Retry-After', async () => {
    const ip = '203.0.113.7';
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(`wrong-${i}`, ip)));
    expect(statuses(results)).toEqual({ 401: 5, 429: 35 });
    const limited = results.find((r) => r.statusCode === 429)!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(json(limited).message).toMatch(/^Too many failed login attempts\. Try again in \d+ seconds?\.$/);
  });

  test('the wait grows with every further attempt, up to 15 minutes, and is never a lock-out of the right password', async () => {
    const ip = '203.0.113.8';
    for (let i = 0; i < 5; i++) expect((await attempt('wrong', ip)).statusCode).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const refused = await attempt('wrong', ip);
      expect(refused.statusCode).toBe(429);
      waits.push(Number(refused.headers['retry-after']));
      await endWait(ip);
      expect((await attempt('wrong', ip)).statusCode).toBe(401);
    }
    // 1 s, then doubling, capped at 15 minutes.
    expect(waits.slice(0, 4)).toEqual([1, 2, 4, 8]);
    expect(Math.max(...waits)).toBe(15 * 60);
    expect(waits.at(-1)).toBe(15 * 60);
    // Still slowed for the right password too (a guess cannot be told from the owner)…
    expect((await attempt(TEST_ADMIN_PASSWORD, ip)).statusCode).toBe(429);
    // …but once the wait is over it logs in, and that clears the address's count.
    await endWait(ip);
    expect((await attempt(TEST_ADMIN_PASSWORD, ip)).statusCode).toBe(200);
    expect(await db().select().from(adminLoginThrottle).where(eq(adminLoginThrottle.key, ip))).toEqual([]);
    // Other addresses were never affected.
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.9')).statusCode).toBe(200);
  });

  test('a device that logged in before passes the per-address slow-down, even from a flooded shared address', async () => {
    const proxy = '192.0.2.50';
    const owner = t().client();
    const first = await attempt(TEST_ADMIN_PASSWORD, '198.51.100.20', owner);
    expect(first.statusCode).toBe(200);
    const device = first.cookies.find((c) => c.name === KNOWN_DEVICE_COOKIE)!;
    expect(device).toMatchObject({ httpOnly: true, path: '/', sameSite: 'Lax' });
    expect(device.maxAge).toBeGreaterThanOrEqual(365 * 24 * 60 * 60);
    await owner.request({ method: 'POST', url: '/api/admin/logout', headers: { 'content-type': 'application/json' } });

    // An attacker behind the same proxy address uses up its attempts.
    await Promise.all(Array.from({ length: 10 }, () => attempt('guess', proxy)));
    // The attacker keeps guessing (as if its next guess had just been reserved): on a loaded box the five
    // password checks above can outlast the first 1 s wait.
    await db().update(adminLoginThrottle).set({ nextAt: sql`now() + interval '1 minute'` }).where(eq(adminLoginThrottle.key, proxy));
    expect((await attempt(TEST_ADMIN_PASSWORD, proxy)).statusCode).toBe(429);
    // The owner's browser still logs in from there; a forged or copied-without-signature cookie does not help.
    expect((await attempt(TEST_ADMIN_PASSWORD, proxy, owner)).statusCode).toBe(200);
    const forger = t().client();
    forger.cookies.set(KNOWN_DEVICE_COOKIE, 'made-up-value.c2lnbmF0dXJl');
    expect((await attempt(TEST_ADMIN_PASSWORD, proxy, forger)).statusCode).toBe(429);
    // A wrong password from the known device is still a 401 (and counts globally).
    expect((await attempt('wrong', proxy, owner)).statusCode).toBe(401);
  });

  test('the global slow-down: after 30 attempts from anywhere, one attempt per second for every browser without a known device; a known device has its own budget', async () => {
    const owner = t().client();
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.30', owner)).statusCode).toBe(200);
    await db().delete(adminLoginThrottle);
    // A botnet: 40 addresses at once.
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt('guess', `10.9.${i}.1`)));
    expect(statuses(results)).toEqual({ 401: 30, 429: 10 });
    const global = results.find((r) => r.statusCode === 429)!;
    expect(json(global).message).toBe('Too many login attempts on this shop right now. Try again in 1 second.');
    expect(global.headers['retry-after']).toBe('1');
    // The botnet keeps the shop-wide slot busy (as if its next guess had just been reserved)…
    await db().update(adminLoginThrottle).set({ nextAt: sql`now() + interval '1 minute'` }).where(eq(adminLoginThrottle.key, '*'));
    // …a browser that never logged in is slowed like everyone else…
    const newcomer = await attempt(TEST_ADMIN_PASSWORD, '198.51.100.31');
    expect(newcomer.statusCode).toBe(429);
    // …but the owner's known device is not held up by the botnet (ADR 012).
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.30', owner)).statusCode).toBe(200);
    // A slow-down, not a lock: the next second is free again.
    await endWait('*');
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.31')).statusCode).toBe(200);
  });

  test('successful logins do not use up the global allowance (a busy owner or test run is never slowed)', async () => {
    for (let i = 0; i < 40; i++) {
      expect((await attempt(TEST_ADMIN_PASSWORD, `10.8.${i}.1`)).statusCode, `login ${i}`).toBe(200);
    }
    const [global] = await db().select().from(adminLoginThrottle).where(eq(adminLoginThrottle.key, '*'));
    expect(global!.attempts).toBe(0);
  });

  test('IPv6 addresses count by their /48 (IPV6_PREFIX, as every other budget): rotating /64s does not reset the count', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => attempt('guess', `2001:db8:aa:${(i + 1).toString(16)}::${i + 7}`)),
    );
    expect(statuses(results)).toEqual({ 401: 5, 429: 7 });
    expect((await attempt(TEST_ADMIN_PASSWORD, '2001:db8:ab::1')).statusCode).toBe(200);
  });

  test("40 guesses from 40 /64s of one /48: 5 are checked and the shop's allowance is untouched, so the owner's new browser on another network gets in 10 times of 10; inside the flooding /48 the owner waits, then gets in", async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(`guess-${i}`, `2001:db8:48:${(i + 1).toString(16)}::1`)));
    // 5 free (a sixth only if the burst outlasts the first 1 s wait on a loaded box).
    const checked = results.filter((r) => r.statusCode === 401).length;
    expect(checked).toBeGreaterThanOrEqual(5);
    expect(checked).toBeLessThanOrEqual(6);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(40 - checked);
    expect(json(results.find((r) => r.statusCode === 429)!).message).toMatch(/^Too many failed login attempts\. Try again in \d+ seconds?\.$/);
    const [global] = await db().select().from(adminLoginThrottle).where(eq(adminLoginThrottle.key, '*'));
    expect(global!.attempts).toBeLessThan(GLOBAL_THROTTLE.freeAttempts);
    // The owner, on a new browser each time, from another network, while the /48 keeps guessing.
    const owner: number[] = [];
    for (let i = 0; i < 10; i++) {
      const [mine] = await Promise.all([attempt(TEST_ADMIN_PASSWORD, '2001:db8:99::1'), attempt(`more-${i}`, `2001:db8:48:${(100 + i).toString(16)}::1`)]);
      owner.push(mine.statusCode);
    }
    expect(owner).toEqual(Array(10).fill(200));
    // From a new /64 of the flooding /48 the owner is slowed with it (the /48 still guessing: its next guess
    // just reserved): told to wait, never locked out.
    await db().update(adminLoginThrottle).set({ nextAt: sql`now() + interval '1 minute'` }).where(eq(adminLoginThrottle.key, '2001:db8:48::/48'));
    const slowed = await attempt(TEST_ADMIN_PASSWORD, '2001:db8:48:ffff::1');
    expect(slowed.statusCode).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await endWait('2001:db8:48::/48');
    expect((await attempt(TEST_ADMIN_PASSWORD, '2001:db8:48:ffff::1')).statusCode).toBe(200);
  });

  test('the limit holds across app instances sharing the database', async () => {
    const other = createAdminAuthService({ db: db(), adminPassword: TEST_ADMIN_PASSWORD, log: t().app.log, sessions: { revokeAdminLogins } });
    const mine = t().services.admin.auth;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? mine : other).verifyLogin('203.0.113.99', 'wrong')),
    );
    const codes = outcomes.map((o) => (o.status === 'rejected' ? (o.reason as { statusCode: number }).statusCode : 200));
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(15);
  });

  test('loginAddressKey and loginShareKey', () => {
    expect(loginAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(loginAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(loginAddressKey('2001:db8:aa:bb:1:2:3:4')).toBe('2001:db8:aa::/48');
    expect(loginAddressKey('2001:0db8:00aa:00bb::9')).toBe('2001:db8:aa::/48');
    expect(loginAddressKey('2001:db8:aa:bb:1:2:3:4', 64)).toBe('2001:db8:aa:bb::/64');
    expect(loginAddressKey('2001:db8::1')).toBe('2001:db8::/48');
    expect(loginAddressKey('::1')).toBe('::/48');
    expect(loginAddressKey('fe80::1%eth0')).toBe('fe80::/48');
    // Not an address (a proxy trusted too far): never the global, a share or a device key.
    expect(loginAddressKey('*')).toBe('other:*');
    expect(loginAddressKey('device:abc')).toBe('other:device:abc');
    expect(loginAddressKey('share:2001:db8::/48')).toBe('other:share:2001:db8::/48');
    // A /48's share only when its addresses count narrower than the /48.
    expect(loginShareKey('2001:db8:aa:bb::1', 64)).toBe('share:2001:db8:aa::/48');
    expect(loginShareKey('2001:db8:aa:bb::1', 56)).toBe('share:2001:db8:aa::/48');
    expect(loginShareKey('2001:db8:aa:bb::1')).toBeNull();
    expect(loginShareKey('2001:db8:aa:bb::1', 32)).toBeNull();
    expect(loginShareKey('203.0.113.7', 64)).toBeNull();
    expect(loginShareKey('::ffff:203.0.113.7', 64)).toBeNull();
    expect(loginShareKey('*', 64)).toBeNull();
  });
});

describeEachDb(
  'admin login slow-down with IPV6_PREFIX=64',
  (t) => {
    const db = () => t().services.db;
    const attempt = (password: string, from: string) =>
      t().client().request({
        method: 'POST',
        url: '/api/admin/login',
        payload: { password },
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
      });
    const endWait = (key: string) => db().update(adminLoginThrottle).set({ nextAt: sql`now()` }).where(eq(adminLoginThrottle.key, key));

    test("40 guesses from 40 /64s of one /48 take the /48's share (10), never the shop's 30: the owner's new browser on another network gets in 10 times of 10; inside the /48 the owner waits, then gets in", async () => {
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(`guess-${i}`, `2001:db8:64:${(i + 1).toString(16)}::1`)));
      // The share's 10 (an eleventh only if the burst outlasts its first 1 s wait on a loaded box).
      const checked = results.filter((r) => r.statusCode === 401).length;
      expect(checked).toBeGreaterThanOrEqual(NETWORK_SHARE.freeAttempts);
      expect(checked).toBeLessThanOrEqual(NETWORK_SHARE.freeAttempts + 1);
      expect(results.filter((r) => r.statusCode === 429)).toHaveLength(40 - checked);
      const [global] = await db().select().from(adminLoginThrottle).where(eq(adminLoginThrottle.key, '*'));
      expect(global!.attempts).toBe(checked);
      const owner: number[] = [];
      for (let i = 0; i < 10; i++) {
        const [mine] = await Promise.all([attempt(TEST_ADMIN_PASSWORD, '2001:db8:99::1'), attempt(`more-${i}`, `2001:db8:64:${(100 + i).toString(16)}::1`)]);
        owner.push(mine.statusCode);
      }
      expect(owner).toEqual(Array(10).fill(200));
      // A /64 of the flooding /48 that never guessed still waits with its /48 (still guessing): slowed, not locked.
      await db().update(adminLoginThrottle).set({ nextAt: sql`now() + interval '1 minute'` }).where(eq(adminLoginThrottle.key, 'share:2001:db8:64::/48'));
      const slowed = await attempt(TEST_ADMIN_PASSWORD, '2001:db8:64:ffff::1');
      expect(slowed.statusCode).toBe(429);
      expect(json(slowed).message).toMatch(/^Too many failed login attempts\. Try again in \d+ (second|minute)s?\.$/);
      await endWait('share:2001:db8:64::/48');
      expect((await attempt(TEST_ADMIN_PASSWORD, '2001:db8:64:ffff::1')).statusCode).toBe(200);
    });
  },
  { env: { IPV6_PREFIX: '64' } },
);

describe('admin password at start-up', () => {
  test('without ADMIN_PASSWORD one is generated once; ADMIN_PASSWORD then replaces it and logs admins out', async () => {
    const t = await buildTestApp({ seed: false, env: { ADMIN_PASSWORD: undefined as unknown as string } });
    try {
      const auth = t.services.admin.auth;
      const first = await auth.ensurePassword();
      expect(first.generated).toMatch(/^[A-Za-z0-9_-]{20}$/);
      expect((await auth.ensurePassword()).generated).toBeNull();

      const client = t.client();
      expect((await client.post('/api/admin/login', { password: first.generated })).statusCode).toBe(200);
      expect(json(await client.get('/api/admin/status'))).toEqual({ isAuthenticated: true });

      const { createAdminAuthService } = await import('./admin-auth.service');
      const withEnv = createAdminAuthService({
        db: t.services.db,
        adminPassword: 'from-the-environment',
        log: t.app.log,
        sessions: { revokeAdminLogins },
      });
      expect((await withEnv.ensurePassword()).generated).toBeNull();
      expect(json(await client.get('/api/admin/status'))).toEqual({ isAuthenticated: false });
      expect((await t.client().post('/api/admin/login', { password: first.generated })).statusCode).toBe(401);
      expect(
        (await t.client().post('/api/admin/login', { password: 'from-the-environment' })).statusCode,
      ).toBe(200);
    } finally {
      await t.close();
    }
  });
});
