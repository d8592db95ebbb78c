import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeEach, expect, test } from 'vitest';
import type { AdminDevice } from '../../../common/contracts/admin-devices';
import { describeEachDb, type TestClient } from '../../../tests/support/build-test-app';
import { TEST_ADMIN_PASSWORD } from '../../../tests/support/admin-session';
import { KNOWN_DEVICE_COOKIE, SESSION_COOKIE } from '../../lib/cookies';
import { revokeAdminLogins } from '../session/session.service';
import { writeSetting } from './admin-auth.repository';
import { ADMIN_PASSWORD_HASH_KEY, createAdminAuthService, deviceThrottleKey, hashPassword } from './admin-auth.service';
import { adminDevices, adminLoginThrottle } from './admin.tables';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const json = <T = { message: string }>(res: { body: string }) => JSON.parse(res.body) as T;

describeEachDb('owner devices (ADR 012)', (t) => {
  const db = () => t().services.db;
  beforeEach(async () => {
    await db().delete(adminLoginThrottle);
    await db().delete(adminDevices);
  });
  const attempt = (password: string, from: string, client = t().client(), userAgent = FIREFOX) =>
    client.request({
      method: 'POST',
      url: '/api/admin/login',
      payload: { password },
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from, 'user-agent': userAgent },
    });
  const logout = (client: TestClient) =>
    client.request({ method: 'POST', url: '/api/admin/logout', headers: { 'content-type': 'application/json' } });
  /** As if the wait were over, without sleeping through it. */
  const endWait = (key: string) => db().update(adminLoginThrottle).set({ nextAt: sql`now()` }).where(eq(adminLoginThrottle.key, key));
  const throttleOf = async (key: string) =>
    (await db().select().from(adminLoginThrottle).where(eq(adminLoginThrottle.key, key)))[0];
  /** Uses up an address's free attempts so the next one from there waits (held at an hour, so a slow run cannot outlast it). */
  const flood = async (address: string) => {
    for (let i = 0; i < 6; i++) await attempt(`guess-${i}`, address);
    expect((await attempt('guess', address)).statusCode).toBe(429);
    await db().update(adminLoginThrottle).set({ nextAt: sql`now() + interval '1 hour'` }).where(eq(adminLoginThrottle.key, address));
  };
  /** The owner: logs in once (making a device), then logs out; the browser keeps its device cookie. */
  const ownerWithDevice = async (from = '198.51.100.10', userAgent = FIREFOX) => {
    const owner = t().client();
    expect((await attempt(TEST_ADMIN_PASSWORD, from, owner, userAgent)).statusCode).toBe(200);
    expect(owner.cookies.get(KNOWN_DEVICE_COOKIE)).toBeTruthy();
    await logout(owner);
    return owner;
  };

  test('a device is a server-side record made by a successful login: only the token hash and coarse labels are stored', async () => {
    const failed = t().client();
    expect((await attempt('wrong', '203.0.113.60', failed)).statusCode).toBe(401);
    expect(failed.cookies.get(KNOWN_DEVICE_COOKIE)).toBeUndefined();
    expect(await db().select().from(adminDevices)).toEqual([]);

    const owner = await ownerWithDevice('203.0.113.61');
    const [row] = await db().select().from(adminDevices);
    const cookie = owner.cookies.get(KNOWN_DEVICE_COOKIE)!;
    const token = t().app.cookieSigners.unsign(KNOWN_DEVICE_COOKIE, cookie)!;
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(row).toMatchObject({ lastAgent: 'Firefox on Linux', revokedAt: null });
    expect(row!.tokenHash).toBe(crypto.createHash('sha256').update(token).digest('base64url'));
    expect(row!.lastNetwork).toMatch(/^[0-9a-f]{6}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain('203.0.113');
    // The same browser logging in again is the same device (last use and place refreshed), not a new one.
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.62', owner, SAFARI)).statusCode).toBe(200);
    const rows = await db().select().from(adminDevices);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: row!.id, lastAgent: 'Safari on iOS' });
    expect(rows[0]!.lastNetwork).not.toBe(row!.lastNetwork);
    expect(rows[0]!.lastUsedAt.getTime()).toBeGreaterThanOrEqual(row!.lastUsedAt.getTime());
  });

  test('forged device cookies give no bypass: a session cookie value, a swapped cookie, a made-up token, a revoked device, an old password', async () => {
    const attacker = '192.0.2.66';
    const owner = await ownerWithDevice();
    const realDevice = owner.cookies.get(KNOWN_DEVICE_COOKIE)!;
    await flood(attacker);

    // A shopper's own signed session value, sent as the device cookie (the measured attack).
    const shopper = t().client();
    const product = (await t().services.catalog.listProducts()).find((p) => p.inStock && p.sizes.length > 0)!;
    await shopper.post('/api/cart', { productId: product.id, selectedSize: product.sizes[0], selectedColor: product.colors[0]?.name });
    const sessionValue = shopper.cookies.get(SESSION_COOKIE)!;
    expect(sessionValue).toBeTruthy();
    // The device cookie's value under the session's name, and the session's under the device's.
    const signers = t().app.cookieSigners;
    const forgeries: Array<[string, Record<string, string>]> = [
      ['session value as device', { [KNOWN_DEVICE_COOKIE]: sessionValue }],
      ['device value as session', { [SESSION_COOKIE]: realDevice }],
      ['properly signed made-up token', { [KNOWN_DEVICE_COOKIE]: signers.sign(KNOWN_DEVICE_COOKIE, crypto.randomBytes(32).toString('base64url')) }],
      ['unsigned real token', { [KNOWN_DEVICE_COOKIE]: signers.unsign(KNOWN_DEVICE_COOKIE, realDevice)! }],
      ['made-up value', { [KNOWN_DEVICE_COOKIE]: 'made-up-value.c2lnbmF0dXJl' }],
    ];
    for (const [what, cookies] of forgeries) {
      const forger = t().client();
      for (const [name, value] of Object.entries(cookies)) forger.cookies.set(name, value);
      const res = await attempt(TEST_ADMIN_PASSWORD, attacker, forger);
      expect(res.statusCode, what).toBe(429);
      expect(json(res).message, what).toMatch(/^Too many failed login attempts/);
    }

    // A revoked device: its cookie is genuine, but no longer counts.
    const admin = await ownerWithDevice('198.51.100.11');
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.11', admin)).statusCode).toBe(200);
    const [mine] = json<AdminDevice[]>(await admin.get('/api/admin/devices')).filter((d) => d.current);
    expect((await admin.delete(`/api/admin/devices/${mine!.id}`)).statusCode).toBe(200);
    const revoked = t().client();
    revoked.cookies.set(KNOWN_DEVICE_COOKIE, admin.cookies.get(KNOWN_DEVICE_COOKIE)!);
    expect((await attempt(TEST_ADMIN_PASSWORD, attacker, revoked)).statusCode).toBe(429);

    // The genuine device still passes from the flooded address (so the 429s above were the forgeries' doing).
    expect((await attempt(TEST_ADMIN_PASSWORD, attacker, owner)).statusCode).toBe(200);

    // A password change by any route (here straight in the table, as the admin:password script does) retires devices.
    await writeSetting(db(), ADMIN_PASSWORD_HASH_KEY, await hashPassword(TEST_ADMIN_PASSWORD));
    expect((await attempt(TEST_ADMIN_PASSWORD, attacker, owner)).statusCode).toBe(429);
  });

  test('4 attacker loops from one address (forged device cookies, guesses) while the owner with a real device logs in on the first try', async () => {
    const shared = '203.0.113.77';
    const owner = await ownerWithDevice();
    const shopper = t().client();
    const product = (await t().services.catalog.listProducts()).find((p) => p.inStock && p.sizes.length > 0)!;
    await shopper.post('/api/cart', { productId: product.id, selectedSize: product.sizes[0], selectedColor: product.colors[0]?.name });
    const forged = shopper.cookies.get(SESSION_COOKIE)!;

    let ownerDone = false;
    const outcomes: number[] = [];
    const loop = async (n: number) => {
      const client = t().client();
      client.cookies.set(KNOWN_DEVICE_COOKIE, forged);
      for (let i = 0; i < 200 && !ownerDone; i++) outcomes.push((await attempt(`loop-${n}-guess-${i}`, shared, client)).statusCode);
    };
    const started = Date.now();
    const loops = Promise.all([0, 1, 2, 3].map(loop));
    // Wait until the attackers are being slowed down, then the owner tries, from the very same address.
    await expect.poll(() => outcomes.filter((s) => s === 429).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(8);
    const ownerTry = await attempt(TEST_ADMIN_PASSWORD, shared, owner);
    ownerDone = true;
    await loops;
    expect(ownerTry.statusCode, ownerTry.body).toBe(200);
    // The attackers' passwords reached the check 5 times (the address's free attempts), then only as the
    // doubling wait allows (1 s, 2 s, 4 s… after the fifth), however many loops send…
    const seconds = (Date.now() - started) / 1000;
    const checked = outcomes.filter((s) => s === 401).length;
    expect(checked).toBeGreaterThanOrEqual(5);
    expect(checked).toBeLessThanOrEqual(5 + Math.ceil(Math.log2(seconds + 1)));
    expect(outcomes.filter((s) => s === 429).length).toBeGreaterThanOrEqual(8);
    // …so one address never came near the global threshold: an owner on a new browser elsewhere gets in at once.
    expect((await throttleOf('*'))!.attempts).toBeLessThan(30);
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.78')).statusCode).toBe(200);
  });

  test('the owner from a new device still gets in eventually, even on the flooded address under a botnet', async () => {
    const shared = '203.0.113.88';
    await flood(shared);
    await Promise.all(Array.from({ length: 40 }, (_, i) => attempt('botnet-guess', `10.7.${i}.1`)));
    const newcomer = t().client();
    const refused = await attempt(TEST_ADMIN_PASSWORD, shared, newcomer);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Slowed, never locked: once the address's and the shop's waits are over, the right password is let in.
    await endWait(shared);
    await endWait('*');
    const ok = await attempt(TEST_ADMIN_PASSWORD, shared, newcomer);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(newcomer.cookies.get(KNOWN_DEVICE_COOKIE)).toBeTruthy();
    expect(await db().select().from(adminDevices)).toHaveLength(1);
  });

  test('a known device failing again and again is slowed on its own budget, without touching the address or other devices', async () => {
    const stolen = await ownerWithDevice('198.51.100.40');
    const other = await ownerWithDevice('198.51.100.41');
    const [device] = await db().select().from(adminDevices).limit(1);
    expect(device).toBeDefined();
    const results: number[] = [];
    for (let i = 0; i < 7; i++) results.push((await attempt(`wrong-${i}`, '203.0.113.90', stolen)).statusCode);
    expect(results).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const slowed = await attempt(TEST_ADMIN_PASSWORD, '203.0.113.90', stolen);
    expect(slowed.statusCode).toBe(429);
    expect(json(slowed).message).toMatch(/^Too many failed login attempts\. Try again in \d+ seconds?\.$/);
    // The device's key holds the count; the address it came from has none, the shop-wide one none.
    const deviceIds = (await db().select({ id: adminDevices.id }).from(adminDevices)).map((d) => deviceThrottleKey(d.id));
    const keys = (await db().select({ key: adminLoginThrottle.key }).from(adminLoginThrottle)).map((r) => r.key);
    expect(keys.filter((k) => deviceIds.includes(k))).toHaveLength(1);
    expect(keys).not.toContain('203.0.113.90');
    // The other device and a stranger on that address are unaffected.
    expect((await attempt(TEST_ADMIN_PASSWORD, '203.0.113.90', other)).statusCode).toBe(200);
    expect((await attempt(TEST_ADMIN_PASSWORD, '203.0.113.90')).statusCode).toBe(200);
    // Once its wait is over the right password gets the slowed device in, which resets its count.
    const key = keys.find((k) => deviceIds.includes(k))!;
    await endWait(key);
    expect((await attempt(TEST_ADMIN_PASSWORD, '203.0.113.90', stolen)).statusCode).toBe(200);
    expect(await throttleOf(key)).toBeUndefined();
  });

  test('devices are listed and revoked from the admin; revoking needs an admin session; bad ids are 404 JSON', async () => {
    const phone = await ownerWithDevice('198.51.100.50', SAFARI);
    const laptop = t().client();
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.51', laptop)).statusCode).toBe(200);

    const listed = await laptop.get('/api/admin/devices');
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    const devices = json<AdminDevice[]>(listed);
    expect(devices).toHaveLength(2);
    expect(devices.map((d) => [d.lastAgent, d.current])).toEqual([
      ['Firefox on Linux', true],
      ['Safari on iOS', false],
    ]);
    for (const d of devices) {
      expect(Object.keys(d).sort()).toEqual(['createdAt', 'current', 'id', 'lastAgent', 'lastNetwork', 'lastUsedAt']);
      expect(d.lastNetwork).toMatch(/^[0-9a-f]{6}$/);
    }

    // Without an admin session: 401, nothing revoked.
    const phoneId = devices.find((d) => !d.current)!.id;
    const stranger = await t().client().delete(`/api/admin/devices/${phoneId}`);
    expect(stranger.statusCode).toBe(401);
    expect((await t().client().get('/api/admin/devices')).statusCode).toBe(401);

    const revoked = await laptop.delete(`/api/admin/devices/${phoneId}`);
    expect(revoked.statusCode).toBe(200);
    expect(json(revoked)).toEqual({ success: true });
    expect(json<AdminDevice[]>(await laptop.get('/api/admin/devices')).map((d) => d.lastAgent)).toEqual(['Firefox on Linux']);
    const again = await laptop.delete(`/api/admin/devices/${phoneId}`);
    expect(again.statusCode).toBe(404);
    expect(json(again)).toEqual({ message: 'Device not found' });
    for (const bad of ['not-a-uuid', crypto.randomUUID()]) {
      const res = await laptop.delete(`/api/admin/devices/${bad}`);
      expect(res.statusCode, bad).toBe(404);
      expect(json(res).message, bad).toBe('Device not found');
    }

    // The revoked phone is a stranger again: a flooded address slows it; its next good login makes a new device.
    await flood('198.51.100.50');
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.50', phone, SAFARI)).statusCode).toBe(429);
    await endWait('198.51.100.50');
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.50', phone, SAFARI)).statusCode).toBe(200);
    expect(json<AdminDevice[]>(await phone.get('/api/admin/devices'))).toHaveLength(2);
  });

  test('logout keeps the device; a changed ADMIN_PASSWORD revokes every device', async () => {
    const owner = await ownerWithDevice('198.51.100.70');
    // Logged out, still known: passes a flooded address.
    await flood('203.0.113.71');
    expect((await attempt(TEST_ADMIN_PASSWORD, '203.0.113.71', owner)).statusCode).toBe(200);

    const withNewPassword = createAdminAuthService({ db: db(), adminPassword: 'a-brand-new-password', log: t().app.log, sessions: { revokeAdminLogins } });
    await withNewPassword.ensurePassword();
    const rows = await db().select().from(adminDevices);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.revokedAt !== null)).toBe(true);
    expect((await attempt('a-brand-new-password', '203.0.113.71', owner)).statusCode).toBe(429);
    // Dead devices are pruned.
    await t().services.admin.auth.pruneLoginAttempts();
    expect(await db().select().from(adminDevices)).toEqual([]);
    // Back to the test password for whatever runs after.
    await writeSetting(db(), ADMIN_PASSWORD_HASH_KEY, await hashPassword(TEST_ADMIN_PASSWORD));
  });
});
