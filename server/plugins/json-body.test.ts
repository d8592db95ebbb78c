import { expect, test, vi } from 'vitest';
import secureJson from 'secure-json-parse';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeEachDb, type TestApp } from '../../tests/support/build-test-app';
import { sessions } from '../modules/session/session.tables';
import { adminClient } from '../../tests/support/admin-session';
import { FORBIDDEN_KEY_MESSAGE, MAX_JSON_DEPTH, SHOPPER_BODY_LIMIT, TOO_DEEP_MESSAGE } from './json-body';

// A write endpoint standing in for the real ones: it stores a note in the shopper's session row.
async function probeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/test/note',
    { schema: { body: z.object({ note: z.string().optional() }) } },
    async (request) => {
      await request.saveSession({ note: request.body.note ?? '(empty)' });
      return { saved: true };
    },
  );
}

async function sessionRows(t: TestApp): Promise<number> {
  const [row] = await t.services.db.select({ n: sql<number>`count(*)::int` }).from(sessions);
  return row.n;
}

/** Session rows holding this note: what the probe route stored from the body it was given. */
async function notesSaved(t: TestApp, note: string): Promise<number> {
  const [row] = await t.services.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(sql`${sessions.sess}->>'note' = ${note}`);
  return row.n;
}

describeEachDb(
  'JSON bodies',
  (t) => {
    test('a valid JSON body reaches the route', async () => {
      const res = await t().client().post('/api/test/note', { note: 'hello' });
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ saved: true });
      expect(await notesSaved(t(), 'hello')).toBe(1);
    });

    test('an empty body with a JSON content type reads as {} (the spec logout posts one)', async () => {
      const res = await t()
        .client()
        .request({ method: 'POST', url: '/api/test/note', headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ saved: true });
      // The route saw {} (no note), not a parse error turned into something else.
      expect(await notesSaved(t(), '(empty)')).toBe(1);
    });

    test('malformed JSON is 400 { message } and changes nothing', async () => {
      const before = await sessionRows(t());
      for (const payload of ['{"note": ', '{note: 1}', "{'note':'x'}", 'undefined', '\u0000']) {
        const res = await t()
          .client()
          .request({
            method: 'POST',
            url: '/api/test/note',
            payload,
            headers: { 'content-type': 'application/json' },
          });
        expect(res.statusCode, payload).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(res.body)).toEqual({ message: 'Request body is not valid JSON' });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      expect(await sessionRows(t())).toBe(before);
    });

    test('prototype poisoning keys (__proto__, constructor.prototype) are 400 { message } and change nothing', async () => {
      const before = await sessionRows(t());
      for (const payload of [
        '{"note":"x","__proto__":{"isAdmin":true}}',
        '{"note":"x","nested":{"__proto__":{"isAdmin":true}}}',
        '{"note":"x","\\u005f_proto__":{"isAdmin":true}}',
        '{"note":"x","constructor":{"prototype":{"isAdmin":true}}}',
        '[{"__proto__":{}}]',
      ]) {
        const res = await t()
          .client()
          .request({ method: 'POST', url: '/api/test/note', payload, headers: { 'content-type': 'application/json' } });
        expect(res.statusCode, payload).toBe(400);
        expect(JSON.parse(res.body)).toEqual({ message: FORBIDDEN_KEY_MESSAGE });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      expect(await sessionRows(t())).toBe(before);
      // The words themselves are fine as values, and a plain "constructor" key is harmless.
      for (const body of [{ note: '__proto__ constructor.prototype' }, { note: 'x', constructor: 'y' }]) {
        expect((await t().client().post('/api/test/note', body)).statusCode).toBe(200);
      }
    });

    test('a shopper route takes 16 KB: 17 KB is 413 JSON before it is read, just under is fine', async () => {
      const post = (payload: string) =>
        t().client().request({ method: 'POST', url: '/api/test/note', payload, headers: { 'content-type': 'application/json' } });
      const over = await post(JSON.stringify({ note: 'x'.repeat(17 * 1024) }));
      expect(over.statusCode).toBe(413);
      expect(over.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(over.body)).toEqual({ message: 'Request body is too large' });
      expect(await notesSaved(t(), 'x'.repeat(17 * 1024))).toBe(0);
      // A megabyte of nested arrays (what once cost the event loop a quarter of a second to parse) is refused the same way.
      const nested = await post(`${'['.repeat(512 * 1024)}${']'.repeat(512 * 1024)}`);
      expect(nested.statusCode).toBe(413);
      expect(JSON.parse(nested.body)).toEqual({ message: 'Request body is too large' });

      const under = await post(JSON.stringify({ note: 'y'.repeat(SHOPPER_BODY_LIMIT - 100) }));
      expect(under.statusCode, under.body).toBe(200);
    });

    test('deep nesting is 400 { message } before the body is parsed', async () => {
      const parse = vi.spyOn(secureJson, 'parse');
      try {
        for (const payload of [
          // Fifteen kilobytes of `[`, under the size limit: nothing else about it is checked.
          '['.repeat(15 * 1024),
          `{"note":${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}}`,
          // Too deep first, broken after: the answer says too deep, so the rest was never parsed.
          `${'['.repeat(MAX_JSON_DEPTH + 1)} not json at all`,
        ]) {
          const res = await t()
            .client()
            .request({ method: 'POST', url: '/api/test/note', payload, headers: { 'content-type': 'application/json' } });
          expect(res.statusCode, payload.slice(0, 40)).toBe(400);
          expect(JSON.parse(res.body)).toEqual({ message: TOO_DEEP_MESSAGE });
        }
        expect(parse).not.toHaveBeenCalled();
      } finally {
        parse.mockRestore();
      }
      // Brackets and braces inside strings are text, not nesting; a body at the limit is fine.
      const inString = await t().client().post('/api/test/note', { note: '[{'.repeat(100) });
      expect(inString.statusCode, inString.body).toBe(200);
      const atLimit = `{"note":"ok","n":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`;
      const res = await t()
        .client()
        .request({ method: 'POST', url: '/api/test/note', payload: atLimit, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, res.body).toBe(200);
    });

    test('text/plain, form and multipart posts are 415 and change nothing (no cross-site form writes)', async () => {
      const before = await sessionRows(t());
      const cases: Array<[string, string]> = [
        ['text/plain', '{"note":"csrf"}'],
        ['text/plain;charset=UTF-8', '{"note":"csrf"}'],
        ['application/x-www-form-urlencoded', 'note=csrf'],
        [
          'multipart/form-data; boundary=x',
          '--x\r\nContent-Disposition: form-data; name="note"\r\n\r\ncsrf\r\n--x--\r\n',
        ],
        ['text/html', '<b>x</b>'],
      ];
      for (const [type, payload] of cases) {
        const shopper = t().client();
        const res = await shopper.request({
          method: 'POST',
          url: '/api/test/note',
          payload,
          headers: { 'content-type': type },
        });
        expect(res.statusCode, type).toBe(415);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(res.body), type).toEqual({ message: 'Unsupported content type: send application/json' });
        expect(res.headers['set-cookie'], type).toBeUndefined();
      }
      expect(await sessionRows(t())).toBe(before);
    });

    test('a POST with a body but no content type is refused', async () => {
      const before = await sessionRows(t());
      const res = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/test/note',
          payload: Buffer.from('{"note":"x"}'),
          headers: { 'content-type': '' },
        });
      expect(res.statusCode).toBe(415);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toEqual({ message: 'Unsupported content type: send application/json' });
      expect(await sessionRows(t())).toBe(before);
    });
  },
  { deps: { extraRoutes: probeRoutes }, seed: false },
);

