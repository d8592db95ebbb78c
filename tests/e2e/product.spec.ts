import { test, expect, type APIRequestContext } from '@playwright/test';
import { chooseSize, describeViolationWithCount, markNewsletterSeen, seriousViolations } from '../support/e2e';

// Product detail (docs/product.md §2, §4): both URL forms, the size rule, the label, the stepper, sold out, not found.

interface ApiProduct {
  id: string;
  name: string;
  price: string;
  salePrice: string | null;
  category: string;
  inStock: boolean;
  stock: number;
  sizes: string[];
  maxPerShopper: number;
  images: string[];
}

async function products(request: APIRequestContext): Promise<ApiProduct[]> {
  const res = await request.get('/api/products');
  expect(res.ok()).toBe(true);
  return (await res.json()) as ApiProduct[];
}

const cents = (s: string) => Math.round(Number(s) * 100);
const usd = (c: number) => `$${(c / 100).toFixed(2)}`;

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

test('both URL forms show the product with breadcrumb, badges, warning and assurances', async ({
  page,
  request,
}) => {
  const list = await products(request);
  const p = list.find((x) => x.category === 'tshirts' && x.inStock && x.stock > 0 && x.images.length > 1)!;

  for (const url of [`/product/${p.id}`, `/products/${p.id}`]) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: p.name })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(p.name));
  }

  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('listitem')).toHaveCount(3);
  await expect(crumbs.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  await expect(crumbs.getByRole('link', { name: 'T-Shirts' })).toHaveAttribute('href', '/category/tshirts');
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText(p.name);

  await expect(page.getByText('LIMITED EDITION - Only 50 Made')).toBeVisible();
  await expect(page.getByText('Sustainable', { exact: true })).toBeVisible();
  await expect(page.getByText(/only 50 pieces will ever be made/i)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Materials' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sustainability' })).toBeVisible();
  await expect(page.getByText(/Free shipping over \$60/)).toBeVisible();
  await expect(page.getByText('30-day return policy')).toBeVisible();
  await expect(page.getByText('Carbon neutral delivery')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Wishlist', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Share' })).toBeVisible();

  // The main image is the LCP: eager and high priority.
  const main = page.getByRole('img', { name: new RegExp(`^${p.name}`) }).first();
  await expect(main).toHaveAttribute('fetchpriority', 'high');
  await expect(main).toHaveAttribute('loading', 'eager');

  // Thumbnail strip: one button per image, the pressed one is shown.
  await expect(page.getByRole('button', { name: /^View image \d+$/ })).toHaveCount(p.images.length);
  await expect(page.getByRole('button', { name: 'View image 1' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'View image 2' }).click();
  await expect(page.getByRole('button', { name: 'View image 2' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'View image 1' })).toHaveAttribute('aria-pressed', 'false');

  expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);
});

test('Add to Cart waits for a size; the label follows the quantity up to the per-shopper limit; decrease stops at 1', async ({
  page,
  request,
}) => {
  const p = (await products(request)).find((x) => x.sizes.length > 1 && x.inStock && x.stock > 2)!;
  const unit = cents(p.salePrice ?? p.price);
  await page.goto(`/product/${p.id}`);

  const add = page.getByRole('button', { name: /^Add to Cart - \$/ });
  await expect(add).toHaveText(`Add to Cart - ${usd(unit)}`);
  await expect(add).toBeDisabled();

  const size = page.getByRole('combobox', { name: 'Size' });
  await expect(size.locator('option').first()).toHaveText('Select a size');
  await expect(size).toHaveValue('');

  const dec = page.getByRole('button', { name: 'Decrease quantity' });
  const inc = page.getByRole('button', { name: 'Increase quantity' });
  const qty = page.getByRole('group', { name: 'Quantity' });
  await expect(qty).toHaveText('1');
  await expect(dec).toBeDisabled();

  await inc.click();
  await expect(qty).toHaveText('2');
  await expect(add).toHaveText(`Add to Cart - ${usd(unit * 2)}`);
  await expect(dec).toBeEnabled();
  // The stepper stops at the per-shopper limit (docs/product.md §9), and says it.
  const limit = Math.min(p.maxPerShopper, p.stock);
  for (let n = 3; n <= limit; n++) await inc.click();
  await expect(add).toHaveText(`Add to Cart - ${usd(unit * limit)}`);
  await expect(inc).toBeDisabled();
  await expect(qty).toHaveAccessibleDescription(`Limit ${p.maxPerShopper} per customer`);
  for (let n = limit; n > 1; n--) await dec.click();
  await expect(qty).toHaveText('1');
  await expect(dec).toBeDisabled();
  await expect(add).toHaveText(`Add to Cart - ${usd(unit)}`);
  await expect(add).toBeDisabled();

  await size.selectOption(p.sizes[1]);
  await expect(add).toBeEnabled();
  await size.selectOption('');
  await expect(add).toBeDisabled();
});

test('a sale product shows the sale price, the struck original and Save $X', async ({ page, request }) => {
  const p = (await products(request)).find((x) => x.salePrice !== null)!;
  await page.goto(`/product/${p.id}`);
  await expect(page.getByRole('heading', { level: 1, name: p.name })).toBeVisible();
  await expect(page.getByText(`Save ${usd(cents(p.price) - cents(p.salePrice!))}`)).toBeVisible();
  await expect(page.locator('.line-through', { hasText: usd(cents(p.price)) })).toBeVisible();
});

test('adding to the cart stays on the product page', async ({ page, request }) => {
  const p = (await products(request)).find((x) => x.sizes.length > 1 && x.inStock && x.stock > 2)!;
  await page.goto(`/products/${p.id}`);
  await chooseSize(page, p.sizes[0]!);
  const posted = page.waitForResponse(
    (r) => r.url().endsWith('/api/cart') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
  expect((await posted).ok()).toBe(true);
  await expect(page).toHaveURL(new RegExp(`/products/${p.id}$`));
});

test('a sold-out product reads Out of Stock and cannot be added', async ({ page, request }) => {
  const p = (await products(request)).find((x) => !x.inStock || x.stock === 0)!;
  await page.goto(`/product/${p.id}`);
  await expect(page.getByRole('heading', { level: 1, name: p.name })).toBeVisible();
  const button = page.getByRole('button', { name: 'Out of Stock' });
  await expect(button).toBeVisible();
  await expect(button).toBeDisabled();
  await expect(page.getByRole('button', { name: /^Add to Cart/ })).toHaveCount(0);
});

for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-real-id']) {
  test(`unknown product id ${id} shows Product Not Found`, async ({ page }) => {
    await page.goto(`/product/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Product Not Found' })).toBeVisible();
    await expect(page.getByText("The product you're looking for doesn't exist.")).toBeVisible();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    if (id.startsWith('0000')) return;
    await page.goto(`/product/${id}`);
    expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);
  });
}

test('the product page has no horizontal scroll at 360 px', async ({ page, request }) => {
  const p = (await products(request))[0];
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/product/${p.id}`);
  await expect(page.getByRole('heading', { level: 1, name: p.name })).toBeVisible();
  const overflow = await page.evaluate(
    () =>
      [...document.querySelectorAll('main *')].filter(
        (el) => el.getBoundingClientRect().right > window.innerWidth + 1,
      ).length,
  );
  expect(overflow).toBe(0);
});
