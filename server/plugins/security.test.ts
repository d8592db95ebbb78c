import { expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describeEachDb, type TestApp } from '../../tests/support/build-test-app';
import { sessions } from '../modules/session/session.tables';

async function probeRoutes(app: FastifyInstance) {
  app.post('/api/test/write', async (request) => {
    await request.saveSession({ wrote: true });
    return { ok: true };
  });
  app.post('/api/webhooks/test', async () => ({ ok: true }));
}

async function sessionRows(t: TestApp): Promise<number> {
  const [row] = await t.services.db.select({ n: sql<number>`count(*)::int` }).from(sessions);
  return row.n;
}

function cspDirectives(header: string | string[] | number | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

describeEachDb(
  'security',
  (t) => {
    const write = (headers: Record<string, string>) =>
      t()
        .client()
        .request({
          method: 'POST',
          url: '/api/test/write',
          payload: {},
          headers: { 'content-type': 'application/json', host: 'shop.test', ...headers },
        });

    test('security headers on every response: pages, API answers and errors', async () => {
      for (const url of ['/', '/mission', '/no-such-page', '/api/products', '/api/categories', '/api/nope']) {
        const res = await t().client().get(url);
        const h = res.headers;
        expect(h['x-content-type-options'], url).toBe('nosniff');
        expect(h['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
        expect(h['x-frame-options'], url).toBe('DENY');
        expect(h['cross-origin-resource-policy'], url).toBe('same-origin');
        expect(h['x-powered-by'], url).toBeUndefined();
        const csp = cspDirectives(h['content-security-policy']);
        expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
        const scriptSrc = csp.get('script-src') ?? csp.get('default-src')!;
        expect(scriptSrc.join(' '), url).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
        if (url.startsWith('/api/')) {
          // JSON is never a document: nothing may load from it at all.
          expect(csp.get('default-src'), url).toEqual(["'none'"]);
        } else {
          expect(csp.get('default-src'), url).toEqual(["'self'"]);
          expect(scriptSrc, url).toEqual(["'self'"]);
          expect(csp.get('object-src'), url).toEqual(["'none'"]);
          expect(csp.get('base-uri'), url).toEqual(["'self'"]);
          expect(h['cross-origin-opener-policy'], url).toBe('same-origin');
        }
      }
    });

    test('images a mail embeds may be loaded by a webmail page on another origin; nothing else may', async () => {
      for (const url of ['/uploads/no-such-image.webp', '/mail-mark.png']) {
        const res = await t().client().get(url);
        expect(res.headers['cross-origin-resource-policy'], url).toBe('cross-origin');
      }
      for (const url of ['/', '/uploadsx', '/api/products', '/assets/no-such.js']) {
        const res = await t().client().get(url);
        expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      }
    });

    test('with Stripe keys, CSP allows exactly Stripe.js and its frames', async () => {
      const { securityHeaders } = await import('./security');
      const { loadConfig } = await import('../config');
      const csp = cspDirectives(
        securityHeaders(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' }))['content-security-policy'],
      );
      expect(csp.get('script-src')).toEqual(["'self'", 'https://js.stripe.com']);
      expect(csp.get('frame-src')).toEqual(['https://js.stripe.com', 'https://hooks.stripe.com']);
      expect(csp.get('connect-src')).toContain('https://api.stripe.com');
    });

    test('the HTML page carries no inline script that CSP would block', async () => {
      const res = await t().client().get('/');
      const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attrs, body] of scripts) {
        if (body.trim())
          expect(attrs, 'inline script must be a data block').toMatch(/type="application\/(ld\+)?json"/);
        else expect(attrs).toMatch(/src="/);
      }
      expect(res.body).not.toMatch(/\son[a-z]+="/i);
    });

    test('a state-changing request from a foreign Origin is 403 and changes nothing', async () => {
      const before = await sessionRows(t());
      for (const origin of [
        'https://evil.example',
        'http://shop.test.evil.example',
        'null',
        'http://shop.test:8080',
        'https://shop.test',
      ]) {
        const res = await write({ origin });
        expect(res.statusCode, origin).toBe(403);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(res.body)).toEqual({ message: 'Cross-origin request refused' });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
        const res = await t()
          .client()
          .request({
            method,
            url: '/api/test/write',
            payload: {},
            headers: {
              'content-type': 'application/json',
              host: 'shop.test',
              origin: 'https://evil.example',
            },
          });
        expect(res.statusCode, method).toBe(403);
      }
      // No Origin header but the browser says the request is cross-site.
      const fetchSite = await write({ 'sec-fetch-site': 'cross-site' });
      expect(fetchSite.statusCode).toBe(403);
      expect(await sessionRows(t())).toBe(before);
    });

    test('same-origin writes, writes without Origin (non-browser clients) and safe methods pass', async () => {
      expect((await write({ origin: 'http://shop.test' })).statusCode).toBe(200);
      expect((await write({ origin: 'https://shop.test', 'x-forwarded-proto': 'https' })).statusCode).toBe(
        200,
      );
      expect((await write({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
      expect((await write({})).statusCode).toBe(200);
      const read = await t()
        .client()
        .request({ method: 'GET', url: '/api/products', headers: { origin: 'https://evil.example' } });
      expect(read.statusCode).toBe(200);
    });

    test('X-Forwarded-Host from a peer that is not a trusted proxy cannot make a foreign Origin ours', async () => {
      const before = await sessionRows(t());
      const spoofed = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/test/write',
          payload: {},
          remoteAddress: '203.0.113.5',
          headers: {
            'content-type': 'application/json',
            host: 'shop.test',
            'x-forwarded-host': 'evil.example',
            origin: 'http://evil.example',
          },
        });
      expect(spoofed.statusCode).toBe(403);
      expect(await sessionRows(t())).toBe(before);
      // The trusted proxy (loopback by default) may still tell us the public host.
      const proxied = await write({ 'x-forwarded-host': 'shop.public', origin: 'http://shop.public' });
      expect(proxied.statusCode).toBe(200);
    });

    test('no HSTS without an https PUBLIC_URL (plain-HTTP self-hosting keeps working)', async () => {
      for (const url of ['/', '/api/products']) {
        expect((await t().client().get(url)).headers['strict-transport-security'], url).toBeUndefined();
      }
    });

    test('webhook paths are exempt from the Origin check (they are signed by the caller)', async () => {
      const res = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/webhooks/test',
          payload: {},
          headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        });
      expect(res.statusCode).toBe(200);
    });
  },
  { deps: { extraRoutes: probeRoutes }, seed: true },
);

describeEachDb(
  'security with PUBLIC_URL',
  (t) => {
    test('the configured public origin is accepted behind a proxy that rewrites Host', async () => {
      const res = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/test/write',
          payload: {},
          headers: {
            'content-type': 'application/json',
            host: 'internal:3000',
            origin: 'https://fifty.example',
          },
        });
      expect(res.statusCode).toBe(200);
      const foreign = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/test/write',
          payload: {},
          headers: {
            'content-type': 'application/json',
            host: 'internal:3000',
            origin: 'https://other.example',
          },
        });
      expect(foreign.statusCode).toBe(403);
    });

    test('links, canonical, sitemap and robots are built from PUBLIC_URL only, whatever Host says', async () => {
      const get = (url: string) =>
        t()
          .client()
          .request({ method: 'GET', url, headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
      for (const url of ['/sitemap.xml', '/robots.txt', '/']) {
        const res = await get(url);
        expect(res.body, url).not.toContain('evil.example');
        expect(res.body, url).toContain('https://fifty.example');
      }
    });
  },
  { deps: { extraRoutes: probeRoutes }, seed: false, env: { PUBLIC_URL: 'https://fifty.example' } },
);
