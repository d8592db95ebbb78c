import crypto from 'node:crypto';
import { expect, test } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describeEachDb } from '../../tests/support/build-test-app';
import { sessions } from '../modules/session/session.tables';
import { customer } from '../../tests/support/shop-fixtures';
import { SESSION_COOKIE } from '../lib/cookies';

async function probeRoutes(app: FastifyInstance) {
  app.post('/api/test/session', async (request) => {
    const s = await request.ensureSession();
    await request.saveSession({ ...s.data, visits: Number(s.data.visits ?? 0) + 1 });
    return { sid: s.sid };
  });
  app.get('/api/test/session', async (request) => {
    const s = await request.getSession();
    return { sid: s?.sid ?? null, data: s?.data ?? null };
  });
  app.post('/api/test/login', async (request) => {
    const s = await request.regenerateSession({ admin: { at: Date.now() } });
    return { sid: s.sid };
  });
  // Two more signed cookies of ours: a value signed for one name must not read back under another.
  app.post('/api/test/signed/:name', async (request) => {
    const { name } = request.params as { name: string };
    request.setSignedCookie(name, 'chosen-value', 60_000);
    return { ok: true };
  });
  app.get('/api/test/signed/:name', async (request) => {
    const { name } = request.params as { name: string };
    return { value: request.readSignedCookie(name) };
  });
  app.post('/api/test/logout', async (request) => {
    await request.destroySession();
    return { ok: true };
  });
}

function parseSetCookie(header: string | string[] | undefined): {
  value: string;
  attrs: Map<string, string>;
} {
  const line = (Array.isArray(header) ? header : [header ?? '']).find((h) =>
    h.startsWith(`${SESSION_COOKIE}=`),
  );
  if (!line) throw new Error(`no ${SESSION_COOKIE} cookie in ${JSON.stringify(header)}`);
  const [pair, ...rest] = line.split(';').map((p) => p.trim());
  const attrs = new Map(
    rest.map((a) => {
      const [k, v = ''] = a.split('=');
      return [k.toLowerCase(), v] as [string, string];
    }),
  );
  return { value: decodeURIComponent(pair.slice(SESSION_COOKIE.length + 1)), attrs };
}

