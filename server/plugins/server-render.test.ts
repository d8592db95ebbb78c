import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { describeEachDb } from '../../tests/support/build-test-app';
import { ssrDirFor } from './server-render';

// A stand-in for `npm run build`: index.html, a Vite manifest and a server-rendering bundle whose
// render() shows what it was given, so these tests check the server's side of server rendering.
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-ssr-'));
const clientDir = path.join(base, 'client');
const ssrDir = ssrDirFor(clientDir);
fs.mkdirSync(path.join(clientDir, '.vite'), { recursive: true });
fs.mkdirSync(ssrDir);
fs.writeFileSync(
  path.join(clientDir, 'index.html'),
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><!--app-head--><script type="module" crossorigin src="/assets/index.js"></script><link rel="stylesheet" crossorigin href="/assets/index.css"></head><body><div id="root"></div></body></html>',
);
fs.writeFileSync(
  path.join(clientDir, '.vite', 'manifest.json'),
  JSON.stringify({
    'index.html': { file: 'assets/index.js', isEntry: true, dynamicImports: ['vendor.ts', 'boot.tsx'] },
    'vendor.ts': { file: 'assets/vendor.js', imports: ['_react.js'] },
    '_react.js': { file: 'assets/react.js' },
    'boot.tsx': { file: 'assets/boot.js', imports: ['_react.js', '_shared.js'] },
    '_shared.js': { file: 'assets/shared.js' },
    'pages/mission-page.tsx': { file: 'assets/mission.js', imports: ['_shared.js'] },
    'pages/checkout-page.tsx': { file: 'assets/checkout.js', imports: ['_shared.js'] },
  }),
);
fs.writeFileSync(
  path.join(ssrDir, 'entry-server.js'),
  `export async function render(pathname, search, bootstrap) {
    if (pathname === '/size-guide') throw new Error('render failed');
    const name = bootstrap.product ? bootstrap.product.name : '';
    return '<main data-path="' + pathname + '" data-search="' + search + '" data-shop="' + (bootstrap.settings?.shopName ?? '') + '">' + name + '</main>';
  }`,
);
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describeEachDb(
  'server rendering',
  (t) => {
    test('a storefront screen arrives rendered, inside a disabled fieldset, with its data and script list after it', async () => {
      const res = await t().client().get('/mission');
      expect(res.statusCode).toBe(200);
      const html = res.body;
      expect(html).toContain(
        '<fieldset id="root" role="none" disabled><main data-path="/mission" data-search="" data-shop="FIFTY"></main></fieldset>',
      );
      expect(html).not.toContain('<div id="root"></div>');
      // The stylesheet comes before the page's own head; scripts wait for the first paint.
      expect(html.indexOf('/assets/index.css')).toBeLessThan(html.indexOf('<title>'));
      expect(html).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/index.js">');
      expect(html).not.toContain('rel="modulepreload"');
      const list = /<script type="application\/json" id="fifty-scripts">(.*?)<\/script>/.exec(html)?.[1];
      expect(JSON.parse(list!)).toEqual([
        '/assets/vendor.js',
        '/assets/react.js',
        '/assets/boot.js',
        '/assets/shared.js',
        '/assets/mission.js',
      ]);
      expect(html.indexOf('id="fifty-bootstrap"')).toBeGreaterThan(html.indexOf('</fieldset>'));
    });

    test("the renderer gets the page's own data and query string", async () => {
      const [product] = JSON.parse((await t().client().get('/api/products')).body) as Array<{ id: string; name: string }>;
      const page = await t().client().get(`/products/${product.id}`);
      expect(page.body).toContain(`data-path="/products/${product.id}"`);
      expect(page.body).toContain(`>${product.name}</main>`);
      const search = await t().client().get('/search?q=hood%20ie');
      expect(search.body).toContain('data-path="/search" data-search="q=hood%20ie"');
    });

    test('not-found screens are rendered too, with their 404 status', async () => {
      const res = await t().client().get('/no-such-page');
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('<fieldset id="root" role="none" disabled><main data-path="/no-such-page"');
    });

    test('checkout, order success and admin are left to the browser, with their scripts preloaded at once', async () => {
      for (const url of ['/checkout', '/order-success', '/admin']) {
        const res = await t().client().get(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toContain('<div id="root"></div>');
        expect(res.body, url).not.toContain('<fieldset');
        expect(res.body, url).not.toContain('id="fifty-scripts"');
        expect(res.body, url).toContain('<script type="module" crossorigin src="/assets/index.js">');
      }
      const checkout = (await t().client().get('/checkout')).body;
      for (const f of ['vendor.js', 'react.js', 'boot.js', 'shared.js', 'checkout.js']) expect(checkout).toContain(`<link rel="modulepreload" href="/assets/${f}">`);
    });

    test('a render that throws costs the speed-up, not the page: it is sent for the browser to render', async () => {
      const res = await t().client().get('/size-guide');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).toContain('<title>');
      expect(res.body).toContain('<link rel="modulepreload" href="/assets/boot.js">');
    });
  },
  { deps: { clientDir } },
);
