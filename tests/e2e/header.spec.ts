import { test, expect } from '@playwright/test';
import { markNewsletterSeen, seriousViolations } from '../support/e2e';

// Header and footer of docs/product.md §2, driven by role and accessible name.

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

test('promo bar, logo, nav links and the skip link as the first tab stop', async ({ page }) => {
  await page.goto('/mission');
  const banner = page.getByRole('banner');
  await expect(banner.getByText('FALL15')).toBeVisible();
  await expect(banner.getByText(/15% off/i)).toBeVisible();

  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [name, href] of [
    ['T-Shirts', '/category/tshirts'],
    ['Hoodies', '/category/hoodies'],
    ['Accessories', '/category/accessories'],
    ['About', '/mission'],
  ]) {
    await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }

  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  await banner.getByRole('link', { name: /FIFTY/ }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await seriousViolations(page)).toEqual([]);
});

test('desktop search trims and URL-encodes the query; blank input is ignored', async ({ page }) => {
  await page.goto('/');
  const search = page.getByRole('search').getByRole('searchbox', { name: 'Search products' });
  await search.fill('   ');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/$/);

  await search.fill('  black & white tee ');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=black%20%26%20white%20tee$/);
});

test('cart button: no badge at 0, toggles the cart drawer', async ({ page }) => {
  await page.goto('/');
  const cartButton = page.getByRole('button', { name: 'Shopping cart', exact: true });
  await expect(cartButton).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveCount(0);
  await cartButton.click();
  await expect(page.getByRole('dialog', { name: 'Shopping Cart' })).toBeVisible();
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('mobile menu opens, is labelled, and a link click closes it', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();

    await toggle.click();
    const close = page.getByRole('button', { name: 'Close menu' });
    await expect(close).toHaveAttribute('aria-expanded', 'true');
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await menu.getByRole('link', { name: 'Hoodies' }).click();
    await expect(page).toHaveURL(/\/category\/hoodies$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');

    // Escape closes it too.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  });

  test('mobile search goes to the search route; no horizontal scroll', async ({ page }) => {
    await page.goto('/');
    const search = page.getByRole('searchbox', { name: 'Search products' });
    await expect(search).toBeVisible();
    await search.fill(' hoodie ');
    await page.getByRole('button', { name: 'Submit search' }).click();
    await expect(page).toHaveURL(/\/search\?q=hoodie$/);
    const [scrollWidth, innerWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      window.innerWidth,
    ]);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });
});

test('footer: every column, figures from the server settings', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  const settings = (await (await page.request.get('/api/settings')).json()) as {
    freeShippingThreshold: string;
    shippingRates: { id: string; price: string }[];
  };
  const whole = (v: string) => (v.endsWith('.00') ? `$${v.slice(0, -3)}` : `$${v}`);
  await expect(footer.getByText(`Free Shipping Over ${whole(settings.freeShippingThreshold)}`)).toBeVisible();
  const rate = (id: string) => whole(settings.shippingRates.find((r) => r.id === id)!.price);
  await expect(footer.getByText(`Express 1-2 Days: ${rate('express')}`)).toBeVisible();
  await expect(footer.getByText(`Standard 3-5 Days: ${rate('standard')}`)).toBeVisible();
  await expect(footer.getByText(`International: ${rate('international')}`)).toBeVisible();

  for (const [name, href] of [
    ['T-Shirts', '/category/tshirts'],
    ['Hoodies', '/category/hoodies'],
    ['Accessories', '/category/accessories'],
    ['Shipping Info & Rates', '/shipping'],
    ['Our Mission', '/mission'],
    ['Size Guide', '/size-guide'],
    ['Shipping', '/shipping'],
    ['Refund Policy', '/refund-policy'],
    ['Returns', '/refund-policy'],
  ]) {
    await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  // Contact mails support; the policies are real pages (docs/product.md §2.9).
  await expect(footer.getByRole('link', { name: 'Contact', exact: true })).toHaveAttribute(
    'href',
    /^mailto:.+@.+/,
  );
  await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
    'href',
    '/privacy-policy',
  );
  await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
    'href',
    '/terms-of-service',
  );
  for (const text of ['Sale Items']) {
    await expect(footer.getByText(text, { exact: true })).toBeVisible();
    await expect(footer.getByRole('link', { name: text })).toHaveCount(0);
  }
});
