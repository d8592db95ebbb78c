import { test, expect, type Page } from '@playwright/test';
import { keepScreenshot, loginOwner, markNewsletterSeen, shootAtBothWidths, teeData, waitForHydration, type OwnerApi } from '../support/e2e';

// A product sold by draw shows its draw from the first HTML (docs/draw.md): with JavaScript off the panel is
// there and nothing offers Add to Cart; with it on, Add to Cart never shows, neither on the server-rendered
// page while its draw's answer is slow, nor on a page reached in the browser (the purchase area waits for
// the answer). A product without a draw still gets its Add to Cart once the answer comes.

test.describe.configure({ mode: 'serial' });

let owner: OwnerApi;
let drawnId = '';
let plainId = '';
const stamp = Date.now();
const drawnName = `Drawn SSR Tee ${stamp}`;
const plainName = `Plain SSR Tee ${stamp}`;

const productData = (name: string) => teeData(owner, name);

/**
 * Notes, from the first byte of every document, whether the product page's purchase controls (its Add to
 * Cart, in the purchase bar) were ever in the page, if only for a moment.
 */
async function watchForAddToCart(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { sawAddToCart?: boolean };
    w.sawAddToCart = false;
    const check = () => {
      if (document.querySelector('[data-testid="purchase-bar"]')) w.sawAddToCart = true;
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  });
}
const sawAddToCart = (page: Page) =>
  page.evaluate(() => (window as unknown as { sawAddToCart?: boolean }).sawAddToCart);

/** Holds every GET of a product's draw until `release` is called. */
async function holdDrawAnswers(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const asked: string[] = [];
  await page.route(/\/api\/products\/[^/]+\/draw$/, async (route) => {
    asked.push(route.request().url());
    await released;
    await route.continue();
  });
  return { release, asked };
}

test.beforeAll(async ({ baseURL }) => {
  owner = await loginOwner(baseURL);
  drawnId = await owner.createProduct(productData(drawnName));
  plainId = await owner.createProduct(productData(plainName));
  const created = await owner.request.post('/api/admin/draws', {
    data: {
      productId: drawnId,
      opensAt: new Date(Date.now() - 60_000).toISOString(),
      closesAt: new Date(Date.now() + 30 * 60_000).toISOString(),
      drawAt: new Date(Date.now() + 60 * 60_000).toISOString(),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
});

test.afterAll(async () => {
  await owner?.dispose();
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the first HTML of a drawn product shows the draw, and no Add to Cart', async ({ page }, testInfo) => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      const res = await page.goto(`/product/${drawnId}`);
      expect(res?.status()).toBe(200);
      const panel = page.getByRole('region', { name: 'Enter the draw' });
      await expect(panel).toBeVisible();
      await expect(panel).toContainText('Sold by draw');
      await expect(panel.getByLabel('Size', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: /Add to Cart/ })).toHaveCount(0);
      await expect(page.getByTestId('purchase-bar')).toHaveCount(0);
      await expect(page.getByTestId('purchase-loading')).toHaveCount(0);
      await keepScreenshot(page, testInfo, `draw-ssr-nojs-${width}`, { fullPage: true });
    }
  });

  test('a product without a draw still has its Add to Cart in the first HTML', async ({ page }) => {
    await page.goto(`/product/${plainId}`);
    await expect(page.getByRole('button', { name: /Add to Cart/ })).toHaveCount(1);
    await expect(page.getByTestId('draw-panel')).toHaveCount(0);
  });
});

test.describe('with JavaScript on', () => {
  test('the server-rendered page never offers Add to Cart, even while its draw is slow to answer', async ({
    page,
  }, testInfo) => {
    await markNewsletterSeen(page);
    await watchForAddToCart(page);
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    const held = await holdDrawAnswers(page);
    await page.goto(`/product/${drawnId}`);
    const panel = page.getByRole('region', { name: 'Enter the draw' });
    await expect(panel).toBeVisible();
    // The sizes picked the moment the form can be used are the entry's (the form works, no mismatch).
    const size = panel.getByLabel('Size', { exact: true });
    const second = panel.getByLabel('Second choice (optional)');
    await size.selectOption('M');
    await second.selectOption('L');
    await expect(size).toHaveValue('M');
    await expect(second).toHaveValue('L');
    await expect(second.locator('option', { hasText: 'M' })).toHaveCount(0);
    await waitForHydration(page);
    await expect(page.getByRole('button', { name: /Add to Cart/ })).toHaveCount(0);
    held.release();
    await expect(panel).toBeVisible();
    await expect(page.getByRole('button', { name: /Add to Cart/ })).toHaveCount(0);
    expect(await sawAddToCart(page)).toBe(false);
    expect(errors).toEqual([]);
    await shootAtBothWidths(page, testInfo, 'draw-ssr-hydrated', { fullPage: true });
  });

  test('reached in the browser, a drawn product waits for its draw instead of offering Add to Cart', async ({
    page,
  }, testInfo) => {
    await markNewsletterSeen(page);
    await watchForAddToCart(page);
    await page.goto(`/search?q=${encodeURIComponent(drawnName)}`);
    // Hydrated: the card's link navigates in the browser (before, it loads the server's page).
    await waitForHydration(page);
    const held = await holdDrawAnswers(page);
    await page
      .getByRole('link', { name: new RegExp(drawnName) })
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`/products?/${drawnId}$`));
    await expect(page.getByRole('heading', { level: 1, name: drawnName })).toBeVisible();
    // The question is out and unanswered: the purchase area waits, nothing to press.
    await expect.poll(() => held.asked.length).toBeGreaterThan(0);
    await expect(page.getByTestId('purchase-loading')).toBeVisible();
    await expect(page.getByRole('button', { name: /Add to Cart/ })).toHaveCount(0);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByTestId('purchase-loading').scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, 'draw-ssr-loading-375');
    held.release();
    await expect(page.getByRole('region', { name: 'Enter the draw' })).toBeVisible();
    await expect(page.getByTestId('purchase-loading')).toHaveCount(0);
    expect(await sawAddToCart(page)).toBe(false);
  });

  test('reached in the browser, a product without a draw gets Add to Cart as soon as the answer comes', async ({
    page,
  }) => {
    await markNewsletterSeen(page);
    await page.goto(`/search?q=${encodeURIComponent(plainName)}`);
    // Hydrated: the card's link navigates in the browser (before, it loads the server's page).
    await waitForHydration(page);
    const held = await holdDrawAnswers(page);
    await page
      .getByRole('link', { name: new RegExp(plainName) })
      .first()
      .click();
    await expect(page.getByRole('heading', { level: 1, name: plainName })).toBeVisible();
    await expect(page.getByTestId('purchase-loading')).toBeVisible();
    held.release();
    await expect(page.getByRole('button', { name: /Add to Cart/ })).toBeVisible();
    await expect(page.getByTestId('purchase-loading')).toHaveCount(0);
    await expect(page.getByTestId('draw-panel')).toHaveCount(0);
  });
});
