import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/support/build-test-app';
import { growCatalogue } from '../../../tests/support/grow-catalogue';
import { ssrDirFor } from '../../plugins/server-render';

// The home page does not grow with the catalogue: rendered by the storefront's real server
// rendering (client/entry-server.tsx, compiled by Vitest), at 100 and at 1,000 products its HTML
// stays at or under 40 KB of brotli, and it embeds only what it shows.

const LIMIT = 40 * 1024;
const entry = fileURLToPath(new URL('../../../client/entry-server.tsx', import.meta.url));
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-home-size-'));
const clientDir = path.join(base, 'client');
fs.mkdirSync(clientDir, { recursive: true });
fs.mkdirSync(ssrDirFor(clientDir));
fs.writeFileSync(
  path.join(clientDir, 'index.html'),
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><!--app-head--></head><body><div id="root"></div></body></html>',
);
fs.writeFileSync(path.join(ssrDirFor(clientDir), 'entry-server.js'), `export { render } from ${JSON.stringify(pathToFileURL(entry).href)};\n`);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ deps: { clientDir } });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

async function home(url = '/') {
  const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-encoding']).toBe('br');
  const html = zlib.brotliDecompressSync(res.rawPayload).toString();
  const boot = JSON.parse(/id="fifty-bootstrap">([\s\S]*?)<\/script>/.exec(html)![1]!) as {
    products?: unknown;
    home: { featured: unknown[]; grid: { products: Array<{ name: string }>; total: number; pageCount: number } };
  };
  return { brotli: res.rawPayload.length, html, boot };
}

const articles = (html: string) => (html.match(/<article/g) ?? []).length;

test.each([100, 1000])('home at %i products: ≤ 40 KB brotli, one grid page rendered and embedded', async (total) => {
  expect(await growCatalogue(t.database.db, total)).toBe(total);
  t.services.catalog.invalidate();
  const page = await home();
  console.log(`home at ${total} products: ${page.html.length} bytes of HTML, ${page.brotli} bytes brotli`);
  expect(page.brotli).toBeLessThanOrEqual(LIMIT);
  expect(page.boot.products).toBeUndefined();
  expect(page.boot.home.grid.total).toBe(total);
  expect(page.boot.home.grid.products).toHaveLength(24);
  expect(page.boot.home.featured).toHaveLength(4);
  // The featured strip and the 24 cards of the grid; nothing else from the catalogue.
  expect(articles(page.html)).toBe(28);
  expect(page.html).toContain('Latest Drops');
  // Page links work without script: plain links to real URLs, the next one marked.
  expect(page.html).toMatch(/<a[^>]*href="\/\?page=2#shop"[^>]*rel="next"|<a[^>]*rel="next"[^>]*href="\/\?page=2#shop"/);
  expect(page.html).toContain(`aria-label="Page ${page.boot.home.grid.pageCount}"`);
});

test('the last page and a filtered page are real pages too, with their own products', async () => {
  const first = await home();
  const last = first.boot.home.grid.pageCount;
  const end = await home(`/?page=${last}`);
  expect(end.brotli).toBeLessThanOrEqual(LIMIT);
  expect(end.html).toMatch(/rel="prev"/);
  expect(end.html).not.toMatch(/rel="next"/);
  const names = end.boot.home.grid.products.map((p) => p.name);
  expect(names.every((n) => end.html.includes(n.replace(/&/g, '&amp;')))).toBe(true);
  expect(names.some((n) => first.html.includes(`>${n}<`))).toBe(false);

  const hoodies = await home('/?category=hoodies&page=2');
  expect(hoodies.html).toMatch(/aria-pressed="true"[^>]*>Hoodies</);
  expect(hoodies.html).toContain('href="/?category=hoodies#shop"');
});
