import { test, expect, type Page } from '@playwright/test';
import { cartDrawer, markNewsletterSeen, seriousViolations, subscribeByApi, toastText } from '../support/e2e';

// The shopper's side (docs/product.md §2): orders say what to make (colour, size, edition numbers),
// checkout errors stay where they happen, buying on a phone, and copy that agrees with itself.

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

interface SeedProduct {
  id: string;
  name: string;
  stock: number;
  editionSize: number;
  sizes: string[];
  colors: Array<{ name: string }>;
}

async function productNamed(page: Page, name: string): Promise<SeedProduct> {
  const list = (await (await page.request.get('/api/products')).json()) as SeedProduct[];
  const found = list.find((p) => p.name === name);
  if (!found) throw new Error(`no product ${name}`);
  return found;
}

async function saveCustomer(page: Page) {
  const res = await page.request.post('/api/customer-info', {
    data: {
      email: 'shopper@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: null,
      shippingAddress: '12 Analytical Way',
      shippingCity: 'Brooklyn',
      shippingState: 'NY',
      shippingZip: '11201',
      shippingCountry: 'US',
    },
  });
  expect(res.ok()).toBe(true);
}

async function payWith(page: Page, cardNumber: string) {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
}

test('the product page picks the pictured colour (and a lone size); the cart line carries both', async ({
  page,
}) => {
  const cap = await productNamed(page, 'Corner Store Cap');
  await page.goto(`/product/${cap.id}`);
  // One size: nothing to choose, Add to Cart is ready at once.
  await expect(page.getByLabel('Size')).toHaveValue('One Size');
  await expect(page.getByRole('radio', { name: cap.colors[0]!.name })).toBeChecked();
  await page.getByRole('radio', { name: 'Navy' }).check();
  await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
  const line = cartDrawer(page).getByRole('listitem').filter({ hasText: 'Corner Store Cap' });
  await expect(line).toContainText('Size: One Size');
  await expect(line).toContainText('Color: Navy');
});

test('the server refuses a line without a colour when the product has several', async ({ page }) => {
  const tee = await productNamed(page, 'Fifty Standard Tee');
  const res = await page.request.post('/api/cart', { data: { productId: tee.id, selectedSize: 'M' } });
  expect(res.status()).toBe(400);
  expect(await res.json()).toEqual({ message: 'Please select a colour' });
});

