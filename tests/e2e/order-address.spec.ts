import { test, expect, type Page } from '@playwright/test';
import {
  E2E_ADMIN_PASSWORD,
  buyOneWithTestCard,
  describeViolationWithTargets,
  keepScreenshot,
  loginOwner,
  markNewsletterSeen,
  seriousViolations,
  shootAtBothWidths,
  teeData,
} from '../support/e2e';
import { startPrivateShop } from '../support/private-shop';

// The buyer's hour after ordering (docs/product.md "Order page"), on a phone: a buyer pays with the offline
// test card, opens the order page from the success page, corrects the delivery address, and then cancels the
// order (a confirm dialog); the page shows it cancelled and refunded to the card. On a shop of its own whose
// clock the spec moves: a change at 10 minutes is taken, and at 61 minutes neither offered nor accepted.

/** Buys one M of `id` on `base` and opens the order page from the success page's link. */
async function buyAndOpenOrder(page: Page, base: string, id: string, name: string, street: string) {
  const bought = await buyOneWithTestCard(
    page,
    `${base}/product/${id}`,
    { email: 'wrong-door@example.com', address: street, city: 'Boston', state: 'MA', zip: '02108' },
    name,
  );
  await page.getByRole('link', { name: 'View your order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: bought.orderNumber })).toBeVisible();
  return bought;
}

test('the buyer changes the address and then cancels within the hour at 375 px', async ({
  page,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const owner = await loginOwner(baseURL);
  const name = `Wrong Door Tee ${Date.now().toString(36)}`;
  try {
    const id = await owner.createProduct(teeData(owner, name, { stock: 5, editionSize: 5 }));
    await markNewsletterSeen(page);
    await page.setViewportSize({ width: 375, height: 812 });

    const { orderNumber, orderPath, paid } = await buyAndOpenOrder(page, baseURL!, id, name, '7 Wrong Turn');

    // The hour is named with the shop's clock.
    const changes = page.getByRole('region', { name: 'Change or cancel' });
    await expect(changes).toContainText(/You can change the address until \d{1,2}:\d\d [AP]M \S+\./);
    await shootAtBothWidths(page, testInfo, 'order-changes', { fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });

    // A wrong field says what the checkout says; the corrected address is then the order's.
    await changes.getByRole('button', { name: 'Change address' }).click();
    const form = changes.getByRole('form', { name: 'New delivery address' });
    await form.getByLabel('Address').fill('8 Right Turn');
    await form.getByLabel('City').fill('');
    await form.getByRole('button', { name: 'Save address' }).click();
    await expect(form.getByText('City is required')).toBeVisible();
    await expect(form.getByLabel('City')).toHaveAttribute('aria-invalid', 'true');
    await keepScreenshot(page, testInfo, 'order-address-form-375', { fullPage: true });
    expect(
      await seriousViolations(page, { describe: describeViolationWithTargets }),
      'address form at 375px',
    ).toEqual([]);
    await form.getByLabel('City').fill('Cambridge');
    await form.getByLabel('ZIP Code').fill('02139');
    await form.getByRole('button', { name: 'Save address' }).click();
    await expect(changes.getByRole('status')).toHaveText(
      'Address changed. We have e-mailed you the new delivery address.',
    );
    await expect(page.getByTestId('shipping-address')).toContainText('8 Right Turn');
    await expect(page.getByTestId('shipping-address')).toContainText('Cambridge, MA 02139');
    // It is the order's, not only the page's: a reload shows it.
    await page.reload();
    await expect(page.getByTestId('shipping-address')).toContainText('8 Right Turn');

    // The owner corrects it too, from the admin order card (until it ships).
    expect(
      (await page.request.post('/api/admin/login', { data: { password: E2E_ADMIN_PASSWORD } })).ok(),
    ).toBe(true);
    await page.goto('/admin');
    await page.getByRole('tab', { name: /^Orders \(\d+\)$/ }).click();
    await page.getByRole('searchbox').fill(orderNumber);
    const card = page.getByRole('article', { name: orderNumber });
    await card.getByRole('button', { name: `Change address of ${orderNumber}` }).click();
    const ownerDialog = page.getByRole('dialog', { name: `Change the address of ${orderNumber}` });
    await ownerDialog.getByLabel('Address').fill('8 Right Turn, Apt 2');
    await keepScreenshot(page, testInfo, 'admin-address-dialog-375');
    expect(
      await seriousViolations(page, { include: '[role="dialog"]', describe: describeViolationWithTargets }),
      'admin address dialog at 375px',
    ).toEqual([]);
    await ownerDialog.getByRole('button', { name: 'Save address' }).click();
    await expect(ownerDialog).toBeHidden();
    await expect(card.getByRole('region', { name: 'Shipping address' })).toContainText('8 Right Turn, Apt 2');
    await page.goto(orderPath);
    await expect(page.getByTestId('shipping-address')).toContainText('8 Right Turn, Apt 2');

    // Cancel, confirmed in a dialog.
    await page.getByRole('button', { name: 'Cancel order' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel order ${orderNumber}?` });
    await expect(dialog).toContainText(`${paid} goes back to your card`);
    await keepScreenshot(page, testInfo, 'buyer-cancel-dialog-375');
    expect(
      await seriousViolations(page, { include: '[role="dialog"]', describe: describeViolationWithTargets }),
      'cancel dialog at 375px',
    ).toEqual([]);
    await dialog.getByRole('button', { name: 'Yes, cancel the order' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Your order is cancelled. The money goes back to your card.')).toBeFocused();
    await expect(page.getByText('Status: Cancelled')).toBeVisible();
    await expect(page.getByTestId('order-refunds')).toContainText(`Refunded ${paid} to your card`);
    await expect(page.getByRole('button', { name: 'Change address' })).toHaveCount(0);
    await shootAtBothWidths(page, testInfo, 'order-cancelled-by-buyer', { fullPage: true });
  } finally {
    await owner.dispose();
  }
});

// The hour is the shop's (its database clock): this spec's own shop moves it instead of waiting an hour.
test('an address change at 10 minutes is accepted; at 61 minutes the page offers none and the shop refuses it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shop = await startPrivateShop();
  const owner = await loginOwner(shop.base);
  try {
    const name = `Late Door Tee ${Date.now().toString(36)}`;
    const id = await owner.createProduct(teeData(owner, name, { stock: 5, editionSize: 5 }));
    await markNewsletterSeen(page);
    await page.setViewportSize({ width: 375, height: 812 });
    const { orderNumber, orderPath } = await buyAndOpenOrder(page, shop.base, id, name, '9 Early Street');

    shop.moveClock(10 * 60_000);
    await page.reload();
    const changes = page.getByRole('region', { name: 'Change or cancel' });
    await changes.getByRole('button', { name: 'Change address' }).click();
    const form = changes.getByRole('form', { name: 'New delivery address' });
    await form.getByLabel('Address').fill('10 Minutes Later Road');
    await form.getByRole('button', { name: 'Save address' }).click();
    await expect(changes.getByRole('status')).toHaveText(
      'Address changed. We have e-mailed you the new delivery address.',
    );
    await expect(page.getByTestId('shipping-address')).toContainText('10 Minutes Later Road');

    shop.moveClock(51 * 60_000);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: orderNumber })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Change or cancel' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Change address' })).toHaveCount(0);
    // A page left open past the hour (or a hand-made request) is refused by the shop, and nothing changes.
    const key = new URL(orderPath, shop.base).searchParams.get('key')!;
    const late = await page.request.post(
      `${shop.base}/api/orders/${orderNumber}/address?key=${encodeURIComponent(key)}`,
      {
        data: {
          shippingAddress: '61 Minutes Road',
          shippingCity: 'Boston',
          shippingState: 'MA',
          shippingZip: '02108',
          shippingCountry: 'US',
        },
      },
    );
    expect(late.status()).toBe(409);
    expect(await late.json()).toEqual({
      message: 'The hour to change this order has passed. Please contact support if something is wrong.',
    });
    await page.reload();
    await expect(page.getByTestId('shipping-address')).toContainText('10 Minutes Later Road');
  } finally {
    await owner.dispose();
    await shop.stop();
  }
});
