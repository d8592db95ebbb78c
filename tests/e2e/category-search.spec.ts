import { test, expect } from '@playwright/test';
import { describeViolationWithCount, markNewsletterSeen, seriousViolations } from '../support/e2e';

// Category page, its not-found state and redirect (docs/product.md §2), and search results.

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

test('a category page shows its name, description, breadcrumb and only its products, with no filters', async ({
  page,
  request,
}) => {
  const category = (await (await request.get('/api/categories/hoodies')).json()) as {
    name: string;
    description: string;
  };
  const all = (await (await request.get('/api/products')).json()) as Array<{
    name: string;
    category: string;
  }>;
  const hoodies = all.filter((p) => p.category === 'hoodies');

  await page.goto('/category/hoodies');
  await expect(page.getByRole('heading', { level: 1, name: category.name })).toBeVisible();
  await expect(page.getByText(category.description)).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(category.name));
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText(category.name);

  const grid = page
    .getByRole('main')
    .getByRole('list')
    .filter({ has: page.getByRole('link', { name: new RegExp(hoodies[0].name) }) });
  await expect(grid.locator(':scope > li')).toHaveCount(hoodies.length);
  for (const h of hoodies)
    await expect(page.getByRole('link', { name: new RegExp(h.name) }).first()).toBeVisible();
  await expect(page.getByRole('group', { name: /filter/i })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'All', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'View All Products' })).toHaveCount(0);

  expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);
});

test('an unknown category shows Category Not Found', async ({ page }) => {
  await page.goto('/category/not-a-category');
  await expect(page.getByRole('heading', { level: 1, name: 'Category Not Found' })).toBeVisible();
  await expect(page.getByText("The category you're looking for doesn't exist.")).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);
});

test('/categories/{slug} redirects to /category/{slug}', async ({ page }) => {
  await page.goto('/categories/tshirts');
  await expect(page).toHaveURL(/\/category\/tshirts$/);
  await expect(page.getByRole('heading', { level: 1, name: 'T-Shirts' })).toBeVisible();
});

test('search shows the server-ranked results with a count', async ({ page, request }) => {
  const results = (await (await request.get('/api/products?q=hoodie')).json()) as Array<{ name: string }>;
  expect(results.length).toBeGreaterThan(1);
  await page.goto('/search?q=hoodie');
  const status = page.getByRole('status').filter({ hasText: 'results for' });
  await expect(status).toHaveText(`${results.length} results for “hoodie”`);
  await expect(page.getByRole('link', { name: new RegExp(results[0].name) }).first()).toBeVisible();
  await expect(page).toHaveTitle(/hoodie/);
  expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);
});

test('a search with no results says so and suggests categories', async ({ page }) => {
  await page.goto(`/search?q=${encodeURIComponent('zzqx nothing')}`);
  await expect(page.getByRole('status').filter({ hasText: 'results for' })).toHaveText(
    '0 results for “zzqx nothing”',
  );
  await expect(page.getByRole('heading', { name: 'Nothing matched your search' })).toBeVisible();
  await page.getByRole('link', { name: 'Hoodies' }).last().click();
  await expect(page).toHaveURL(/\/category\/hoodies$/);
  await page.goBack();
  expect(await seriousViolations(page, { describe: describeViolationWithCount })).toEqual([]);
});

test('a blank search shows a prompt instead of results', async ({ page }) => {
  await page.goto('/search?q=%20%20');
  await expect(page.getByRole('heading', { name: 'What are you looking for?' })).toBeVisible();
  await expect(page.getByText(/results for/)).toHaveCount(0);
});