describeEachDb(
  'shopper session',
  (t) => {
    test('reading the catalogue creates no session and sets no cookie', async () => {
      const shopper = t().client();
      for (const url of ['/api/products', '/api/categories', '/', '/api/settings']) {
        const res = await shopper.get(url);
        expect(res.headers['set-cookie'], url).toBeUndefined();
      }
    });

    test('the cookie is HttpOnly, SameSite=Lax, signed, path /, with a random id of at least 128 bits', async () => {
      const shopper = t().client();
      const res = await shopper.post('/api/test/session');
      expect(res.statusCode).toBe(200);
      const { value, attrs } = parseSetCookie(res.headers['set-cookie']);
      expect(attrs.has('httponly')).toBe(true);
      expect(attrs.get('samesite')?.toLowerCase()).toBe('lax');
      expect(attrs.get('path')).toBe('/');
      expect(Number(attrs.get('max-age'))).toBeGreaterThan(24 * 3600);
      expect(attrs.has('secure')).toBe(false);

      const { sid } = JSON.parse(res.body);
      expect(t().app.cookieSigners.unsign(SESSION_COOKIE, value)).toBe(sid);
      // The cookie value is the id plus a signature, never the bare id.
      expect(value).not.toBe(sid);
      expect(Buffer.from(sid, 'base64url').length * 8).toBeGreaterThanOrEqual(128);

      const [row] = await t().services.db.select().from(sessions).where(eq(sessions.sid, sid));
      expect(row.sess).toMatchObject({ visits: 1 });
      expect(row.expire.getTime()).toBeGreaterThan(Date.now());

      // The same shopper keeps their session.
      const again = await shopper.post('/api/test/session');
      expect(JSON.parse(again.body).sid).toBe(sid);
      expect(JSON.parse((await shopper.get('/api/test/session')).body).data).toMatchObject({ visits: 2 });
    });

    test('ids differ between shoppers', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 10; i++)
        ids.add(JSON.parse((await t().client().post('/api/test/session')).body).sid);
      expect(ids.size).toBe(10);
    });

    test('the cookie is Secure when the request came over HTTPS (x-forwarded-proto)', async () => {
      const res = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/test/session',
          payload: {},
          headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
        });
      expect(parseSetCookie(res.headers['set-cookie']).attrs.has('secure')).toBe(true);
    });

    test('a tampered, unsigned or foreign-signed cookie is ignored', async () => {
      const victim = t().client();
      const { sid } = JSON.parse((await victim.post('/api/test/session')).body);
      const signed = victim.cookies.get(SESSION_COOKIE)!;
      const signature = decodeURIComponent(signed).slice(sid.length + 1);
      const foreign = `${sid}.${crypto.createHmac('sha256', 'some-other-secret-some-other-secret').update(sid).digest('base64').replace(/=+$/, '')}`;
      const flipped = `${sid.slice(0, -1)}${sid.endsWith('A') ? 'B' : 'A'}.${signature}`;
      for (const cookie of [
        sid,
        flipped,
        foreign,
        `${sid}.`,
        `${sid}.${signature}x`,
        '.',
        '%',
        'x'.repeat(5000),
      ]) {
        const attacker = t().client();
        attacker.cookies.set(SESSION_COOKIE, encodeURIComponent(cookie));
        const read = await attacker.get('/api/test/session');
        expect(read.statusCode, cookie).toBe(200);
        expect(JSON.parse(read.body), cookie).toEqual({ sid: null, data: null });
        // Writing gives the attacker a fresh session, never the victim's.
        const write = await attacker.post('/api/test/session');
        expect(write.statusCode, cookie).toBe(200);
        expect(JSON.parse(write.body).sid, cookie).not.toBe(sid);
      }
      expect(JSON.parse((await victim.get('/api/test/session')).body).data).toMatchObject({ visits: 1 });
    });

    test('a signed cookie verifies only under its own name: a session value sent as another cookie, or another cookie as the session, is ignored', async () => {
      const shopper = t().client();
      const { sid } = JSON.parse((await shopper.post('/api/test/session')).body) as { sid: string };
      const sessionValue = shopper.cookies.get(SESSION_COOKIE)!;
      // The shop's own signed session value, swapped into a different cookie name.
      const swapped = t().client();
      swapped.cookies.set('fifty_admin_device', sessionValue);
      swapped.cookies.set('fifty_claim', sessionValue);
      for (const name of ['fifty_admin_device', 'fifty_claim']) {
        expect(JSON.parse((await swapped.get(`/api/test/signed/${name}`)).body), name).toEqual({ value: null });
      }
      // And the other way round: a value the shop signed as `fifty_claim` is no session.
      const other = t().client();
      await other.post('/api/test/signed/fifty_claim');
      const claimValue = other.cookies.get('fifty_claim')!;
      expect(JSON.parse((await other.get('/api/test/signed/fifty_claim')).body)).toEqual({ value: 'chosen-value' });
      const intruder = t().client();
      intruder.cookies.set(SESSION_COOKIE, claimValue);
      expect(JSON.parse((await intruder.get('/api/test/session')).body)).toEqual({ sid: null, data: null });
      // Keys differ per name (same value, different signatures), and the real owner still reads their own.
      const signers = t().app.cookieSigners;
      expect(signers.sign('fifty_sid', sid)).not.toBe(signers.sign('fifty_admin_device', sid));
      expect(signers.unsign('fifty_admin_device', decodeURIComponent(sessionValue))).toBeNull();
      expect(JSON.parse((await shopper.get('/api/test/session')).body).sid).toBe(sid);
    });

    test('an expired session is not honoured', async () => {
      const shopper = t().client();
      const { sid } = JSON.parse((await shopper.post('/api/test/session')).body);
      await t()
        .services.db.update(sessions)
        .set({ expire: new Date(Date.now() - 1000) })
        .where(eq(sessions.sid, sid));
      expect(JSON.parse((await shopper.get('/api/test/session')).body).sid).toBeNull();
      const fresh = JSON.parse((await shopper.post('/api/test/session')).body);
      expect(fresh.sid).not.toBe(sid);
    });

    test('login regenerates the id (no fixation) and logout destroys the row and clears the cookie', async () => {
      const shopper = t().client();
      const { sid: before } = JSON.parse((await shopper.post('/api/test/session')).body);
      const { sid: after } = JSON.parse((await shopper.post('/api/test/login')).body);
      expect(after).not.toBe(before);
      expect(await t().services.db.select().from(sessions).where(eq(sessions.sid, before))).toHaveLength(0);
      expect(JSON.parse((await shopper.get('/api/test/session')).body).data).toHaveProperty('admin');

      const out = await shopper.post('/api/test/logout');
      expect(out.statusCode).toBe(200);
      const cleared = parseSetCookie(out.headers['set-cookie']);
      expect(cleared.value).toBe('');
      expect(await t().services.db.select().from(sessions).where(eq(sessions.sid, after))).toHaveLength(0);
      expect(JSON.parse((await shopper.get('/api/test/session')).body).sid).toBeNull();
    });
  },
  { deps: { extraRoutes: probeRoutes }, seed: false },
);

