import { test, expect, type ConsoleMessage } from '@playwright/test';
import { markNewsletterSeen } from '../support/e2e';

// Server rendering: the storefront's screens arrive as HTML (crawlers, link previews, a first paint
// with no script), the browser hydrates that HTML without a mismatch, and nothing can be pressed
// before it works.

interface ApiProduct {
  id: string;
  name: string;
  category: string;
}

async function firstProduct(request: import('@playwright/test').APIRequestContext): Promise<ApiProduct> {
  const list = (await (await request.get('/api/products')).json()) as ApiProduct[];
  return list[0];
}

test('the HTML the server sends already holds each screen', async ({ request }) => {
  const p = await firstProduct(request);
  const home = await (await request.get('/')).text();
  expect(home).toContain('<fieldset id="root" role="none" disabled>');
  expect(home).toMatch(/<h1[^>]*id="home-hero-title"[^>]*>Fifty made\./);
  expect(home).toContain('Shop by Category');

  const product = await (await request.get(`/products/${p.id}`)).text();
  expect(product).toMatch(new RegExp(`<h1[^>]*>${p.name}</h1>`));
  expect(product).toContain('LIMITED EDITION - Only 50 Made');
  expect(product).toMatch(/<img[^>]*fetchpriority="high"/i);
  // The breadcrumb names the category as the browser will (not the slug).
  const categories = (await (await request.get('/api/categories')).json()) as Array<{ slug: string; name: string }>;
  const categoryName = categories.find((c) => c.slug === p.category)!.name;
  expect(product).toMatch(new RegExp(`<nav aria-label="Breadcrumb"[\\s\\S]*?>${categoryName}</a>`));

  const category = await (await request.get('/category/hoodies')).text();
  expect(category).toMatch(/<h1[^>]*>Hoodies<\/h1>/);

  const search = await (await request.get('/search?q=hoodie')).text();
  const hoodies = (await (await request.get('/api/products?q=hoodie')).json()) as ApiProduct[];
  expect(search).toContain(`${hoodies.length} ${hoodies.length === 1 ? 'result' : 'results'} for “hoodie”`);

  const missing = await request.get('/product/00000000-0000-4000-8000-000000000000');
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain('Product Not Found');

  // The session's own screens are drawn by the browser.
  expect(await (await request.get('/checkout')).text()).toContain('<div id="root"></div>');
});

test('hydration matches the server markup on every storefront screen and unlocks the controls', async ({ page, request }) => {
  await markNewsletterSeen(page);
  const p = await firstProduct(request);
  const errors: string[] = [];
  const onConsole = (m: ConsoleMessage) => {
    // 404 pages report their own status as a failed resource; that is expected, anything else is not.
    if (m.type() === 'error' && !/status of 404/.test(m.text())) errors.push(m.text());
  };
  page.on('console', onConsole);
  page.on('pageerror', (e) => errors.push(e.message));
  for (const url of ['/', `/product/${p.id}`, '/category/tshirts', '/search?q=hoodie', '/mission', '/size-guide', '/shipping', '/refund-policy', '/no-such-page']) {
    await page.goto(url);
    await expect(page.locator('#root'), url).not.toHaveAttribute('disabled');
  }
  expect(errors).toEqual([]);
});

test('before any script runs: the page reads, links and the skip link work, buttons are held', async ({ browser, request }) => {
  const p = await firstProduct(request);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: /Fifty made/i })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(p.name) }).first()).toBeVisible();

  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  // Held until hydration: a press now would do nothing, so the control says it is unavailable.
  await expect(page.getByRole('button', { name: 'Next slide' })).toBeDisabled();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Hoodies', exact: true }).click();
  await expect(page).toHaveURL(/\/category\/hoodies$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Hoodies' })).toBeVisible();
  await context.close();
});
