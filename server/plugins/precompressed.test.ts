import zlib from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { describeEachDb } from '../../tests/support/build-test-app';
import { products } from '../modules/catalog/catalog.tables';
import { createBodyCache, negotiateEncoding, PrecompressedBody } from './precompressed';

describe('negotiateEncoding', () => {
  test.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['deflate', 'identity'],
    ['GZIP', 'gzip'],
    ['br;q=abc, gzip', 'gzip'],
    [',,;,', 'identity'],
  ] as const)('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('PrecompressedBody', () => {
  test('compresses once per encoding and round-trips', async () => {
    const text = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ i, name: `item ${i}` })) });
    const body = new PrecompressedBody(text);
    const br = await body.bytes('br');
    expect(await body.bytes('br')).toBe(br);
    expect(zlib.brotliDecompressSync(br).toString()).toBe(text);
    expect(zlib.gunzipSync(await body.bytes('gzip')).toString()).toBe(text);
    expect(body.bytes('identity')).toEqual(Buffer.from(text));
    expect(br.length).toBeLessThan(text.length / 3);
  });

  test('the cache keeps one body per text', () => {
    const cache = createBodyCache();
    const a = cache('{"a":1}');
    expect(cache('{"a":1}')).toBe(a);
    expect(cache('{"a":2}')).not.toBe(a);
  });
});

describeEachDb('precompressed catalogue lists', (t) => {
  test('every encoding carries the same JSON, with Vary: Accept-Encoding', async () => {
    for (const url of ['/api/products', '/api/categories']) {
      const plain = await t().app.inject({ url });
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.headers.vary, url).toMatch(/accept-encoding/i);
      const br = await t().app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-type'], url).toBe('application/json; charset=utf-8');
      const gz = await t().app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      if (plain.rawPayload.length < 1024) {
        // Too small to be worth compressing.
        expect(br.headers['content-encoding'], url).toBeUndefined();
        expect(br.body, url).toBe(plain.body);
        continue;
      }
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(zlib.brotliDecompressSync(br.rawPayload).toString(), url).toBe(plain.body);
      expect(gz.headers['content-encoding'], url).toBe('gzip');
      expect(zlib.gunzipSync(gz.rawPayload).toString(), url).toBe(plain.body);
      const none = await t().app.inject({ url, headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
      expect(none.headers['content-encoding'], url).toBeUndefined();
      expect(none.body, url).toBe(plain.body);
    }
  });

  test('a catalogue change reaches the compressed body too', async () => {
    const [first] = JSON.parse((await t().app.inject({ url: '/api/products' })).body) as Array<{
      id: string;
      name: string;
    }>;
    await t().app.inject({ url: '/api/products', headers: { 'accept-encoding': 'br' } });
    await t()
      .services.db.update(products)
      .set({ name: 'Renamed For The Test' })
      .where(eq(products.id, first.id));
    t().services.catalog.invalidate();
    try {
      const br = await t().app.inject({ url: '/api/products', headers: { 'accept-encoding': 'br' } });
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain('Renamed For The Test');
    } finally {
      await t().services.db.update(products).set({ name: first.name }).where(eq(products.id, first.id));
      t().services.catalog.invalidate();
    }
  });

  test('search results are still compressed per request', async () => {
    const plain = await t().app.inject({ url: '/api/products?q=hoodie' });
    const res = await t().app.inject({
      url: '/api/products?q=hoodie',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(plain.body);
    expect(JSON.parse(plain.body).length).toBeGreaterThan(0);
  });
});
