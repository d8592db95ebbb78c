import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, expect, test } from 'vitest';
import { describeEachDb } from '../../tests/support/build-test-app';
import { precompressClient } from '../../scripts/build-client.mjs';

// A stand-in for the Vite build, so these tests do not depend on `npm run build`.
const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-client-'));
const ASSET = '/assets/index-Ab12Cd34.js';
fs.mkdirSync(path.join(clientDir, 'assets'));
fs.writeFileSync(
  path.join(clientDir, 'index.html'),
  `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><!--app-head--><script type="module" crossorigin src="${ASSET}"></script></head><body><div id="root"></div></body></html>`,
);
fs.writeFileSync(path.join(clientDir, ASSET), `console.log(${JSON.stringify('x'.repeat(5000))});`);
fs.writeFileSync(path.join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
const FONT = '/assets/inter-Zz99.woff2';
fs.writeFileSync(path.join(clientDir, FONT), Buffer.alloc(4096, 7));
fs.mkdirSync(path.join(clientDir, '.vite'));
fs.writeFileSync(path.join(clientDir, '.vite', 'manifest.json'), '{}');
// The build's compressed copies (scripts/build-client.mjs precompressClient), made before the shop starts.
precompressClient(clientDir);
afterAll(() => fs.rmSync(clientDir, { recursive: true, force: true }));

const pageRoutes = [
  '/',
  '/mission',
  '/category/tshirts',
  '/search?q=hoodie',
  '/checkout',
  '/order-success',
  '/admin',
  '/refund-policy',
  '/size-guide',
  '/shipping',
];

describeEachDb(
  'app shell and static files',
  (t) => {
    test('every client route serves the app shell as HTML, not cached', async () => {
      const [product] = JSON.parse((await t().client().get('/api/products')).body) as Array<{ id: string }>;
      for (const url of [...pageRoutes, `/product/${product.id}`, `/products/${product.id}`]) {
        const res = await t().client().get(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(res.body, url).toContain('<div id="root"></div>');
        expect(res.body, url).toContain(`src="${ASSET}"`);
        expect(res.body, url).not.toContain('<!--app-head-->');
      }
    });

    test('an unknown non-API path still serves the app (which shows Page Not Found), with status 404', async () => {
      for (const url of [
        '/no-such-page',
        '/deeply/nested/unknown/path',
        '/product',
        '/category',
        '/mission/extra',
      ]) {
        const res = await t().client().get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
        expect(res.body, url).toContain('<div id="root"></div>');
        expect(res.body, url).toMatch(/<title>Page Not Found/);
      }
    });

    test('/categories/{slug} redirects permanently to /category/{slug}', async () => {
      const res = await t().client().get('/categories/tshirts');
      expect(res.statusCode).toBe(301);
      expect(res.headers.location).toBe('/category/tshirts');
    });

    test('hashed assets are cached immutably; other files for an hour; missing files are plain 404s', async () => {
      const asset = await t().client().get(ASSET);
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['content-type']).toMatch(/javascript/);

      const icon = await t().client().get('/favicon.svg');
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['cache-control']).toBe('public, max-age=3600');

      for (const url of ['/assets/missing-123.js', '/missing.png', '/uploads/seed/missing.webp']) {
        const res = await t().client().get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).not.toMatch(/html/);
      }
    });

    test('uploads are served from DATA_DIR/uploads with immutable caching', async () => {
      const dir = path.join(t().dataDir, 'uploads', 'seed');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'probe.webp'), Buffer.from('RIFF....WEBP'));
      const res = await t().client().get('/uploads/seed/probe.webp');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    test('responses are compressed (brotli, else gzip) when the client accepts it', async () => {
      const plain = await t().client().get('/api/products');
      const br = await t().app.inject({ url: '/api/products', headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      const gz = await t().app.inject({ url: '/api/products', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
      const html = await t().app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
      expect(html.headers['content-encoding']).toBe('gzip');
      const asset = await t().app.inject({ url: ASSET, headers: { 'accept-encoding': 'br' } });
      expect(asset.headers['content-encoding']).toBe('br');
    });

    test("the build's brotli and gzip copies are sent as they are, with a validator; a font is never compressed again", async () => {
      const onDisk = (suffix: string) => fs.readFileSync(path.join(clientDir, `${ASSET}${suffix}`));
      const br = await t().app.inject({ url: ASSET, headers: { 'accept-encoding': 'gzip, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.rawPayload.equals(onDisk('.br'))).toBe(true);
      expect(zlib.brotliDecompressSync(br.rawPayload).equals(onDisk(''))).toBe(true);
      const gz = await t().app.inject({ url: ASSET, headers: { 'accept-encoding': 'gzip' } });
      expect(gz.rawPayload.equals(onDisk('.gz'))).toBe(true);
      const plain = await t().app.inject({ url: ASSET });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.equals(onDisk(''))).toBe(true);

      // Revalidation: the same ETag in every encoding, a 304 without a body; HEAD sends the headers alone.
      expect(br.headers.etag).toBe(plain.headers.etag);
      const again = await t().app.inject({ url: ASSET, headers: { 'if-none-match': String(plain.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const head = await t().app.inject({ method: 'HEAD', url: ASSET, headers: { 'accept-encoding': 'br' } });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(head.body).toBe('');

      const font = await t().app.inject({ url: FONT, headers: { 'accept-encoding': 'br, gzip' } });
      expect(font.statusCode).toBe(200);
      expect(font.headers['content-type']).toBe('font/woff2');
      expect(font.headers['content-encoding']).toBeUndefined();
      expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(font.rawPayload.length).toBe(4096);

      // The copies, the manifest and the page template are not files of the shop.
      for (const url of [`${ASSET}.br`, `${ASSET}.gz`, '/.vite/manifest.json']) {
        expect((await t().app.inject({ url })).statusCode, url).toBe(404);
      }
      expect((await t().app.inject({ url: '/index.html' })).body).not.toContain('<!--app-head-->');
    });

    test('HEAD on a page answers like GET without a body', async () => {
      const res = await t().app.inject({ method: 'HEAD', url: '/mission' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toBe('');
    });

    test('a hostile Host header never breaks the page or leaks into it unescaped', async () => {
      for (const host of ['evil.example"><script>alert(1)</script>', 'a b', '[::1', 'x:99999999']) {
        const res = await t().app.inject({ url: '/', headers: { host } });
        expect(res.statusCode, host).toBe(200);
        expect(res.body, host).not.toContain('<script>alert(1)');
      }
      const spoofed = await t().app.inject({ url: '//evil.example/mission' });
      expect(spoofed.body).not.toMatch(/href="https?:\/\/evil\.example/);
    });
  },
  { deps: { clientDir } },
);
