import { test, expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import {
  cartDrawer,
  describeViolationWithTargets,
  E2E_ADMIN_PASSWORD,
  keepScreenshot,
  loginOwner,
  markNewsletterSeen,
  seriousViolations,
  toastText,
  type OwnerApi,
} from '../support/e2e';

// Sizes with their own stock (ADR 015), as people meet them in a real browser, found by role and
// accessible name: the owner makes a size run on a phone and the shop shows those sizes; a shopper
// watches M sell out under another shopper's purchase, without a reload, while L stays buyable; and a
// shopper asks to hear if an M comes back. Each screen is checked with axe.

let owner: OwnerApi;

test.beforeAll(async ({ baseURL }) => {
  owner = await loginOwner(baseURL);
});

test.afterAll(async () => {
  await owner.dispose();
});

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

const PHONE = { width: 375, height: 812 };

async function expectAxeClean(page: Page, what: string) {
  expect(await seriousViolations(page, { describe: describeViolationWithTargets }), what).toEqual([]);
}

/** A tee of this test with its own size run (the pieces add up to the edition). */
function createSizedTee(name: string, run: Array<{ size: string; pieces: number }>, releaseAt?: number): Promise<string> {
  const editionSize = run.reduce((sum, e) => sum + e.pieces, 0);
  return owner.createProduct({
    ...(releaseAt ? { releaseAt: new Date(releaseAt).toISOString() } : {}),
    name,
    description: 'A numbered tee, cut in sizes. Made to order.',
    price: '45.00',
    category: 'tshirts',
    materials: 'Organic cotton jersey',
    sustainabilityInfo: 'Made to order.',
    stock: editionSize,
    editionSize,
    maxPerShopper: 5,
    images: [owner.image],
    sizes: run.map((e) => e.size),
    sizeRun: run,
    colors: [{ name: 'Black', value: '#111111' }],
  });
}

/**
 * Pays for the cart of a request context (a browser context's own `request` shares its cookies) with the
 * offline test card: customer info, payment intent, card, order.
 */
async function payForCart(request: APIRequestContext, n: number): Promise<void> {
  const ok = async (res: Awaited<ReturnType<APIRequestContext['post']>>) => {
    expect(res.ok(), `${res.url()} → ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as Record<string, string>;
  };
  await ok(
    await request.post('/api/customer-info', {
      data: {
        email: `sizes-${n}-${Date.now()}@example.com`,
        firstName: 'Other',
        lastName: 'Shopper',
        phone: null,
        shippingAddress: `${n} Size Street`,
        shippingCity: 'Springfield',
        shippingState: 'IL',
        shippingZip: '62701',
        shippingCountry: 'US',
      },
    }),
  );
  const intent = await ok(await request.post('/api/create-payment-intent', { data: {} }));
  await ok(
    await request.post('/api/payments/offline/confirm', {
      data: { clientSecret: intent.clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' },
    }),
  );
  await ok(await request.post('/api/payment-success', { data: { paymentIntentId: intent.paymentIntentId } }));
}

/** Another shopper buys one piece of `size` over the API (own cookies). */
async function buyElsewhere(browser: Browser, baseURL: string, productId: string, size: string, n: number) {
  const context = await browser.newContext({ baseURL });
  try {
    const add = await context.request.post('/api/cart', {
      data: { productId, quantity: 1, selectedSize: size, selectedColor: 'Black' },
    });
    expect(add.status(), await add.text()).toBe(200);
    await payForCart(context.request, n);
  } finally {
    await context.close();
  }
}

const sizePicker = (page: Page) => page.getByRole('group', { name: 'Size' });
const sizeRadio = (page: Page, name: string | RegExp) =>
  sizePicker(page).getByRole('radio', typeof name === 'string' ? { name, exact: true } : { name });

test('the owner makes a size run on a phone, and the shop shows those sizes', async ({ page }) => {
  test.setTimeout(120_000);
  const name = `Run Tee ${Date.now().toString(36)}`;
  await page.setViewportSize(PHONE);
  expect((await page.request.post('/api/admin/login', { data: { password: E2E_ADMIN_PASSWORD } })).ok()).toBe(true);
  let id = '';

  try {
    await test.step('the product form at 375 px: a tee of 50', async () => {
      await page.goto('/admin');
      await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
      await page.getByRole('button', { name: 'Add Product' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Product' });
      await expect(dialog).toBeVisible();
      await dialog.getByLabel('Name', { exact: true }).fill(name);
      await dialog.getByLabel('Description', { exact: true }).fill('A heavyweight tee cut in five sizes. Fifty made.');
      await dialog.getByLabel('Price', { exact: true }).fill('45');
      await dialog.getByLabel('Materials', { exact: true }).fill('100% organic cotton');
      await dialog.getByLabel('Sustainability Info', { exact: true }).fill('Made to order, nothing left over.');
      await dialog.getByRole('combobox', { name: 'Category' }).click();
      await page.getByRole('option', { name: 'T-Shirts' }).click();
      await dialog.getByLabel('Edition size', { exact: true }).fill('50');
      await dialog.getByRole('button', { name: 'Black', exact: true }).click();
    });

    const dialog = page.getByRole('dialog', { name: 'Add New Product' });
    const run = dialog.getByRole('group', { name: 'Sizes and pieces' });

    await test.step('split the one run into sizes: the tees preset, XS–XXL as 5/10/15/10/5/5, the sum checked inline', async () => {
      await expect(run).toHaveCount(0);
      await dialog.getByRole('button', { name: 'Split into sizes' }).click();
      await run.getByRole('combobox', { name: 'Start from' }).click();
      await page.getByRole('option', { name: 'Tees (XS–XXL)' }).click();
      for (const [size, pieces] of [
        ['XS', '5'],
        ['S', '10'],
        ['M', '15'],
        ['L', '10'],
        ['XL', '5'],
        ['XXL', '5'],
      ] as const) {
        await expect(run.getByRole('spinbutton', { name: `Pieces of ${size}` })).toHaveValue(pieces);
      }
      await expect(run.getByText('Sizes add up to 50 of 50 pieces.')).toBeVisible();
    });

    await test.step('no XXL this time: the sum falls short, then the XL takes the five', async () => {
      await run.getByRole('button', { name: 'Remove size XXL' }).click();
      await expect(run.getByRole('spinbutton', { name: 'Pieces of XXL' })).toHaveCount(0);
      await expect(run.getByText('Sizes add up to 45 of 50 pieces.')).toBeVisible();
      await run.getByRole('spinbutton', { name: 'Pieces of XL' }).fill('10');
      await expect(run.getByText('Sizes add up to 50 of 50 pieces.')).toBeVisible();
      // Nothing of the editor runs off a 375 px screen.
      const box = await run.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      await keepScreenshot(page, test.info(), 'size-run-editor-375');
      await expectAxeClean(page, 'the product form with its size run at 375 px');
    });

    await test.step('save', async () => {
      await dialog.getByRole('button', { name: 'Create Product' }).click();
      await expect(toastText(page, 'Product created successfully')).toBeVisible();
      await expect(dialog).toBeHidden();
      const list = (await (await page.request.get('/api/admin/products')).json()) as Array<{
        id: string;
        name: string;
        stock: number;
        editionSize: number;
        sizes: string[];
        sizeRun: Array<{ size: string | null; pieces: number; left: number }>;
      }>;
      const made = list.find((p) => p.name === name);
      expect(made).toBeTruthy();
      id = made!.id;
      expect(made!.editionSize).toBe(50);
      expect(made!.stock).toBe(50);
      expect(made!.sizes).toEqual(['XS', 'S', 'M', 'L', 'XL']);
      expect(made!.sizeRun.map((s) => [s.size, s.pieces, s.left])).toEqual([
        ['XS', 5, 5],
        ['S', 10, 10],
        ['M', 15, 15],
        ['L', 10, 10],
        ['XL', 10, 10],
      ]);
      // The shop sells those sizes: the run's labels, XXL gone.
      const shown = (await (await page.request.get(`/api/products/${id}`)).json()) as { sizes: string[]; stock: number };
      expect(shown.sizes).toEqual(['XS', 'S', 'M', 'L', 'XL']);
      expect(shown.stock).toBe(50);
    });

    await test.step('the storefront shows those sizes, each one to pick', async () => {
      await page.goto(`/product/${id}`);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      const radios = sizePicker(page).getByRole('radio');
      await expect(radios).toHaveCount(5);
      for (const [i, size] of ['XS', 'S', 'M', 'L', 'XL'].entries()) {
        await expect(radios.nth(i)).toHaveAccessibleName(size);
        await expect(radios.nth(i)).toBeEnabled();
      }
      await keepScreenshot(page, test.info(), 'size-run-storefront-375', { fullPage: true });
      await expectAxeClean(page, 'the product page with its size run at 375 px');
    });
  } finally {
    if (id) expect((await page.request.delete(`/api/admin/products/${id}`)).ok()).toBe(true);
  }
});

test('M sells out live in another shopper’s browser while L stays buyable', async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const name = `Last M Tee ${Date.now().toString(36)}`;
  const id = await createSizedTee(name, [
    { size: 'M', pieces: 1 },
    { size: 'L', pieces: 5 },
  ]);

  await page.goto(`/product/${id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(sizeRadio(page, 'M — 1 left')).toBeEnabled();
  await expect(sizeRadio(page, 'L')).toBeEnabled();
  // Marks the document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { __same: boolean }).__same = true));

  await test.step('another shopper, in a browser of their own, takes the last M and pays', async () => {
    const other = await browser.newContext({ baseURL });
    try {
      await other.addInitScript(() => window.localStorage.setItem('fifty:newsletter-seen', '1'));
      const theirs = await other.newPage();
      await theirs.goto(`/product/${id}`);
      await sizeRadio(theirs, 'M — 1 left').check();
      await theirs.getByRole('button', { name: /^Add to Cart - \$/ }).click();
      await expect(cartDrawer(theirs)).toContainText(name);
      await payForCart(other.request, 1);
    } finally {
      await other.close();
    }
  });

  await test.step('on the first page M greys out as sold out, no reload; L is still there', async () => {
    await expect(sizeRadio(page, 'M — sold out')).toBeDisabled({ timeout: 5_000 });
    await expect(sizeRadio(page, 'L')).toBeEnabled();
    expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(true);
    await expectAxeClean(page, 'the product page with M sold out');
  });

  await test.step('Notify me for the sold-out M while L still sells: "tell me if an M comes back"', async () => {
    const dialog = page.getByRole('dialog', { name: 'Notify me' });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole('button', { name: 'Notify me if a sold-out size comes back' }).scrollIntoViewIfNeeded();
    await keepScreenshot(page, test.info(), 'size-sold-out-notify-375');
    await page.getByRole('button', { name: 'Notify me if a sold-out size comes back' }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`We'll e-mail you if a piece of ${name} in M comes back.`);
    const size = dialog.getByRole('combobox', { name: 'Size' });
    // Only the sold-out size: L is on sale, "Any size" would be an edition still selling.
    await expect(size.getByRole('option')).toHaveText(['M']);
    await dialog.getByLabel('Email address').fill(`m-fan-${Date.now()}@example.com`);
    await keepScreenshot(page, test.info(), 'size-notify-dialog-375');
    await expectAxeClean(page, 'the Notify me dialog for a sold-out size while others sell');
    await dialog.getByRole('button', { name: 'Notify me' }).click();
    await expect(dialog.getByRole('status')).toHaveText("We'll e-mail you if a piece in M comes back.", { timeout: 20_000 });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  await test.step('L can still be bought', async () => {
    await sizeRadio(page, 'L').check();
    await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
    const drawer = cartDrawer(page);
    await expect(drawer).toContainText(name);
    await expect(drawer).toContainText('Size: L');
  });
});

test('Notify me for a size: every size gone, the shopper asks for an M', async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const name = `Notify M Tee ${Date.now().toString(36)}`;
  const id = await createSizedTee(name, [
    { size: 'M', pieces: 1 },
    { size: 'L', pieces: 1 },
  ]);
  await buyElsewhere(browser, baseURL!, id, 'M', 2);
  await buyElsewhere(browser, baseURL!, id, 'L', 3);

  await page.goto(`/product/${id}`);
  await expect(sizeRadio(page, 'M — sold out')).toBeDisabled();
  await expect(sizeRadio(page, 'L — sold out')).toBeDisabled();

  const dialog = page.getByRole('dialog', { name: 'Notify me' });
  // The server-rendered button works once the page has hydrated: click until the dialog opens.
  await expect(async () => {
    await page.getByRole('button', { name: 'Notify me if one comes back' }).click();
    await expect(dialog).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await dialog.getByLabel('Email address').fill(`size-fan-${Date.now()}@example.com`);
  const size = dialog.getByRole('combobox', { name: 'Size' });
  await expect(size.getByRole('option')).toHaveText(['Any size', 'M', 'L']);
  await size.selectOption('M');
  await expectAxeClean(page, 'the Notify me dialog with its sizes');
  await dialog.getByRole('button', { name: 'Notify me' }).click();
  await expect(dialog.getByRole('status')).toHaveText("We'll e-mail you if a piece in M comes back.", { timeout: 20_000 });
});

test('drop day with sizes: the shopper picks M while waiting in line; once let in, the sizes left are there and M is still chosen', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const name = `Line Tee ${Date.now().toString(36)}`;
  // Released a second ago: inside the drop window, buying goes through the waiting room.
  const id = await createSizedTee(
    name,
    [
      { size: 'S', pieces: 1 },
      { size: 'M', pieces: 5 },
      { size: 'L', pieces: 2 },
    ],
    Date.now() - 1000,
  );
  await page.setViewportSize(PHONE);
  await page.goto(`/product/${id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  await test.step('in line: the size picker is there with the pieces of each size; the shopper picks M', async () => {
    await expect(page.getByRole('button', { name: 'Join the waiting room' })).toBeVisible();
    await expect(sizeRadio(page, 'S — 1 left')).toBeEnabled();
    await expect(sizeRadio(page, 'L — 2 left')).toBeEnabled();
    await sizeRadio(page, 'M').check();
    await page.getByRole('button', { name: 'Join the waiting room' }).click();
  });

  await test.step('meanwhile the last S sells elsewhere', async () => {
    await buyElsewhereAdmitted(browser, baseURL!, id, 'S');
  });

  await test.step('let in: M still chosen, S greyed as sold out, L shows what is left; M goes in the cart', async () => {
    // Let in within a second when idle; a loaded CI box running two workers is slower.
    await expect(page.getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(sizeRadio(page, 'M')).toBeChecked();
    await expect(sizeRadio(page, 'S — sold out')).toBeDisabled({ timeout: 10_000 });
    await expect(sizeRadio(page, 'L — 2 left')).toBeEnabled();
    await keepScreenshot(page, test.info(), 'sizes-admitted-375', { fullPage: true });
    await expectAxeClean(page, 'an admitted shopper with the sizes left');
    await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
    await expect(cartDrawer(page)).toContainText('Size: M');
  });
});

/** Another shopper, in their own browser, goes through the line and buys one piece of `size`. */
async function buyElsewhereAdmitted(browser: Browser, baseURL: string, productId: string, size: string) {
  const context = await browser.newContext({ baseURL });
  try {
    await context.addInitScript(() => window.localStorage.setItem('fifty:newsletter-seen', '1'));
    const theirs = await context.newPage();
    await theirs.goto(`/product/${productId}`);
    await sizeRadio(theirs, new RegExp(`^${size}\\b`)).check();
    await theirs.getByRole('button', { name: 'Join the waiting room' }).click();
    await expect(theirs.getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 60_000 });
    await theirs.getByRole('button', { name: /^Add to Cart - \$/ }).click();
    await expect(cartDrawer(theirs)).toBeVisible();
    await payForCart(context.request, 9);
  } finally {
    await context.close();
  }
}
