import fs from 'node:fs';
import { expect, test } from 'vitest';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildTestApp, describeEachDb } from '../../tests/support/build-test-app';
import { badRequest } from '../lib/http-error';

// Probe routes: the foundation has no write endpoints of its own, so these stand in for one.
async function probeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/test/echo',
    {
      schema: {
        body: z.object({ name: z.string().min(1, 'Name is required'), count: z.number().int().optional() }),
      },
    },
    async (request) => ({
      received: request.body,
    }),
  );
  r.get('/api/test/boom', async () => {
    throw new Error('secret internal detail: password=hunter2 at /srv/app.ts:12');
  });
  r.get('/api/test/caller-mistake', async () => {
    throw badRequest('You asked for something odd');
  });
}

describeEachDb(
  'error handling',
  (t) => {
    const shopper = () => t().client();

    test('unknown /api/* paths are JSON 404s for every method', async () => {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const) {
        for (const url of ['/api/nope', '/api/products/x/y/z', '/api', '/api/', '/api/admin/secret?x=1']) {
          const res = await shopper().request({
            method,
            url,
            ...(method === 'GET' || method === 'DELETE'
              ? {}
              : { payload: {}, headers: { 'content-type': 'application/json' } }),
          });
          expect(res.statusCode, `${method} ${url}`).toBe(404);
          expect(res.headers['content-type'], `${method} ${url}`).toMatch(/^application\/json/);
          expect(JSON.parse(res.body).message, `${method} ${url}`).toMatch(/not found/i);
        }
      }
    });

    test('an unexpected failure answers 500 with a generic message and no internals', async () => {
      const res = await shopper().get('/api/test/boom');
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = JSON.parse(res.body);
      expect(Object.keys(body)).toEqual(['message']);
      expect(res.body).not.toMatch(/secret|hunter2|app\.ts|stack/i);
    });

    test('HttpError answers its status with its message', async () => {
      const res = await shopper().get('/api/test/caller-mistake');
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ message: 'You asked for something odd' });
    });

    test('schema validation failures are 400 { message } naming the problem', async () => {
      const missing = await shopper().post('/api/test/echo', {});
      expect(missing.statusCode).toBe(400);
      expect(JSON.parse(missing.body).message).toMatch(/name/i);

      const custom = await shopper().post('/api/test/echo', { name: '' });
      expect(custom.statusCode).toBe(400);
      expect(JSON.parse(custom.body)).toEqual({ message: 'Name is required' });

      const wrongType = await shopper().post('/api/test/echo', { name: 'x', count: 'many' });
      expect(wrongType.statusCode).toBe(400);
      expect(JSON.parse(wrongType.body).message).toMatch(/count/);

      const array = await shopper().post('/api/test/echo', [1, 2]);
      expect(array.statusCode).toBe(400);
    });

    test('odd URLs, methods and headers never produce a 500', async () => {
      const cases: Array<{
        method: 'GET' | 'POST' | 'OPTIONS' | 'HEAD' | 'DELETE';
        url: string;
        headers?: Record<string, string>;
      }> = [
        { method: 'GET', url: '/api/products/%' },
        { method: 'GET', url: '/api/products/%E0%A4%A' },
        { method: 'GET', url: '/api/categories/%' },
        { method: 'GET', url: '/api/products?q=%' },
        { method: 'GET', url: '/api/products?q[]=a&q[]=b' },
        { method: 'GET', url: '/api/products?q=a&q=b' },
        { method: 'GET', url: '/api/products?category[x]=1' },
        { method: 'GET', url: '/%' },
        { method: 'GET', url: '/product/%' },
        { method: 'GET', url: '/category/%FF' },
        { method: 'GET', url: '//evil.example/path' },
        { method: 'GET', url: '/api/../../etc/passwd' },
        { method: 'GET', url: '/uploads/../../etc/passwd' },
        { method: 'GET', url: '/uploads/%2e%2e/%2e%2e/etc/passwd' },
        { method: 'GET', url: '/', headers: { host: 'bad host"<>' } },
        { method: 'GET', url: '/', headers: { 'x-forwarded-host': '"><script>' } },
        { method: 'GET', url: '/', headers: { cookie: 'fifty_sid=%%%; other=;;' } },
        { method: 'GET', url: '/api/products', headers: { 'accept-encoding': 'bogus;q=x, br;q=abc' } },
        { method: 'HEAD', url: '/api/products' },
        { method: 'OPTIONS', url: '/api/products' },
        { method: 'DELETE', url: '/api/products' },
        {
          method: 'POST',
          url: '/api/test/echo',
          headers: { 'content-type': 'application/json; charset=utf-16' },
        },
        { method: 'POST', url: '/api/test/echo', headers: { 'content-type': 'application/jsonx' } },
        { method: 'POST', url: '/api/test/echo', headers: { 'content-type': '' } },
        { method: 'POST', url: '/api/products' },
      ];
      for (const c of cases) {
        const res = await shopper().request({
          method: c.method,
          url: c.url,
          headers: c.headers,
          payload: c.method === 'POST' ? '{"name":"x"}' : undefined,
        });
        expect(res.statusCode, `${c.method} ${c.url} ${JSON.stringify(c.headers ?? {})}`).toBeLessThan(500);
        if (
          new URL(c.url, 'http://x').pathname.startsWith('/api') &&
          c.method !== 'HEAD' &&
          res.statusCode >= 400
        ) {
          expect(res.headers['content-type'], `${c.method} ${c.url}`).toMatch(/^application\/json/);
          expect(JSON.parse(res.body), `${c.method} ${c.url}`).toHaveProperty('message');
        }
      }
    });

    test('GET /healthz reports the database', async () => {
      const res = await shopper().get('/healthz');
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ status: 'ok', database: 'external' });
    });
  },
  { deps: { extraRoutes: probeRoutes } },
);

test('GET /healthz does a database round trip: 503 when the database is gone', async () => {
  const t = await buildTestApp({ seed: false });
  try {
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    await t.database.close();
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'unavailable' });
  } finally {
    await t.app.close();
    fs.rmSync(t.dataDir, { recursive: true, force: true });
  }
});
