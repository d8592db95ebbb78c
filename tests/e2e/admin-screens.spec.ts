import { test, expect, type Page } from '@playwright/test';
import sharp from 'sharp';
import { markNewsletterSeen, seriousViolations, subscribeByApi } from '../support/e2e';

// The owner's screens in /admin (docs/product.md §2.11): the login screen, paid vs fulfilment, code and signup
// lists, sold out, one on-sale control, required price, cancel confirmations, tables on a phone, and the
// edition-number words shared with the shop (docs/product.md §9, Edition numbers).

const PASSWORD = 'e2e-admin-password';

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

interface SeedProduct {
  id: string;
  name: string;
}

async function productId(page: Page, name: string): Promise<string> {
  const list = (await (await page.request.get('/api/products')).json()) as SeedProduct[];
  return list.find((p) => p.name === name)!.id;
}

/** A paid order of two pieces, placed through the public API on the page's own cookies. */
async function placeOrder(page: Page): Promise<string> {
  const ok = async (res: Awaited<ReturnType<Page['request']['post']>>) => {
    expect(res.ok(), `${res.url()} → ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as Record<string, string>;
  };
  await ok(
    await page.request.post('/api/cart', {
      data: {
        productId: await productId(page, 'Static Zip Hoodie'),
        quantity: 2,
        selectedSize: 'XL',
        selectedColor: 'Steel Grey',
      },
    }),
  );
  await ok(
    await page.request.post('/api/customer-info', {
      data: {
        email: 'owner-view@example.com',
        firstName: 'Grace',
        lastName: 'Hopper',
        phone: null,
        shippingAddress: '1 Compiler Court',
        shippingCity: 'Arlington',
        shippingState: 'VA',
        shippingZip: '22201',
        shippingCountry: 'US',
      },
    }),
  );
  const intent = await ok(await page.request.post('/api/create-payment-intent', { data: {} }));
  await ok(
    await page.request.post('/api/payments/offline/confirm', {
      data: {
        clientSecret: intent.clientSecret,
        cardNumber: '4242424242424242',
        expiry: '12/34',
        cvc: '123',
      },
    }),
  );
  const order = await ok(
    await page.request.post('/api/payment-success', { data: { paymentIntentId: intent.paymentIntentId } }),
  );
  return order.orderNumber!;
}

test('the login is its own screen and a wrong password is explained under the field', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  await expect(page.getByText('FALL15')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Shopping cart/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/');
  const password = page.getByLabel('Password');
  await password.fill('not-the-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(password).toHaveAccessibleDescription('Invalid password');
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  expect(await seriousViolations(page)).toEqual([]);
});

test('paid vs fulfilment, code lists, sold out, one on-sale control, price required, cancel asks', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const orderNumber = await placeOrder(page);
  const welcome = await subscribeByApi(page.request, `owner-${Date.now()}@example.com`);
  expect(welcome.ok()).toBe(true);

  expect((await page.request.post('/api/admin/login', { data: { password: PASSWORD } })).ok()).toBe(true);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

  // A sold-out product says so.
  const soldOut = page.getByRole('article', { name: 'Signal Loss Tee' });
  await expect(soldOut).toContainText('Sold out');
  await expect(soldOut).not.toContainText('Low stock');

  // 'Paid' for the payment, the dropdown for fulfilment; 'Pending' shows once.
  await page.getByRole('tab', { name: /^Orders \(\d+\)$/ }).click();
  const order = page.getByRole('article', { name: orderNumber });
  await expect(order.getByText('Payment: Paid', { exact: true })).toBeVisible();
  await expect(order.getByRole('combobox', { name: `Order status for ${orderNumber}` })).toHaveText(
    'Pending',
  );
  await expect(order.getByText('Pending', { exact: true })).toHaveCount(1);
  // The same words as the order page, e-mail and CSV.
  await expect(order).toContainText(/Nos\. \d+, \d+ of 50/);
  await expect(order).toContainText('Steel Grey');

  // The owner's codes and the per-subscriber welcome codes are separate lists with counts.
  await page.getByRole('tab', { name: /^Discount Codes \(\d+\)$/ }).click();
  const shopCodes = page.getByRole('button', { name: /^Shop codes \(\d+\)$/ });
  await expect(shopCodes).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('row', { name: /FALL15/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /WELCOME-/ })).toHaveCount(0);
  await page.getByRole('button', { name: /^Welcome codes \([1-9]\d*\)$/ }).click();
  await expect(page.getByRole('row', { name: /WELCOME-/ }).first()).toBeVisible();
  await expect(page.getByRole('row', { name: /FALL15/ })).toHaveCount(0);

  // Price required, one on-sale control, Cancel asks before dropping uploads.
  await page.getByRole('tab', { name: /^Products \(\d+\)$/ }).click();
  await page.getByRole('button', { name: 'Add Product' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Product' });
  await dialog.getByRole('button', { name: 'Create Product' }).click();
  await expect(dialog.getByText('Price is required')).toBeVisible();
  const onSale = dialog.getByRole('checkbox', { name: 'On Sale' });
  const salePrice = dialog.getByLabel('Sale Price', { exact: true });
  await dialog.getByLabel('Price', { exact: true }).fill('80');
  await salePrice.fill('60');
  await expect(onSale).toBeChecked();
  await onSale.uncheck();
  await expect(salePrice).toHaveValue('');
  await onSale.check();
  await expect(salePrice).toBeFocused();

  const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: image });
  await expect(dialog.getByRole('list', { name: 'Product images' }).getByRole('listitem')).toHaveCount(1);
  let asked = '';
  page.once('dialog', (d) => {
    asked = d.message();
    void d.dismiss();
  });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(asked).toContain('Discard the image you uploaded?');
  await expect(dialog).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the codes and signups tables scroll sideways inside the screen and say so', async ({ page }) => {
    await subscribeByApi(page.request, `phone-${Date.now()}@example.com`);
    expect((await page.request.post('/api/admin/login', { data: { password: PASSWORD } })).ok()).toBe(true);
    await page.goto('/admin');
    for (const [tab, table] of [
      ['Discount Codes', 'Discount codes table'],
      ['Newsletter', 'Newsletter signups table'],
    ]) {
      await page.getByRole('tab', { name: new RegExp(`^${tab} \\(\\d+\\)$`) }).click();
      await expect(page.getByText('Scroll sideways for more columns →')).toBeVisible();
      const region = page.getByRole('region', { name: table });
      const fits = await region.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth);
      expect(fits).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
  });
});
