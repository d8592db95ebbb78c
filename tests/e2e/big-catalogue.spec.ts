import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  test,
  expect,
  request as playwrightRequest,
  type APIRequestContext,
  type Page,
} from '@playwright/test';
import { freePort, stop, waitFor } from '../../bench/support/server-process';
import { growCatalogueOverApi } from '../support/grow-catalogue-api';
import { waitForHydration } from '../support/e2e';

// The home page does not grow with the catalogue (bench/README.md): at 100 and at 1,000 products its HTML
// stays at or under 40 KB of brotli, the grid shows one page of 24 with page links that work with
// and without script, and the filters still narrow it. The catalogue grows on a shop of this
// file's own (same build, own data directory), so the other specs' shop is never touched.

const LIMIT = 40 * 1024;
const ADMIN_PASSWORD = 'e2e-admin-password';

interface ApiProduct {
  id: string;
  category: string;
}

/** The bytes on the wire for `path` asked with Accept-Encoding: br (fetch APIs would decode them). */
function brotliBytes(
  baseURL: string,
  path: string,
): Promise<{ status: number; encoding: string | undefined; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, baseURL), { headers: { 'accept-encoding': 'br' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], bytes }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

test.describe.configure({ mode: 'serial' });

let server: ChildProcess | null = null;
let baseURL = '';
let dataDir = '';
let api: APIRequestContext;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const clientDir = process.env.E2E_CLIENT_DIR;
  if (!clientDir || !fs.existsSync(path.join(clientDir, 'index.html')))
    throw new Error('E2E_CLIENT_DIR has no built client');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-e2e-big-'));
  const port = await freePort();
  baseURL = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    PAYMENTS: 'offline',
    PUBLIC_URL: baseURL,
    DEMO_DATA: 'true',
    CLIENT_DIR: clientDir,
    FIFTY_SKIP_BUILD: '1',
  };
  // Its own embedded database in dataDir, whatever the environment names.
  delete env.DATABASE_URL;
  server = spawn(process.execPath, ['scripts/start.mjs'], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitFor(`${baseURL}/healthz`, server, 90_000);
  api = await playwrightRequest.newContext({ baseURL });
});

test.afterAll(async () => {
  await api?.dispose();
  if (server) await stop(server, 10_000);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A page on this file's shop, with the newsletter popup already seen. */
async function shopPage(
  browser: import('@playwright/test').Browser,
  opts: { javaScriptEnabled?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({ baseURL, ...opts });
  await context.addInitScript(() => window.localStorage.setItem('fifty:newsletter-seen', '1'));
  return context.newPage();
}

for (const total of [100, 1000]) {
  test(`home at ${total} products is at most 40 KB of brotli and shows one page of 24`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    expect(await growCatalogueOverApi(baseURL, ADMIN_PASSWORD, total)).toBe(total);
    const wire = await brotliBytes(baseURL, '/');
    expect(wire.status).toBe(200);
    expect(wire.encoding).toBe('br');
    console.log(`home at ${total} products: ${wire.bytes} bytes of brotli`);
    expect(wire.bytes).toBeLessThanOrEqual(LIMIT);

    const page = await shopPage(browser);
    await page.goto('/');
    const grid = page.locator('#shop');
    await expect(grid.getByRole('article')).toHaveCount(24);
    const pages = grid.getByRole('navigation', { name: 'Product pages' });
    await expect(pages.getByRole('link', { name: `Page ${Math.ceil(total / 24)}` })).toBeVisible();
    await expect(pages).toContainText(`Showing 1–24 of ${total}`);
    await page.context().close();
  });
}

const cardHrefs = (grid: import('@playwright/test').Locator) =>
  grid
    .getByRole('article')
    .evaluateAll((els) =>
      els.map((e) => e.querySelector('a[href^="/product/"]')?.getAttribute('href') ?? ''),
    );

test('page links work with script (client navigation) and without (plain links); filters still narrow the grid', async ({
  browser,
}) => {
  const page = await shopPage(browser);
  await page.goto('/');
  const grid = page.locator('#shop');
  const firstPage = await cardHrefs(grid);
  await waitForHydration(page);
  await grid.getByRole('navigation', { name: 'Product pages' }).getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/\?page=2#shop$/);
  await expect(grid.getByRole('navigation', { name: 'Product pages' })).toContainText(
    'Showing 25–48 of 1000',
  );
  await expect(grid.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  const secondPage = await cardHrefs(grid);
  expect(secondPage).toHaveLength(24);
  expect(secondPage.some((href) => firstPage.includes(href))).toBe(false);
  await expect(grid.getByRole('heading', { name: 'Latest Drops' })).toBeInViewport();

  // A filter narrows the grid to its category, from page 1, and pages within it.
  await grid
    .getByRole('group', { name: 'Filter products by category' })
    .getByRole('button', { name: 'Hoodies' })
    .click();
  await expect(page).toHaveURL(/\/\?category=hoodies$/);
  await expect(grid.getByRole('navigation', { name: 'Product pages' })).toContainText('Showing 1–24 of');
  const hoodies = (await (await api.get('/api/products/page?category=hoodies')).json()) as {
    products: ApiProduct[];
  };
  expect(hoodies.products.every((p) => p.category === 'hoodies')).toBe(true);
  await expect.poll(() => cardHrefs(grid)).toEqual(hoodies.products.map((p) => `/product/${p.id}`));

  // Without any script: the links are plain links to real, server-rendered pages.
  await page.context().close();
  const bare = await shopPage(browser, { javaScriptEnabled: false });
  await bare.goto('/');
  await bare.locator('#shop').getByRole('link', { name: 'Next' }).click();
  await expect(bare).toHaveURL(/\/\?page=2#shop$/);
  await bare.locator('#shop').getByRole('link', { name: 'Page 3' }).click();
  await expect(bare).toHaveURL(/\/\?page=3#shop$/);
  await expect(bare.locator('#shop').getByRole('navigation', { name: 'Product pages' })).toContainText(
    'Showing 49–72 of 1000',
  );
  await expect(bare.locator('#shop').getByRole('link', { name: 'Page 3' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await bare.context().close();
});
