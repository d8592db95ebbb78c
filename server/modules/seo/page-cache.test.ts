import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { createProduct, readyShopper, startPayment } from '../../../tests/support/shop-fixtures';
import type { Product } from '../../../common/contracts/catalog';
import { ssrDirFor } from '../../plugins/server-render';
import { LruCache } from '../../plugins/page-cache';

// A stand-in for the built storefront whose render() counts its calls and prints the data it was
// given, so these tests see when a page is rendered and from which catalogue.
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-page-cache-'));
const clientDir = path.join(base, 'client');
fs.mkdirSync(clientDir, { recursive: true });
fs.mkdirSync(ssrDirFor(clientDir));
fs.writeFileSync(
  path.join(clientDir, 'index.html'),
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><!--app-head--></head><body><div id="root"></div></body></html>',
);
fs.writeFileSync(
  path.join(ssrDirFor(clientDir), 'entry-server.js'),
  `export async function render(pathname, search, bootstrap) {
    globalThis.__fiftyRenders = (globalThis.__fiftyRenders ?? 0) + 1;
    const p = bootstrap.product;
    return '<main data-path="' + pathname + '">' + (p ? p.name + ' stock ' + p.stock + ' $' + p.price : '') + '</main>';
  }`,
);
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const renders = () => (globalThis as { __fiftyRenders?: number }).__fiftyRenders ?? 0;