test("a card's quick add asks for the colour too; the size tap adds the chosen colour", async ({ page }) => {
  await page.goto('/category/tshirts');
  const card = page.getByRole('article', { name: 'Fifty Standard Tee' });
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  const picker = card.getByRole('group', { name: 'Choose a size for Fifty Standard Tee' });
  await picker.getByRole('radio', { name: 'Navy' }).check();
  await picker.getByRole('button', { name: 'L', exact: true }).click();
  const line = cartDrawer(page).getByRole('listitem').filter({ hasText: 'Fifty Standard Tee' });
  await expect(line).toContainText('Size: L');
  await expect(line).toContainText('Color: Navy');
  await cartDrawer(page).getByRole('button', { name: 'Close cart' }).click();

  // One size, several colours: the picker asks for the colour only, and one tap adds.
  await page.goto('/category/accessories');
  const beanie = page.getByRole('article', { name: 'Cold Front Beanie' });
  await beanie.getByRole('button', { name: 'Add to Cart' }).click();
  const colours = beanie.getByRole('group', { name: 'Choose a colour for Cold Front Beanie' });
  await colours.getByRole('button', { name: 'Forest Green' }).click();
  // Not the first line: a toast confirms with a way to the cart.
  await expect(
    toastText(page, 'Cold Front Beanie (One Size, Forest Green) added to your cart.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'View cart' }).click();
  await expect(cartDrawer(page).getByRole('listitem').filter({ hasText: 'Cold Front Beanie' })).toContainText(
    'Color: Forest Green',
  );
});

test('the next pieces sold carry the next numbers, in the same words on the order page', async ({ page }) => {
  const hoodie = await productNamed(page, 'Undercurrent Zip Hoodie');
  const next = hoodie.editionSize - hoodie.stock + 1;
  expect(hoodie.editionSize - hoodie.stock).toBeGreaterThan(0); // the demo history is accounted for
  const add = await page.request.post('/api/cart', {
    data: { productId: hoodie.id, quantity: 2, selectedSize: 'M', selectedColor: 'Navy' },
  });
  expect(add.ok()).toBe(true);
  await saveCustomer(page);
  await page.goto('/checkout');
  await payWith(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/order-success$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeFocused();
  const items = page.getByRole('list', { name: 'Items in your order' });
  await expect(items).toContainText(`Nos. ${next}, ${next + 1} of 50`);
  await expect(items).toContainText('Color: Navy');
});

test('a declined card and a bad code are explained at their fields; free shipping reads FREE', async ({
  page,
}) => {
  // The page's timers run on a clock the test can move: the toast's 5 s pass without waiting them out.
  await page.clock.install();
  const tee = await productNamed(page, 'Fifty Standard Tee');
  await page.request.post('/api/cart', {
    data: { productId: tee.id, quantity: 2, selectedSize: 'S', selectedColor: 'White' },
  });
  await saveCustomer(page);
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { name: 'Payment', exact: true })).toBeVisible();

  // $76 qualifies: the selected standard option says FREE, as the summary does.
  const standard = page.getByRole('radio', { name: /Standard Shipping/ });
  await expect(standard).toBeChecked();
  await expect(page.locator('label').filter({ has: standard })).toContainText('FREE');

  const code = page.getByLabel('Discount code');
  await code.fill('NOPE10');
  await code.press('Enter');
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(code).toHaveAccessibleDescription('This discount code is not valid');
  await expect(code).toBeFocused();
  await code.fill('FALL15');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(toastText(page, 'Discount Applied!')).toBeVisible();
  await expect(code).toBeFocused();
  await expect(page.getByText('FALL15 · 15% discount applied')).toBeVisible();

  await payWith(page, '4000 0000 0000 0002');
  const card = page.getByLabel('Card number');
  await expect(card).toHaveAccessibleDescription('Your card was declined.');
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  // Still there after the toast has gone.
  await page.clock.fastForward(5600);
  await expect(card).toHaveAccessibleDescription('Your card was declined.');
  expect(await seriousViolations(page)).toEqual([]);
});

test('/order-success without an order says so and leaves the cart alone', async ({ page }) => {
  const tee = await productNamed(page, 'Fifty Standard Tee');
  await page.request.post('/api/cart', {
    data: { productId: tee.id, selectedSize: 'S', selectedColor: 'White' },
  });
  await page.goto('/order-success');
  await expect(page.getByRole('heading', { level: 1, name: 'No recent order' })).toBeFocused();
  await expect(page.getByText('Payment Successful!')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Continue Shopping' })).toHaveAttribute('href', '/');
  expect(((await (await page.request.get('/api/cart')).json()) as unknown[]).length).toBe(1);
  expect(await seriousViolations(page)).toEqual([]);
});

test('the cart says shipping is calculated at checkout and how far free shipping is', async ({ page }) => {
  const tee = await productNamed(page, 'Fifty Standard Tee'); // $38.00
  await page.request.post('/api/cart', {
    data: { productId: tee.id, selectedSize: 'S', selectedColor: 'White' },
  });
  await page.goto('/');
  await page.getByRole('button', { name: /^Shopping cart/ }).click();
  const drawer = cartDrawer(page);
  await expect(drawer.getByText('Total', { exact: true })).toBeVisible();
  await expect(drawer.getByText('Shipping calculated at checkout')).toBeVisible();
  await expect(drawer.getByText('Add $22.00 for free shipping')).toBeVisible();
  await drawer.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(drawer.getByText('Free shipping unlocked')).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('summary folded at the top, sold-out page, purchase bar, sticky header, size guide, hero', async ({
    page,
  }) => {
    // The hero shows a product in the first screen.
    await page.goto('/');
    const hero = page.getByRole('img', { name: /limited-edition hoodies/ });
    const box = (await hero.boundingBox())!;
    expect(box.y + box.height / 2).toBeLessThan(740);
    const slideImage = page.locator('[aria-roledescription="slide"]').first().locator('img');
    const slideBox = (await slideImage.boundingBox())!;
    expect(slideBox.height / slideBox.width).toBeGreaterThanOrEqual(0.7); // not a strip

    // Sold out says so by the title; size and quantity are disabled.
    const gone = await productNamed(page, 'Signal Loss Tee');
    await page.goto(`/product/${gone.id}`);
    await expect(page.getByText('Sold out', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Size')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Increase quantity' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Out of Stock' })).toBeDisabled();

    // Price and Add to Cart stay on screen; the header and its cart too; a size guide link.
    const tee = await productNamed(page, 'Block Party Hoodie');
    await page.goto(`/product/${tee.id}`);
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Size guide', exact: true }),
    ).toHaveAttribute('href', '/size-guide');
    await page.mouse.wheel(0, 1500);
    await expect(page.getByRole('button', { name: /^Add to Cart - \$/ })).toBeInViewport();
    await expect(page.getByRole('button', { name: /^Shopping cart/ })).toBeInViewport();
    await page.getByLabel('Size').selectOption('L');
    await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
    await expect(cartDrawer(page)).toBeVisible();
    await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();

    // The summary is one line at the top, opened on demand.
    await expect(page).toHaveURL(/\/checkout$/);
    const toggle = page.getByRole('button', { name: 'Show order summary' });
    await expect(toggle).toBeInViewport();
    await expect(page.getByRole('heading', { name: 'Order Summary' })).toBeHidden();
    await toggle.click();
    await expect(page.getByRole('heading', { name: 'Order Summary' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Hide order summary' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test('newsletter copy agrees, policies are pages, contact mails support, one year, search query shown', async ({
  page,
}) => {
  // The header search shows the query on the search page.
  await page.goto('/search?q=hoodie');
  await expect(page.getByRole('search').first().getByRole('searchbox')).toHaveValue('hoodie');

  // Footer links to real pages; Contact mails the configured support address.
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Contact' })).toHaveAttribute(
    'href',
    'mailto:support@fifty.local',
  );
  await footer.getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'support@fifty.local' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
  const direct = await page.request.get('/terms-of-service');
  expect(direct.status()).toBe(200);
  // Social links are settings: none configured here, so none shown.
  await expect(footer.getByRole('list', { name: 'Social media' })).toHaveCount(0);

  // The season in the copy and the copyright year come from one place.
  const year = String(new Date().getUTCFullYear());
  await expect(footer).toContainText(`© ${year}`);
  await page.goto('/');
  await expect(
    page.getByText(new RegExp(`(Winter|Spring|Summer|Fall) ${year} · Limited drop`)),
  ).toBeVisible();
  await expect(page.getByText(/(Winter|Spring|Summer|Fall) 2025/)).toHaveCount(0);

  // An address already on the list reads like a new one (docs/security.md, "Who is on the list").
  const email = `twice-${Date.now()}@example.com`;
  expect((await subscribeByApi(page.request, email)).ok()).toBe(true);
  await page.getByLabel(/email/i).last().fill(email);
  await page
    .getByRole('button', { name: /subscribe/i })
    .last()
    .click();
  await expect(toastText(page, 'Successfully subscribed!')).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
});

test('the mission page figures share one top line', async ({ page }) => {
  await page.goto('/mission');
  const figures = page.getByRole('definition');
  const tops = await figures.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  const fifty = tops[0]!;
  expect(tops.slice(1, 4).every((t) => t === fifty)).toBe(true);
});

test('the not-found page has no developer hint in a production build', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText(/router/i)).toHaveCount(0);
});

test('focus lands on the heading of the step that opens', async ({ page }) => {
  const tee = await productNamed(page, 'Fifty Standard Tee');
  await page.request.post('/api/cart', {
    data: { productId: tee.id, selectedSize: 'XS', selectedColor: 'Grey' },
  });
  await page.goto('/checkout');
  const values: Record<string, string> = {
    Email: 'focus@example.com',
    'First Name': 'Ada',
    'Last Name': 'Lovelace',
    Address: '12 Analytical Way',
    City: 'Brooklyn',
    State: 'NY',
    'ZIP Code': '11201',
  };
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label).fill(value);
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page.getByRole('heading', { name: 'Payment', exact: true })).toBeFocused();
  await page.getByRole('button', { name: 'Back to Info' }).click();
  await expect(page.getByRole('heading', { name: 'Shipping Information' })).toBeFocused();
});

test('the popup says its offer once and answers an address already on the list like a new one', async ({ browser }) => {
  // A visitor who has not seen the popup yet.
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = `popup-${Date.now()}@example.com`;
  expect((await subscribeByApi(page.request, email)).ok()).toBe(true);
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: /10% off/i });
  await expect(dialog).toBeVisible({ timeout: 10_000 });
  await expect(dialog.getByText('10% Off', { exact: true })).toHaveCount(0);
  await expect(dialog.getByRole('heading')).toHaveText('Get 10% off your first order');
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByRole('button', { name: 'Claim 10% Off' }).click();
  await expect(toastText(page, 'Welcome to FIFTY!')).toBeVisible();
  await expect(toastText(page, 'Subscription Failed')).toHaveCount(0);
  await expect(dialog).toBeHidden();
  await context.close();
});
