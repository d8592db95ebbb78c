import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, test } from 'vitest';
import { ADMIN_IDLE_TIMEOUT_MS } from '../../../common/contracts/admin';
import { buildTestApp, describeEachDb } from '../../../tests/support/build-test-app';
import { loginAsAdmin, TEST_ADMIN_PASSWORD } from '../../../tests/support/admin-session';
import { SESSION_COOKIE } from '../../plugins/session';
import { sessions } from '../session/session.tables';
import { ADMIN_PASSWORD_HASH_KEY } from './admin-auth.service';
import { adminLoginAttempts, appSettings } from './admin.tables';

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
    await shopper.post('/api/cart', {
      productId: (await t().services.catalog.listProducts())[0].id,
      selectedSize: 'M',
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

  test('the 11th failed login within 15 minutes from one client is 429 with Retry-After; others are unaffected', async () => {
    const ip = `203.0.113.${crypto.randomInt(1, 250)}`;
    const attempt = (password: string, from = ip) =>
      t()
        .client()
        .request({
          method: 'POST',
          url: '/api/admin/login',
          payload: { password },
          headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
        });
    for (let i = 0; i < 10; i++) expect((await attempt(`wrong-${i}`)).statusCode).toBe(401);
    const limited = await attempt('wrong-again');
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(json(limited).message).toMatch(/Too many failed login attempts\. Try again in \d+ minutes?\./);
    // Locked out means locked out, even with the right password…
    expect((await attempt(TEST_ADMIN_PASSWORD)).statusCode).toBe(429);
    // …but only for that client.
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.9')).statusCode).toBe(200);

    const rows = await t().services.db.select().from(adminLoginAttempts).where(eq(adminLoginAttempts.ip, ip));
    expect(rows.filter((r) => !r.success)).toHaveLength(10);

    // Failures older than the window stop counting.
    await t()
      .services.db.update(adminLoginAttempts)
      .set({ at: sql`now() - interval '16 minutes'` })
      .where(eq(adminLoginAttempts.ip, ip));
    expect((await attempt(TEST_ADMIN_PASSWORD)).statusCode).toBe(200);
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
