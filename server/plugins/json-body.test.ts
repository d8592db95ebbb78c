import { expect, test } from 'vitest';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeEachDb, type TestApp } from '../../tests/support/build-test-app';
import { sessions } from '../modules/session/session.tables';
import { FORBIDDEN_KEY_MESSAGE } from './json-body';

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

    test('a body over 1 MB is 413 JSON', async () => {
      const big = JSON.stringify({ note: 'x'.repeat(1024 * 1024 + 10) });
      const res = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/test/note',
          payload: big,
          headers: { 'content-type': 'application/json' },
        });
      expect(res.statusCode).toBe(413);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toEqual({ message: 'Request body is too large' });

      // Just under the limit is fine.
      const ok = JSON.stringify({ note: 'x'.repeat(1000 * 1000) });
      expect(
        (
          await t()
            .client()
            .request({
              method: 'POST',
              url: '/api/test/note',
              payload: ok,
              headers: { 'content-type': 'application/json' },
            })
        ).statusCode,
      ).toBe(200);
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
