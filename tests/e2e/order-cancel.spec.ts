import { test, expect } from '@playwright/test';
import {
  E2E_ADMIN_PASSWORD,
  buyOneWithTestCard,
  keepScreenshot,
  loginOwner,
  markNewsletterSeen,
  seriousViolations,
  teeData,
  describeViolationWithTargets,
} from '../support/e2e';

// After the sale (docs/product.md "After the sale: cancel and refund"), on a phone: a buyer pays with the
// offline test card, the owner cancels the order from the admin's order card (a confirm dialog), and the
// buyer's order page then shows it cancelled and refunded.

test('the owner cancels an order from the admin at 375 px; the buyer’s order page shows cancelled and refunded', async ({
  page,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const owner = await loginOwner(baseURL);
  const name = `Cancel Me Tee ${Date.now().toString(36)}`;
  try {
    const id = await owner.createProduct(teeData(owner, name, { stock: 5, editionSize: 5 }));
    await markNewsletterSeen(page);
    await page.setViewportSize({ width: 375, height: 812 });

    // The buyer pays.
    const { orderNumber, orderPath, paid } = await buyOneWithTestCard(
      page,
      `/product/${id}`,
      {
        email: 'cancelled-buyer@example.com',
        address: '12 Engine Row',
        city: 'Baltimore',
        state: 'MD',
        zip: '21201',
      },
      name,
    );

    // The owner cancels it from the order card.
    expect(
      (await page.request.post('/api/admin/login', { data: { password: E2E_ADMIN_PASSWORD } })).ok(),
    ).toBe(true);
    await page.goto('/admin');
    await page.getByRole('tab', { name: /^Orders \(\d+\)$/ }).click();
    await page.getByRole('searchbox').fill(orderNumber);
    const card = page.getByRole('article', { name: orderNumber });
    await card.getByRole('button', { name: `Cancel order ${orderNumber}` }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel order ${orderNumber}?` });
    await expect(dialog).toContainText('The money goes back to the card');
    await keepScreenshot(page, testInfo, 'cancel-dialog-375');
    // The dialog alone: the page behind it is dimmed on purpose (and checked once the dialog is closed).
    expect(
      await seriousViolations(page, { include: '[role="dialog"]', describe: describeViolationWithTargets }),
      'cancel dialog at 375px',
    ).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel and refund' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByRole('combobox', { name: `Order status for ${orderNumber}` })).toHaveText(
      'Cancelled',
    );
    const records = card.getByRole('region', { name: 'Refunds and disputes' });
    await expect(records).toContainText(`Cancelled refund to the card: ${paid}`);
    await expect(records).toContainText('refunded');
    await expect(card.getByRole('button', { name: `Cancel order ${orderNumber}` })).toHaveCount(0);
    await keepScreenshot(page, testInfo, 'admin-cancelled-375', { fullPage: true });
    expect(
      await seriousViolations(page, { describe: describeViolationWithTargets }),
      'admin at 375px',
    ).toEqual([]);

    // The buyer's page says so.
    await page.goto(orderPath);
    await expect(page.getByRole('heading', { level: 1, name: orderNumber })).toBeVisible();
    await expect(page.getByText('Status: Cancelled')).toBeVisible();
    await expect(page.getByTestId('order-refunds')).toContainText(`Refunded ${paid} to your card`);
    await expect(page.getByRole('region', { name: 'Your pieces' })).toContainText('Cancelled');
    await keepScreenshot(page, testInfo, 'order-page-cancelled-375', { fullPage: true });
    expect(
      await seriousViolations(page, { describe: describeViolationWithTargets }),
      'order page at 375px',
    ).toEqual([]);
  } finally {
    await owner.dispose();
  }
});