describeEachDb('Body limits per route', (t) => {
  const json = { 'content-type': 'application/json' };

  test("17 KB to a shopper's route (cart add, the admin login) is 413 { message }", async () => {
    const [product] = JSON.parse((await t().client().get('/api/products')).body) as Array<{ id: string }>;
    for (const url of ['/api/cart', '/api/admin/login']) {
      const res = await t()
        .client()
        .request({ method: 'POST', url, headers: json, payload: JSON.stringify({ productId: product!.id, quantity: 1, password: 'p', pad: 'x'.repeat(17 * 1024) }) });
      expect(res.statusCode, url).toBe(413);
      expect(JSON.parse(res.body), url).toEqual({ message: 'Request body is too large' });
    }
  });

  test("the owner's product form takes about 200 KB; 300 KB is 413", async () => {
    const admin = await adminClient(t());
    const form = {
      name: 'Heavy Form Tee',
      description: 'A tee whose form carried a lot.',
      price: '40.00',
      category: 'hoodies',
      materials: 'Organic cotton',
      sustainabilityInfo: 'Made to order.',
      stock: 5,
      images: [],
      sizes: [],
      colors: [],
    };
    // The form's fields at their longest, and what a browser extension may add, come to this size; unknown fields are dropped.
    const big = await admin.post('/api/admin/products', { ...form, extra: 'x'.repeat(200 * 1024) });
    expect(big.statusCode, big.body.slice(0, 200)).toBe(201);
    const tooBig = await admin.post('/api/admin/products', { ...form, name: 'Too Heavy Tee', extra: 'x'.repeat(300 * 1024) });
    expect(tooBig.statusCode).toBe(413);
    expect(JSON.parse(tooBig.body)).toEqual({ message: 'Request body is too large' });
  });
});
