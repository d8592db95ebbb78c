import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import {
  describeViolationWithTargets,
  markNewsletterSeen,
  seriousViolations,
  subscribeByApi,
  toastText,
} from '../support/e2e';
import sharp from 'sharp';

// The shop owner's drop day (docs/product.md §2.11): log in, create a product with uploaded images, see it in the
// shop, edit it, handle an order, see a signup, make a discount code that a shopper uses, delete, log out.

const PASSWORD = 'e2e-admin-password';
// Its own name on each attempt: a retry must not meet the first attempt's piece.
const PRODUCT = `E2E Drop Hoodie ${Date.now().toString(36)}`;
const CODE = 'E2ESAVE20';

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

function png(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 96, height: 96, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name: new RegExp(`^${name} \\(\\d+\\)$`) }).click();
}

/** A shopper's order through the public API on the page's own cookies (offline test gateway). */
async function placeOrder(
  request: APIRequestContext,
  productId: string,
  size: string,
  discountCode: string | null,
) {
  const ok = async (res: Awaited<ReturnType<APIRequestContext['post']>>): Promise<Record<string, string>> => {
    expect(res.ok(), `${res.url()} → ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as Record<string, string>;
  };
  await ok(
    await request.post('/api/cart', {
      data: { productId, quantity: 1, selectedSize: size, selectedColor: 'Black' },
    }),
  );
  await ok(
    await request.post('/api/customer-info', {
      data: {
        email: 'owner-test@example.com',
        firstName: 'Grace',
        lastName: 'Hopper',
        phone: '555-0100',
        shippingAddress: '1 Compiler Court',
        shippingCity: 'Arlington',
        shippingState: 'VA',
        shippingZip: '22201',
        shippingCountry: 'US',
      },
    }),
  );
  const intent = await ok(await request.post('/api/create-payment-intent', { data: { discountCode } }));
  await ok(
    await request.post('/api/payments/offline/confirm', {
      data: {
        clientSecret: intent.clientSecret,
        cardNumber: '4242424242424242',
        expiry: '12/34',
        cvc: '123',
      },
    }),
  );
  const order = await ok(
    await request.post('/api/payment-success', { data: { paymentIntentId: intent.paymentIntentId } }),
  );
  return order.orderNumber!;
}

test('the owner runs a drop from /admin', async ({ page }) => {
  test.setTimeout(240_000);

  await test.step('wrong then right password', async () => {
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
    await expect(page.getByText('Enter admin password to continue')).toBeVisible();
    expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);

    const login = page.getByRole('button', { name: 'Login' });
    const password = page.getByLabel('Password');
    await expect(login).toBeDisabled();
    await password.fill('   ');
    await expect(login).toBeDisabled();

    await password.fill('not-the-password');
    await login.click();
    await expect(toastText(page, 'Invalid password')).toBeVisible();
    await expect(password).toHaveValue('');
    await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();

    await password.fill(PASSWORD);
    await login.click();
    await expect(toastText(page, 'Admin access granted')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByRole('tab', { name: /^Products \(\d+\)$/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('tab', { name: /^Orders \(\d+\)$/ })).toBeVisible();
    await expect(page.getByRole('tab', { name: /^Newsletter \(\d+\)$/ })).toBeVisible();
    await expect(page.getByRole('tab', { name: /^Discount Codes \(\d+\)$/ })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Edit / }).first()).toBeVisible();
    expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);
  });

  await test.step('create a product with two uploaded images', async () => {
    await page.getByRole('button', { name: 'Add Product' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Product' });
    await expect(dialog).toBeVisible();

    // Saving an empty form is refused on the client.
    await dialog.getByRole('button', { name: 'Create Product' }).click();
    await expect(toastText(page, 'Invalid form data')).toBeVisible();
    await expect(dialog.getByText('Name is required')).toBeVisible();

    await dialog.getByLabel('Name', { exact: true }).fill(PRODUCT);
    await dialog
      .getByLabel('Description', { exact: true })
      .fill('Heavyweight loopback hoodie made for the e2e drop. Only fifty made.');
    await dialog.getByLabel('Price', { exact: true }).fill('80');
    await dialog.getByLabel('Materials', { exact: true }).fill('100% organic cotton');
    await dialog.getByLabel('Sustainability Info', { exact: true }).fill('Made to order, nothing left over.');
    await dialog.getByLabel('Stock', { exact: true }).fill('4');

    await dialog.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Hoodies' }).click();
    const sizes = dialog.getByRole('list', { name: 'Sizes' });
    await expect(sizes.getByRole('listitem')).toHaveText(['S', 'M', 'L', 'XL', 'XXL']);

    await dialog.getByRole('button', { name: 'Black', exact: true }).click();
    await dialog.getByRole('button', { name: 'Black', exact: true }).click();
    await dialog.getByRole('button', { name: 'Forest Green', exact: true }).click();
    await dialog.getByRole('button', { name: 'Sunset Orange', exact: true }).click();
    await dialog.getByRole('button', { name: 'Remove colour Sunset Orange' }).click();
    await expect(dialog.getByRole('list', { name: 'Chosen colours' }).getByRole('listitem')).toHaveText([
      'Black',
      'Forest Green',
    ]);

    await dialog.getByLabel('Upload images').setInputFiles([
      { name: 'front.png', mimeType: 'image/png', buffer: await png('#d7ff3a') },
      { name: 'back.png', mimeType: 'image/png', buffer: await png('#0a0a0a') },
    ]);
    await expect(toastText(page, '2 image(s) uploaded successfully')).toBeVisible();
    await expect(dialog.getByRole('img', { name: /^Product image \d$/ })).toHaveCount(2);
    await expect(dialog.getByRole('button', { name: 'Remove image 2' })).toBeVisible();
    expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);
    // Marked at listing as a final sale (the refund policy): its page says it cannot be returned.
    await dialog.getByLabel('Final sale — not returnable').check();

    await dialog.getByRole('button', { name: 'Create Product' }).click();
    await expect(toastText(page, 'Product created successfully')).toBeVisible();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('article', { name: PRODUCT });
    await expect(card).toContainText('$80.00');
    await expect(card).toContainText('Hoodies');
    await expect(card).toContainText('Low stock');
    await expect(card).toContainText('In Stock');
  });

  const products = await (await page.request.get('/api/admin/products')).json();
  const created = (
    products as Array<{ id: string; name: string; images: string[]; sizes: string[]; colors: unknown[]; nonReturnable: boolean }>
  ).find((p) => p.name === PRODUCT);
  expect(created).toBeTruthy();
  expect(created!.images).toHaveLength(2);
  expect(created!.sizes).toEqual(['S', 'M', 'L', 'XL', 'XXL']);
  expect(created!.colors).toHaveLength(2);
  expect(created!.nonReturnable).toBe(true);

  await test.step('the product is in the storefront, with its uploaded image', async () => {
    await page.goto('/category/hoodies');
    const link = page.getByRole('link', { name: new RegExp(PRODUCT) }).first();
    await expect(link).toBeVisible();
    const image = await page.request.get(created!.images[0]!);
    expect(image.ok()).toBe(true);
    expect(image.headers()['content-type']).toBe('image/webp');
    await page.goto(`/product/${created!.id}`);
    await expect(page.getByText("Final sale: this piece can't be returned.")).toBeVisible();
    await expect(page.getByText('30-day return policy')).toHaveCount(0);
  });

  await test.step('edit its price', async () => {
    await page.goto('/admin');
    await page.getByRole('button', { name: `Edit ${PRODUCT}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Product' });
    await expect(dialog.getByLabel('Price', { exact: true })).toHaveValue('80.00');
    await dialog.getByLabel('Price', { exact: true }).fill('65.50');
    await dialog.getByRole('button', { name: 'Update Product' }).click();
    await expect(toastText(page, 'Product updated successfully')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('article', { name: PRODUCT })).toContainText('$65.50');
    const fresh = await (await page.request.get(`/api/products/${created!.id}`)).json();
    expect(fresh.price).toBe('65.50');
  });

  await test.step('create a discount code', async () => {
    await openTab(page, 'Discount Codes');
    await page.getByLabel('Code', { exact: true }).fill(CODE.toLowerCase());
    await page.getByLabel('Percent off').fill('20');
    await page.getByLabel('Maximum uses').fill('5');
    await page.getByRole('button', { name: 'Create code' }).click();
    await expect(toastText(page, `Discount code ${CODE} created`)).toBeVisible();
    const row = page.getByRole('row', { name: new RegExp(CODE) });
    await expect(row).toContainText('20%');
    await expect(row).toContainText('0 / 5');
    expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);
  });

  let orderNumber = '';
  await test.step('a shopper uses the code at checkout', async () => {
    const check = await page.request.post('/api/validate-discount', { data: { code: CODE.toLowerCase() } });
    expect(check.ok()).toBe(true);
    expect(await check.json()).toMatchObject({ code: CODE, discountPercent: 20 });
    orderNumber = await placeOrder(page.request, created!.id, 'M', CODE);
    expect(orderNumber).toMatch(/\S/);

    await page.reload();
    await openTab(page, 'Discount Codes');
    await expect(page.getByRole('row', { name: new RegExp(CODE) })).toContainText('1 / 5');
  });

  await test.step("change the order's status", async () => {
    await openTab(page, 'Orders');
    const order = page.getByRole('article', { name: orderNumber });
    // Newest first, 20 a page: another journey's orders made meanwhile could push this one to page 2.
    await page.getByLabel('Search orders').fill(orderNumber);
    // The search has answered (the list is dimmed while it runs): this one order, shown at full contrast.
    await expect(page.getByRole('list', { name: 'Orders' }).locator(':scope > li')).toHaveCount(1);
    await expect(order).toContainText('Grace Hopper');
    await expect(order).toContainText('owner-test@example.com');
    await expect(order).toContainText('1 Compiler Court');
    await expect(order).toContainText(PRODUCT);
    await expect(order).toContainText(/No\. \d+ of 50/);
    await expect(order).toContainText(`Discount (${CODE})`);
    await expect(order).toContainText('$65.50');
    await expect(order).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM)/);
    expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);

    await page.getByLabel('Search orders').fill('no-such-order');
    await expect(page.getByText('No orders match these filters.')).toBeVisible();
    await page.getByLabel('Search orders').fill(orderNumber.toLowerCase());
    await expect(order).toBeVisible();

    await order.getByRole('combobox', { name: `Order status for ${orderNumber}` }).click();
    await page.getByRole('option', { name: 'Shipped' }).click();
    await expect(toastText(page, 'Order status updated successfully')).toBeVisible();
    await expect(order.getByText('Shipped', { exact: true }).first()).toBeVisible();

    await page.getByRole('combobox', { name: 'Filter by status' }).click();
    await page.getByRole('option', { name: 'Pending' }).click();
    await expect(order).toBeHidden();
    await page.getByRole('combobox', { name: 'Filter by status' }).click();
    await page.getByRole('option', { name: 'Shipped' }).click();
    await expect(order).toBeVisible();

    const csv = await page.request.get('/api/admin/orders.csv');
    expect(csv.ok()).toBe(true);
    expect(await csv.text()).toContain(orderNumber);
  });

  await test.step('see a newsletter signup', async () => {
    const email = `e2e-signup-${Date.now()}@example.com`;
    const res = await subscribeByApi(page.request, email);
    expect(res.ok()).toBe(true);
    await page.reload();
    await openTab(page, 'Newsletter');
    for (const column of ['Email', 'Signed Up', 'Status']) {
      await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
    }
    const row = page.getByRole('row', { name: new RegExp(email) });
    await expect(row).toContainText('Subscribed');
    expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);
  });

  await test.step('delete the product', async () => {
    await openTab(page, 'Products');
    page.once('dialog', async (d) => {
      expect(d.message()).toBe('Are you sure you want to delete this product?');
      await d.accept();
    });
    await page.getByRole('button', { name: `Delete ${PRODUCT}` }).click();
    await expect(toastText(page, 'Product deleted successfully')).toBeVisible();
    await expect(page.getByRole('article', { name: PRODUCT })).toHaveCount(0);
    // The order keeps its own snapshot. (Found by its number: other journeys' newer orders may fill page 1.)
    await openTab(page, 'Orders');
    await page.getByLabel('Search orders').fill(orderNumber);
    await expect(page.getByRole('article', { name: orderNumber })).toContainText(PRODUCT);
  });

  await test.step('log out', async () => {
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(toastText(page, 'Logged out successfully')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
    expect((await page.request.get('/api/admin/products')).status()).toBe(401);
  });
});
