import { test, expect } from '@playwright/test';
import { addFromProductPage, cartDrawer, chooseSize, loginOwner, markNewsletterSeen, seriousViolations } from '../support/e2e';

// The cart sidebar of docs/product.md §2/§4, driven by role and accessible name.

const PRODUCT = 'Fifty Standard Tee'; // $38.00, sizes XS-XXL, plenty of stock in the seed

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

test('an empty cart says so, and the close button closes it', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: /^Shopping cart/ }).click();
  const drawer = cartDrawer(page);
  await expect(drawer).toBeVisible();
  await expect(drawer.getByText('Your cart is empty')).toBeVisible();
  await expect(drawer.getByText('Add some sustainable streetwear!')).toBeVisible();
  expect(await seriousViolations(page, { include: '[role="dialog"]' })).toEqual([]);
  await drawer.getByRole('button', { name: 'Close cart' }).click();
  await expect(drawer).toBeHidden();
});

test('adding to an empty cart opens the sidebar; stepper, remove, clear and checkout work', async ({
  page,
}) => {
  await addFromProductPage(page, PRODUCT, 'M');

  const drawer = cartDrawer(page);
  await expect(drawer).toBeVisible();
  const line = drawer.getByRole('listitem').filter({ hasText: PRODUCT });
  await expect(line).toContainText('Size: M');
  await expect(line).toContainText('$38.00');
  await expect(drawer.getByText('1 item', { exact: true })).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();
  await expect(drawer.getByText('Free shipping on orders over $60 • Carbon neutral delivery')).toBeVisible();

  // The drawer shows the new quantity at once; the reload waits for the server's answer to the change.
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/cart\//.test(r.url()));
  await drawer.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(drawer.getByText('2 items', { exact: true })).toBeVisible();
  await expect(line).toContainText('$76.00');
  await expect(drawer.getByRole('button', { name: 'Decrease quantity' })).toBeEnabled();
  expect((await saved).ok()).toBe(true);
  // The total survives a reload: the server has the new quantity.
  await page.reload();
  await page.getByRole('button', { name: /^Shopping cart/ }).click();
  await expect(cartDrawer(page).getByText('2 items', { exact: true })).toBeVisible();
  await expect(cartDrawer(page).getByText('$76.00').first()).toBeVisible();
  expect(await seriousViolations(page, { include: '[role="dialog"]' })).toEqual([]);

  await cartDrawer(page).getByRole('button', { name: 'Decrease quantity' }).click();
  await expect(cartDrawer(page).getByText('1 item', { exact: true })).toBeVisible();

  await cartDrawer(page).getByRole('button', { name: 'Remove' }).click();
  await expect(cartDrawer(page).getByText('Your cart is empty')).toBeVisible();

  // Clear Cart empties several lines at once.
  await cartDrawer(page).getByRole('button', { name: 'Close cart' }).click();
  await addFromProductPage(page, PRODUCT, 'S');
  await expect(cartDrawer(page)).toBeVisible();
  await cartDrawer(page).getByRole('button', { name: 'Close cart' }).click();
  await chooseSize(page, 'L');
  await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
  await page.getByRole('button', { name: /^Shopping cart/ }).click();
  await expect(cartDrawer(page).getByText('2 items', { exact: true })).toBeVisible();
  await cartDrawer(page).getByRole('button', { name: 'Clear Cart' }).click();
  await expect(cartDrawer(page).getByText('Your cart is empty')).toBeVisible();

  // Checkout closes the drawer and goes to /checkout.
  await cartDrawer(page).getByRole('button', { name: 'Close cart' }).click();
  await addFromProductPage(page, PRODUCT, 'M');
  await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(cartDrawer(page)).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
});

test('the sidebar fills a phone screen and is 400 px / 540 px on wider ones', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/');
  await page.getByRole('button', { name: /^Shopping cart/ }).click();
  expect((await cartDrawer(page).boundingBox())?.width).toBe(375);
  await page.setViewportSize({ width: 500, height: 800 });
  expect((await cartDrawer(page).boundingBox())?.width).toBe(400);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect((await cartDrawer(page).boundingBox())?.width).toBe(540);
});

