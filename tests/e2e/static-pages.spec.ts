import { test, expect, type Page } from '@playwright/test';
import { describeViolationWithCount, markNewsletterSeen, seriousViolations, waitForHydration } from '../support/e2e';

// Refund policy, size guide, mission, shipping and the not-found page (docs/product.md §2, §3, §9).

async function expectPage(page: Page, path: string, h1: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1, name: h1 })).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText(h1);
  await expect(page).toHaveTitle(new RegExp(h1));
}

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

test('refund policy lists every term', async ({ page }) => {
  await expectPage(page, '/refund-policy', 'Refund Policy');
  const main = page.getByRole('main');
  for (const term of [
    /within 2 days of receiving your order/,
    /shipped back within 7 days/,
    /unworn/i,
    /unwashed/i,
    /tags/,
    /store credit only/,
    /valid for 1 year/,
    /non-refundable/,
    /customer pays for return shipping/i,
    /mark it as such on its listing/,
    /within 24 hours/,
    /ship within 2-3 business days/,
  ]) {
    await expect(main.getByText(term).first()).toBeVisible();
  }
  await expect(main.getByRole('link', { name: /@/ }).first()).toHaveAttribute('href', /^mailto:/);
  expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);
});

test('size guide: tabs with T-Shirts first, arrow keys switch, real tables', async ({ page }) => {
  await expectPage(page, '/size-guide', 'Size Guide');
  await expect(page.getByText(/if you're between sizes, size up/)).toBeVisible();
  for (const m of ['Chest / Bust', 'Waist', 'Length', 'Sleeve'])
    await expect(page.getByRole('heading', { name: m, exact: true })).toBeVisible();

  const tablist = page.getByRole('tablist');
  await expect(tablist.getByRole('tab')).toHaveText(['T-Shirts', 'Hoodies', 'Accessories']);
  const tees = page.getByRole('tab', { name: 'T-Shirts' });
  await expect(tees).toHaveAttribute('aria-selected', 'true');

  const teeTable = page.getByRole('table', { name: /T-shirt sizes/ });
  await expect(teeTable).toBeVisible();
  await expect(teeTable.getByRole('columnheader')).toHaveText([
    'Size',
    'Chest (in)',
    'Length (in)',
    'Sleeve (in)',
    'Fit',
  ]);
  await expect(teeTable.getByRole('row', { name: /^M / })).toContainText('38-40');
  await expect(teeTable.getByRole('rowheader')).toHaveText(['XS', 'S', 'M', 'L', 'XL', 'XXL']);
  expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);

  // The tabs take focus and keys once the page has hydrated (before that they sit in a disabled fieldset).
  await waitForHydration(page);
  await tees.focus();
  await expect(tees).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Hoodies' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Hoodies' })).toBeFocused();
  const hoodieTable = page.getByRole('table', { name: /Hoodie sizes/ });
  await expect(hoodieTable).toBeVisible();
  await expect(hoodieTable.getByRole('row', { name: /^XXL / })).toContainText(/52-54.*Oversized/);

  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Accessories' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: /Caps & beanies/i })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Bags & backpacks/i })).toBeVisible();
  await expect(page.getByRole('table', { name: /Headwear/ })).toContainText('21.5 to 24 inches');
  await expect(page.getByRole('table', { name: /Bag dimensions/ })).toContainText('18 x 12 x 6');
  expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);

  await page.keyboard.press('ArrowRight');
  await expect(tees).toHaveAttribute('aria-selected', 'true');

  await expect(page.getByRole('heading', { name: 'Styling tips' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Between sizes?' })).toBeVisible();
  await expect(page.getByText(/include your measurements/)).toBeVisible();
});

test('mission page: values, philosophy, Join the Elite, Looking Forward stats, contact', async ({ page }) => {
  await expectPage(page, '/mission', 'Our Mission');
  for (const h of [
    'Ultra-Exclusive',
    'Limited Edition',
    'Underground Community',
    'Our philosophy',
    'Join the Elite',
    'Looking Forward',
  ]) {
    await expect(page.getByRole('heading', { name: h, exact: true })).toBeVisible();
  }
  await expect(page.getByText('Maximum pieces per design')).toBeVisible();
  await expect(page.getByRole('main').getByText(/within 24 hours/)).toBeVisible();
  expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);
});

test('shipping page renders the server rates and every section', async ({ page, request }) => {
  const settings = (await (await request.get('/api/settings')).json()) as {
    freeShippingThreshold: string;
    shippingRates: Array<{ label: string; price: string; days: string }>;
  };
  await expectPage(page, '/shipping', 'Shipping Information');
  for (const h of [
    'Shipping options',
    'International delivery',
    'Processing time',
    'Packaging',
    'Order tracking & support',
    'Important information',
  ]) {
    await expect(page.getByRole('heading', { level: 2, name: h })).toBeVisible();
  }
  const main = page.getByRole('main');
  for (const r of settings.shippingRates) {
    await expect(main.getByText(`$${r.price}`).first()).toBeVisible();
    await expect(main.getByText(new RegExp(r.days)).first()).toBeVisible();
  }
  const threshold = `$${Number(settings.freeShippingThreshold)}`;
  await expect(main.getByText(`On orders of ${threshold} and above`)).toBeVisible();
  for (const fact of [
    /2 PM EST/,
    /signature is required/i,
    /over \$200/,
    /P\.O\. Boxes/,
    /within 1 hour of ordering/,
    /tracking number by e-mail/,
    /excluding customs and taxes/,
  ]) {
    await expect(main.getByText(fact).first()).toBeVisible();
  }
  expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);
});

test('an unknown path shows Page Not Found and a way home; no developer hint in a production build', async ({
  page,
}) => {
  await page.goto('/this/does/not/exist');
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText(/add the page to the router/)).toHaveCount(0);
  await expect(page).toHaveTitle(/Page Not Found/);
  expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

for (const width of [360, 1440]) {
  test(`static pages have no horizontal scroll at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ['/refund-policy', '/size-guide', '/mission', '/shipping', '/nope']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
          .map((el) => el.tagName + '.' + el.className),
      );
      expect(wide, path).toEqual([]);
    }
  });
}