describeEachDb(
  'session-dependent answers',
  (t) => {
    test('every answer that reads the session is cache-control: no-store; shared catalogue answers keep theirs', async () => {
      const shopper = t().client();
      const product = (await t().services.catalog.listProducts()).find((p) => p.inStock && p.sizes.length > 0)!;
      const added = await shopper.post('/api/cart', {
        productId: product.id,
        selectedSize: product.sizes[0],
        selectedColor: product.colors[0]?.name,
      });
      expect(added.statusCode, added.body).toBe(200);
      expect(added.headers['cache-control'], 'POST /api/cart').toBe('no-store');
      const saved = await shopper.post('/api/customer-info', customer());
      expect(saved.headers['cache-control'], 'POST /api/customer-info').toBe('no-store');
      for (const url of ['/api/cart', '/api/customer-info', '/api/orders/latest', '/api/admin/status']) {
        for (const who of [shopper, t().client()]) {
          const res = await who.get(url);
          expect(res.headers['cache-control'], `${url} (${res.statusCode})`).toBe('no-store');
        }
      }
      for (const url of ['/api/products', '/api/categories', `/api/products/${product.id}`]) {
        expect((await shopper.get(url)).headers['cache-control'], url).not.toBe('no-store');
      }
    });

    test('cart and customer-info answers do not carry the raw session id', async () => {
      const shopper = t().client();
      const product = (await t().services.catalog.listProducts()).find((p) => p.inStock && p.sizes.length > 0)!;
      await shopper.post('/api/cart', { productId: product.id, selectedSize: product.sizes[0], selectedColor: product.colors[0]?.name });
      await shopper.post('/api/customer-info', customer());
      const sid = shopper.cookies.get(SESSION_COOKIE)!.split('.')[0]!;
      expect(sid.length).toBeGreaterThan(20);
      const cart = (await shopper.get('/api/cart')).body;
      const info = (await shopper.get('/api/customer-info')).body;
      for (const body of [cart, info]) {
        expect(body).not.toContain(sid);
        expect(JSON.parse(body)).toBeTruthy();
      }
      // Still a stable per-session value (the spec's field), the same in both answers.
      const ref = (JSON.parse(cart) as Array<{ sessionId: string }>)[0]!.sessionId;
      expect((JSON.parse(info) as { sessionId: string }).sessionId).toBe(ref);
    });
  },
  { seed: true },
);

describeEachDb(
  'session cookie on an https shop',
  (t) => {
    test('with an https PUBLIC_URL the cookie is __Host-: Secure, path /, no Domain, even behind a plain-HTTP proxy hop', async () => {
      const shopper = t().client();
      const res = await shopper.post('/api/test/session');
      const line = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('__Host-fifty_sid='));
      expect(line).toBeDefined();
      expect(line).toMatch(/; Secure/i);
      expect(line).toMatch(/; Path=\//i);
      expect(line).not.toMatch(/Domain=/i);
      expect(line).toMatch(/; HttpOnly/i);
      // The prefixed cookie is the one that is read back; the plain name is ignored.
      const { sid } = JSON.parse(res.body) as { sid: string };
      expect(JSON.parse((await shopper.get('/api/test/session')).body).sid).toBe(sid);
      const plain = t().client();
      plain.cookies.set(SESSION_COOKIE, shopper.cookies.get('__Host-fifty_sid')!);
      expect(JSON.parse((await plain.get('/api/test/session')).body).sid).toBeNull();
    });

    test('HSTS is sent on pages and API answers', async () => {
      for (const url of ['/', '/api/products']) {
        expect((await t().client().get(url)).headers['strict-transport-security'], url).toBe('max-age=31536000');
      }
    });
  },
  { deps: { extraRoutes: probeRoutes }, seed: false, env: { PUBLIC_URL: 'https://fifty.example' } },
);
