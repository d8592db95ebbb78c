import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect, test } from 'vitest';
import { describeEachDb } from '../../tests/support/build-test-app';
import { customer, GOOD_CARD } from '../../tests/support/shop-fixtures';
import { adminClient } from '../../tests/support/admin-session';
import { serializeErrorSafely } from './log-redaction';

/** Bad text and private logs (docs/security.md §4): NUL and broken Unicode are 400s everywhere, and logs never hold personal data. */
const lines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});

const PERSONAL = {
  email: 'grace.hopper@example.org',
  firstName: 'Grace',
  lastName: 'Hopperova',
  shippingAddress: '77 Cobol Street',
};

describeEachDb(
  'bad text and safe logs',
  (t) => {
    const NUL = '\u0000';
    const LONE = '\uD800';

    test('a NUL or a lone surrogate in any listed route is a 400 { message }, never a 5xx', async () => {
      const shopper = t().client();
      const admin = await adminClient(t());
      // A real session with personal data, as in the repro.
      expect((await shopper.post('/api/customer-info', customer(PERSONAL))).statusCode).toBe(200);
      const product = (await t().services.catalog.listProducts())[0]!;
      for (const bad of [NUL, LONE, `a${NUL}b`, `x${LONE}y`]) {
        const enc = encodeURIComponent(bad.replace(LONE, 'Z')).replace('Z', '%ED%A0%80');
        const results = await Promise.all([
          shopper.get(`/api/categories/${enc}`),
          shopper.get(`/api/products/${enc}`),
          shopper.get(`/api/products?q=${enc}`),
          shopper.get(`/api/products?category=${enc}`),
          shopper.get(`/api/products/page?q=${enc}`),
          shopper.get(`/category/${enc}`),
          shopper.get(`/product/${enc}`),
          shopper.get(`/search?q=${enc}`),
          shopper.post('/api/customer-info', customer({ ...PERSONAL, shippingAddress: `77 Cobol${bad}` })),
          shopper.post('/api/customer-info', customer({ ...PERSONAL, email: `grace${bad}@example.org` })),
          shopper.post('/api/validate-discount', { code: `FALL${bad}15` }),
          shopper.post('/api/calculate-shipping', { discountCode: `FALL${bad}` }),
          shopper.post('/api/create-payment-intent', { discountCode: `X${bad}` }),
          shopper.post('/api/payment-success', { paymentIntentId: `pi_${bad}` }),
          shopper.post('/api/payments/offline/confirm', { clientSecret: `pi_x_secret_${bad}`, ...GOOD_CARD }),
          shopper.post('/api/payments/offline/confirm', { clientSecret: 'pi_x_secret_y', ...GOOD_CARD, cvc: `1${bad}` }),
          shopper.post('/api/cart', { productId: product.id, quantity: 1, selectedSize: `M${bad}` }),
          shopper.put(`/api/cart/${enc}`, { quantity: 1 }),
          shopper.post('/api/newsletter', { email: `a${bad}@example.org` }),
          shopper.post('/api/admin/login', { password: `pw${bad}` }),
          admin.put(`/api/admin/products/${product.id}`, { ...product, name: `Tee${bad}` }),
          admin.get(`/api/admin/orders?search=${enc}`),
          shopper.post('/api/cart', { [`key${bad}`]: 1, productId: product.id, quantity: 1 }),
        ]);
        for (const res of results) {
          expect(res.statusCode, `${res.statusCode} ${res.body.slice(0, 200)}`).toBeLessThan(500);
          // Invalid UTF-8 in a URL decodes to U+FFFD (valid text): only a NUL there must be refused.
          const inUrl = /%ED%A0%80/.test(res.raw.req.url ?? '');
          if (!inUrl) expect(res.statusCode, `${JSON.stringify(bad)} ${res.raw.req.url}`).toBeGreaterThanOrEqual(400);
          if (res.statusCode >= 400 && res.headers['content-type']?.toString().includes('json'))
            expect(typeof (res.json() as { message: string }).message, `${res.raw.req.url} ${res.body.slice(0, 200)}`).toBe("string");
        }
      }
      const nul = await shopper.post('/api/customer-info', customer({ ...PERSONAL, shippingAddress: `77${NUL}` }));
      expect(nul.json()).toEqual({ message: 'shippingAddress: Text must not contain NUL characters or invalid Unicode' });
      const cat = await shopper.get('/api/categories/%00');
      expect(cat.statusCode).toBe(400);
      expect(cat.json()).toEqual({ message: 'slug: Text must not contain NUL characters or invalid Unicode' });
    });

    test('a failing query with personal data in its parameters is logged without them', async () => {
      const shopper = t().client();
      const res = await shopper.post('/probe/fail', {});
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Something went wrong on our side. Please try again.' });
      const log = lines.join('');
      expect(log).toContain('unhandled error');
      expect(log).toContain('Failed query');
      expect(log).toContain('redacted');
      for (const value of Object.values(PERSONAL)) expect(log).not.toContain(value);
      expect(log).not.toContain('4242');
      expect(log).not.toContain('sess-0123456789abcdef');
    });

    test('the error serializer keeps the SQL and the SQLSTATE, never the values', () => {
      const cause = Object.assign(new Error('invalid input syntax for type integer: "grace.hopper@example.org"'), {
        code: '22P02',
        detail: 'Key (email)=(grace.hopper@example.org) already exists.',
      });
      const err = Object.assign(new Error('Failed query: select $1::int\nparams: grace.hopper@example.org'), {
        query: 'select $1::int',
        params: ['grace.hopper@example.org'],
        cause,
      });
      const out = JSON.stringify(serializeErrorSafely(err));
      expect(out).toContain('select $1::int');
      expect(out).toContain('22P02');
      expect(out).not.toContain('grace');
    });
  },
  {
    deps: {
      logger: { level: 'info', stream },
      extraRoutes: async (app: FastifyInstance) => {
        app.post('/probe/fail', async (request) => {
          // Everything personal the shop handles, in a log line and in the parameters of a failing query.
          request.log.info(
            { customer: { ...PERSONAL }, email: PERSONAL.email, sessionId: 'sess-0123456789abcdef', card: { cardNumber: '4242 4242 4242 4242', cvc: '123' } },
            'probe: about to fail',
          );
          await app.services.db.execute(
            sql`select ${PERSONAL.email}::int, ${PERSONAL.shippingAddress}::int, ${'sess-0123456789abcdef'}, ${PERSONAL.firstName}, ${PERSONAL.lastName}`,
          );
          return {};
        });
      },
    },
  },
);