describe('LruCache', () => {
  test('evicts the least recently used beyond its entry cap', () => {
    const lru = new LruCache<string>(2, 1_000);
    lru.set('a', 'A', 1);
    lru.set('b', 'B', 1);
    expect(lru.get('a')).toBe('A');
    lru.set('c', 'C', 1);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
    expect(lru.size).toBe(2);
  });

  test('keeps its bytes under the cap and refuses what alone exceeds it', () => {
    const lru = new LruCache<string>(100, 10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    lru.set('c', 'C', 4);
    expect(lru.bytes).toBe(8);
    expect(lru.get('a')).toBeUndefined();
    lru.set('huge', 'H', 11);
    expect(lru.get('huge')).toBeUndefined();
    lru.set('b', 'B2', 2);
    expect(lru.bytes).toBe(6);
  });
});

describeEachDb(
  'rendered page cache',
  (t) => {
    test('a page is rendered once per catalogue version, and sent as identical br, gzip and identity bytes', async () => {
      const [product] = JSON.parse((await t().client().get('/api/products')).body) as Product[];
      const url = `/product/${product!.id}`;
      const before = renders();
      const plain = await t().app.inject({ url });
      expect(plain.statusCode).toBe(200);
      const br = await t().app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      const gz = await t().app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(renders() - before).toBe(1);
      expect(br.headers['content-encoding']).toBe('br');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
      // Many concurrent first requests share one render.
      const id = await createProduct(t().database.db, { name: 'Crowd Tee' });
      t().services.catalog.invalidate();
      const at = renders();
      const crowd = await Promise.all(Array.from({ length: 20 }, () => t().app.inject({ url: `/product/${id}` })));
      expect(crowd.every((r) => r.statusCode === 200 && r.body.includes('Crowd Tee'))).toBe(true);
      expect(renders() - at).toBe(1);
    });

    test('ETag and 304: the same tag for every encoding; a changed page gets a new one', async () => {
      const id = await createProduct(t().database.db, { name: 'Tagged Tee', price: '40.00' });
      t().services.catalog.invalidate();
      const url = `/product/${id}`;
      const first = await t().app.inject({ url, headers: { 'accept-encoding': 'br' } });
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect((await t().app.inject({ url })).headers.etag).toBe(etag);

      const again = await t().app.inject({ url, headers: { 'if-none-match': etag, 'accept-encoding': 'br' } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect((await t().app.inject({ url, headers: { 'if-none-match': `"other", ${etag}` } })).statusCode).toBe(304);

      // The admin changes the price: the very next request has the new page, under a new tag.
      const admin = await adminClient(t());
      const product = JSON.parse((await t().app.inject({ url: `/api/products/${id}` })).body) as Product;
      const { id: _id, inStock: _i, editionSize: _e, soldCount: _s, ...payload } = product;
      const put = await admin.put(`/api/admin/products/${id}`, {
        ...payload,
        description: 'A tee with a tag. Nothing more.',
        materials: 'Organic cotton',
        sustainabilityInfo: 'Made to order.',
        inStock: true,
        price: '41.00',
      });
      expect(put.statusCode, put.body).toBe(200);
      const changed = await t().app.inject({ url, headers: { 'if-none-match': etag } });
      expect(changed.statusCode).toBe(200);
      expect(changed.body).toContain('$41.00');
      expect(changed.headers.etag).not.toBe(etag);

      // Not-found pages are not revalidated (no validator), and keep their status.
      const missing = await t().app.inject({ url: '/product/00000000-0000-4000-8000-000000000000' });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers.etag).toBeUndefined();
    });

    test('stock taken by a checkout shows on the next page request', async () => {
      const id = await createProduct(t().database.db, { name: 'Held Tee', stock: 4 });
      t().services.catalog.invalidate();
      expect((await t().app.inject({ url: `/product/${id}` })).body).toContain('Held Tee stock 4');
      const shopper = await readyShopper(t(), id, { quantity: 3 });
      await startPayment(shopper);
      expect((await t().app.inject({ url: `/product/${id}` })).body).toContain('Held Tee stock 1');
      const home = await t().app.inject({ url: '/' });
      const boot = JSON.parse(/id="fifty-bootstrap">([\s\S]*?)<\/script>/.exec(home.body)![1]!) as {
        home: { grid: { products: Product[] } };
      };
      expect(boot.home.grid.products.find((p) => p.id === id)?.stock).toBe(1);
    });

    test('nothing in a page is per shopper: a shopper with a cart and session gets the same bytes, and no cookie', async () => {
      const id = await createProduct(t().database.db, { name: 'Carted Tee' });
      t().services.catalog.invalidate();
      const shopper = await readyShopper(t(), id);
      expect(shopper.cookies.size).toBeGreaterThan(0);
      for (const url of ['/', `/product/${id}`, '/category/tshirts', '/search?q=tee', '/mission', '/no-such-page']) {
        const anonymous = await t().app.inject({ url });
        const mine = await shopper.get(url);
        expect(mine.body, url).toBe(anonymous.body);
        expect(mine.headers['set-cookie'], url).toBeUndefined();
        expect(anonymous.headers['set-cookie'], url).toBeUndefined();
        expect(mine.body, url).not.toContain('ada@example.com');
      }
    });

    test('query strings a page does not read share its cached copy; searches are bounded', async () => {
      const at = renders();
      const a = await t().app.inject({ url: '/mission?utm_source=newsletter' });
      const b = await t().app.inject({ url: '/mission?fbclid=123' });
      expect(a.body).toBe(b.body);
      expect(renders() - at).toBeLessThanOrEqual(1);

      for (let i = 0; i < 260; i++) {
        const res = await t().app.inject({ url: `/search?q=tee${i}` });
        expect(res.statusCode).toBe(200);
      }
      const stats = t().app.pageCache.stats();
      expect(stats.openEnded).toBeLessThanOrEqual(200);
      // …and they never pushed the catalogue's own pages out.
      const before = renders();
      await t().app.inject({ url: '/mission' });
      expect(renders()).toBe(before);
    });

    test('the Host header plays no part: random hosts get one cached page, naming the shop\'s own address', async () => {
      await createProduct(t().database.db, { name: 'Host Tee' });
      t().services.catalog.invalidate();
      const before = renders();
      const bodies = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const res = await t().app.inject({ url: '/', headers: { host: `x${i}-${Math.random().toString(36).slice(2)}.example` } });
        expect(res.statusCode).toBe(200);
        expect(res.body).not.toMatch(/x\d+-\w+\.example/);
        bodies.add(res.body);
      }
      expect(renders() - before).toBe(1);
      expect(bodies.size).toBe(1);
      expect([...bodies][0]).toContain('<link rel="canonical" href="http://localhost:3000/">');
    });

    test('2,050 made-up draw pages and other minted spellings never evict the catalogue\'s pages', { timeout: 60_000 }, async () => {
      await createProduct(t().database.db, { name: 'Evict Tee' });
      t().services.catalog.invalidate();
      expect((await t().app.inject({ url: '/' })).statusCode).toBe(200);
      expect((await t().app.inject({ url: '/mission' })).statusCode).toBe(200);
      const catalogue = t().app.pageCache.stats().pages;
      for (let i = 0; i < 2_050; i++) {
        const id = `5b1c1d8e-3f0e-4a57-9a51-${i.toString(16).padStart(12, '0')}`;
        expect((await t().app.inject({ url: `/draws/${id}` })).statusCode).toBe(200);
      }
      for (const url of ['/MISSION', '/mission/', '/Mission', '/?category=no-such-thing', '/draw-entry/made-up-token']) {
        await t().app.inject({ url });
      }
      const stats = t().app.pageCache.stats();
      expect(stats.pages).toBe(catalogue);
      expect(stats.openEnded).toBeLessThanOrEqual(200);
      // The home page and /mission are still answered from the cache.
      const at = renders();
      await t().app.inject({ url: '/' });
      await t().app.inject({ url: '/mission' });
      expect(renders()).toBe(at);
    });
  },
  { deps: { clientDir } },
);
