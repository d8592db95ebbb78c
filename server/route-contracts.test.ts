import type { RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { errorResponses } from '../common/contracts/api-error';
import { buildTestApp, type TestApp } from '../tests/support/build-test-app';

// Every /api route declares a zod response schema for its 2xx answer, and the app's serializer is the
// zod one (fastify-type-provider-zod's serializerCompiler): an answer is encoded by its contract, so a
// field the contract lacks is stripped and a missing or mistyped one is a 500, never a silent leak.
// A new /api route without a response schema fails here unless it is added below with a reason.

/** Routes that send no JSON through the serializer, or are not converted yet. `METHOD url` → why. */
const WITHOUT_RESPONSE_SCHEMA: Record<string, string> = {
  // Server-Sent Events: written straight to the socket after reply.hijack(); each event's data is
  // liveStockSchema / DropStatus JSON (common/contracts/catalog.ts, drops.ts).
  'GET /api/products/:id/stock/events': 'event stream',
  'GET /api/drops/:productId/events': 'event stream',
  // The catalogue snapshot's precompressed JSON bytes (server/plugins/precompressed.ts); shapes in
  // common/contracts/catalog.ts, checked against the snapshot by catalog.routes.test.ts.
  'GET /api/categories': 'raw snapshot bytes (categoryListSchema)',
  'GET /api/products': 'raw snapshot bytes (productListSchema)',
  'GET /api/products/page': 'raw snapshot bytes (productPageSchema)',
  'GET /api/products/featured': 'raw snapshot bytes (productListSchema)',
  // text/csv downloads.
  'GET /api/admin/orders.csv': 'CSV text',
  'GET /api/admin/pick-list.csv': 'CSV text',
  'GET /api/admin/newsletter-signups.csv': 'CSV text',
  'GET /api/admin/notify-demand/:id/signups.csv': 'CSV text',
  // text/calendar download (alerts.calendar.ts).
  'GET /api/products/:id/calendar.ics': 'iCalendar text',
  // The "your turn" mail's link: a 303 to the product's waiting room (drops/ticket.routes.ts).
  'GET /api/drops/:productId/turn': 'redirect',
};

const isZod = (value: unknown): boolean => value instanceof z.ZodType;
const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');

let t: TestApp;
const routes: RouteOptions[] = [];

beforeAll(async () => {
  t = await buildTestApp({
    seed: false,
    deps: {
      onRoute: (route) => {
        routes.push(route);
      },
      // Probes of the serializer itself: one answer with a field too many, one with a field missing.
      extraRoutes: async (app) => {
        const r = app.withTypeProvider<ZodTypeProvider>();
        const probe = z.object({ id: z.string(), name: z.string() });
        r.get('/probe/extra', { schema: { response: { 200: probe, ...errorResponses } } }, async () =>
          ({ id: 'p1', name: 'Tee', passwordHash: 'secret' }) as unknown as z.infer<typeof probe>,
        );
        r.get('/probe/missing', { schema: { response: { 200: probe, ...errorResponses } } }, async () =>
          ({ id: 'p1' }) as unknown as z.infer<typeof probe>,
        );
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('every /api route has a response contract', () => {
  test('the walk saw the API (the hook is wired)', () => {
    const api = routes.filter((r) => r.url.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(40);
    expect(api.map((r) => r.url)).toContain('/api/products/:id');
  });

  test('each /api route declares a zod schema for a 2xx status, or is listed with a reason', () => {
    const missing: string[] = [];
    const listedButDeclared: string[] = [];
    for (const route of routes) {
      if (!route.url.startsWith('/api/')) continue;
      for (const method of methodsOf(route)) {
        const key = `${method} ${route.url}`;
        const response = (route.schema?.response ?? {}) as Record<string, unknown>;
        const success = Object.entries(response).filter(([status]) => /^2(\d\d|xx)$/.test(status));
        const declared = success.length > 0 && success.every(([, schema]) => isZod(schema));
        if (key in WITHOUT_RESPONSE_SCHEMA) {
          if (declared) listedButDeclared.push(key);
        } else if (!declared) {
          missing.push(key);
        }
      }
    }
    expect(missing, 'routes without a zod response schema for their 2xx answer').toEqual([]);
    // Keeps the list honest: a converted route must leave it.
    expect(listedButDeclared, 'routes listed as exceptions that now declare a schema').toEqual([]);
  });

  test('the list names only routes that exist', () => {
    const seen = new Set(routes.flatMap((r) => methodsOf(r).map((m) => `${m} ${r.url}`)));
    expect(Object.keys(WITHOUT_RESPONSE_SCHEMA).filter((key) => !seen.has(key))).toEqual([]);
  });

  test('error answers share the { message } schema where a route declares them', () => {
    for (const route of routes) {
      const response = (route.schema?.response ?? {}) as Record<string, unknown>;
      for (const status of ['4xx', '5xx'] as const) {
        if (status in response) expect(response[status], `${route.url} ${status}`).toBe(errorResponses[status]);
      }
    }
  });
});

describe('the serializer is the contract', () => {
  test('a field the contract lacks is stripped', async () => {
    const res = await t.app.inject({ url: '/probe/extra' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"id":"p1","name":"Tee"}');
  });

  test('a missing field is a 500 { message }, not a partial answer', async () => {
    const res = await t.app.inject({ url: '/probe/missing' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Something went wrong on our side. Please try again.' });
  });

  test('a real route: a 404 answers the shared { message }', async () => {
    const res = await t.app.inject({ url: '/api/products/00000000-0000-4000-8000-000000000000' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Product not found' });
  });
});