test('checkout with an empty cart shows the empty state', async ({ page }) => {
  await page.goto('/checkout');
  await expect(page.getByText('Your cart is empty')).toBeVisible();
  await expect(page.getByText('Add some items to your cart before proceeding to checkout.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Shop the Drop' })).toHaveAttribute('href', '/');
  expect(await seriousViolations(page)).toEqual([]);
});

/** A product made by the owner for one test (removed afterwards): its stock and per-shopper limit. */
async function withProduct(
  baseURL: string | undefined,
  over: { name: string; stock: number; maxPerShopper?: number },
  run: (id: string) => Promise<void>,
) {
  const owner = await loginOwner(baseURL);
  try {
    const id = await owner.createProduct({
      description: 'Numbered inside.',
      price: '30.00',
      category: 'tshirts',
      materials: 'Organic cotton',
      sustainabilityInfo: 'Made to order.',
      images: [],
      sizes: ['M'],
      colors: [],
      ...over,
    });
    await run(id);
  } finally {
    await owner.dispose();
  }
}

test('an add made before the page’s first cart read has answered still shows the new line', async ({ page, baseURL }) => {
  // On a slow line the page's first cart read (an empty cart) can answer after the add: the drawer must
  // show the line the add made, not that older empty answer.
  const name = `Slow Line Tee ${Date.now().toString(36)}`;
  await withProduct(baseURL, { name, stock: 10 }, async (id) => {
    let added!: () => void;
    const addAnswered = new Promise<void>((resolve) => (added = resolve));
    let firstRead = true;
    await page.route('**/api/cart', async (route) => {
      if (route.request().method() !== 'GET' || !firstRead) return route.continue();
      firstRead = false;
      const answer = await route.fetch(); // read now, while the cart is still empty…
      await addAnswered; // …and delivered only once the add has answered
      await route.fulfill({ response: answer });
    });
    page.on('response', (r) => {
      if (r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/cart') added();
    });
    await page.goto(`/product/${id}`);
    await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
    const drawer = cartDrawer(page);
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('listitem').filter({ hasText: name })).toBeVisible();
    await expect(drawer.getByText('1 item', { exact: true })).toBeVisible();
    expect(firstRead).toBe(false);
  });
});

test('the server caps a line at the stock left and the sidebar shows its message', async ({ page, baseURL }) => {
  // The per-shopper limit (10) is above the stock (3), so the stock is what stops the line.
  const name = `Three Left Tee ${Date.now().toString(36)}`;
  await withProduct(baseURL, { name, stock: 3, maxPerShopper: 10 }, async (id) => {
    await page.goto(`/product/${id}`);
    await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
    const drawer = cartDrawer(page);
    await expect(drawer).toBeVisible();
    for (let n = 2; n <= 3; n++) {
      await drawer.getByRole('button', { name: 'Increase quantity' }).click();
      await expect(drawer.getByText(`${n} items`, { exact: true })).toBeVisible();
    }
    await drawer.getByRole('button', { name: 'Increase quantity' }).click();
    await expect(page.getByText('Only 3 left').first()).toBeVisible();
    await expect(drawer.getByText('3 items', { exact: true })).toBeVisible();
  });
});

test('the server caps a line at the per-shopper limit (the default, 2) and the sidebar says so', async ({ page, baseURL }) => {
  const name = `Limit Tee ${Date.now().toString(36)}`;
  await withProduct(baseURL, { name, stock: 10 }, async (id) => {
    await page.goto(`/product/${id}`);
    await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
    const drawer = cartDrawer(page);
    await expect(drawer).toBeVisible();
    await drawer.getByRole('button', { name: 'Increase quantity' }).click();
    await expect(drawer.getByText('2 items', { exact: true })).toBeVisible();
    await drawer.getByRole('button', { name: 'Increase quantity' }).click();
    await expect(page.getByText(`You can buy at most 2 of ${name} per shopper.`).first()).toBeVisible();
    await expect(drawer.getByText('2 items', { exact: true })).toBeVisible();
  });
});
