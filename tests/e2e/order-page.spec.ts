import fs from 'node:fs';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import {
  addFromProductPage,
  cartDrawer,
  describeViolationWithTargets,
  markNewsletterSeen,
  seriousViolations,
  shootAtBothWidths,
} from '../support/e2e';

// The buyer's order page without an account (docs/product.md §2.13): bought on a phone with the offline test
// card, opened from the success page and from the link in the confirmation mail (read from the shared shop's
// outbox), each piece's certificate, and "Find my order" when the link is missing its key.

const PRODUCT = 'Fifty Standard Tee';

/** The shared shop's .eml files that contain every text (quoted-printable soft breaks and `=3D` undone). */
function mailsWith(...texts: string[]): string[] {
  const outbox = path.join(process.env.FIFTY_E2E_DATA_DIR ?? '', 'outbox');
  if (!fs.existsSync(outbox)) return [];
  return fs
    .readdirSync(outbox)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((m) => texts.every((t) => m.includes(t)));
}

async function buyOneTee(page: Page) {
  await addFromProductPage(page, PRODUCT, 'M');
  await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  const values: Record<string, string> = {
    Email: 'order-page@example.com',
    'First Name': 'Grace',
    'Last Name': 'Hopper',
    Address: '1 Compiler Lane',
    City: 'Arlington',
    State: 'VA',
    'ZIP Code': '22201',
  };
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label).fill(value);
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
  await expect(page).toHaveURL(/\/order-success$/);
}

async function expectOrderPage(page: Page, orderNumber: string) {
  await expect(page.getByRole('heading', { level: 1, name: orderNumber })).toBeVisible();
  const pieces = page.getByRole('list', { name: `Edition numbers of ${PRODUCT}` });
  await expect(pieces.getByText(/^No\. \d+ of 50$/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your pieces' }).getByText('Size: M')).toBeVisible();
  await expect(page.getByTestId('shipping-address')).toContainText('1 Compiler Lane');
  await expect(page.getByTestId('shipping-address')).toContainText('Arlington, VA 22201');
  await expect(page.getByTestId('order-total')).toHaveText(/^\$\d+\.\d{2}$/);
  await expect(page.getByTestId('ship-by')).toHaveText(/^(Mon|Tue|Wed|Thu|Fri), [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  const timeline = page.getByRole('list', { name: 'Order status' });
  await expect(timeline.getByRole('listitem')).toHaveCount(5);
  await expect(timeline.locator('[aria-current="step"]')).toContainText('Order placed');
}

test('buy on a phone → success page link → order page → certificate; the mailed link opens it in another browser; Find my order', async ({
  page,
  browser,
}, testInfo) => {
  await markNewsletterSeen(page);
  await page.setViewportSize({ width: 375, height: 812 });
  await buyOneTee(page);

  const orderNumber = (await page.getByTestId('order-number').textContent())!.trim();
  expect(orderNumber).toMatch(/^FIFTY-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  const viewLink = page.getByRole('link', { name: 'View your order' });
  await expect(viewLink).toHaveAttribute('href', new RegExp(`^/orders/${orderNumber}\\?key=[\\w-]{22}$`));
  const orderPath = (await viewLink.getAttribute('href'))!;
  await shootAtBothWidths(page, testInfo, 'order-success', { fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });

  await test.step('the success page links the order page', async () => {
    await viewLink.click();
    await expect(page).toHaveURL(new RegExp(`/orders/${orderNumber}\\?key=`));
    await expectOrderPage(page, orderNumber);
    await expect(page).toHaveTitle(new RegExp(`^Order ${orderNumber} \\|`));
    await shootAtBothWidths(page, testInfo, 'order-page', { fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
  });

  await test.step('each piece links its public certificate', async () => {
    const edition = (await page.getByRole('list', { name: `Edition numbers of ${PRODUCT}` }).getByText(/^No\. \d+ of 50$/).textContent())!;
    await page.getByRole('link', { name: `Certificate of ${edition}` }).click();
    await expect(page).toHaveURL(/\/certificate\/[\w-]{46}$/);
    await expect(page.getByRole('heading', { level: 1, name: PRODUCT })).toBeVisible();
    await expect(page.getByTestId('certificate-number')).toHaveText(edition);
    await expect(page.getByText('Made to order', { exact: true })).toBeVisible();
    // Nothing personal on it.
    for (const personal of ['Grace', 'Hopper', 'Compiler Lane', orderNumber]) await expect(page.getByText(personal)).toHaveCount(0);
    await shootAtBothWidths(page, testInfo, 'certificate', { fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
  });

  await test.step('the link in the confirmation mail opens the order in a browser that never bought anything', async () => {
    await expect.poll(() => mailsWith(`order ${orderNumber} confirmed`).length, { timeout: 15_000 }).toBe(1);
    const [eml] = mailsWith(`order ${orderNumber} confirmed`);
    const link = new RegExp(`https?://[^\\s"<>]+(/orders/${orderNumber}\\?key=[\\w-]+)`).exec(eml!)?.[1];
    expect(link).toBe(orderPath);
    const other = await browser.newContext({ viewport: { width: 375, height: 812 } });
    const fromMail = await other.newPage();
    await fromMail.goto(link!);
    await expectOrderPage(fromMail, orderNumber);
    expect(await seriousViolations(fromMail, { describe: describeViolationWithTargets })).toEqual([]);
    await other.close();
  });

  await test.step('without its key the page offers "Find my order", which answers without saying whether it matched', async () => {
    await page.goto(`/orders/${orderNumber}?key=forged`);
    await expect(page.getByRole('heading', { level: 1, name: "This link doesn't open an order" })).toBeVisible();
    await expect(page.getByText('Grace')).toHaveCount(0);
    const form = page.getByRole('region', { name: 'Find my order' });
    await expect(form.getByRole('textbox', { name: 'Order number' })).toHaveValue(orderNumber);
    await form.getByRole('textbox', { name: 'E-mail address' }).fill('order-page@example.com');
    await form.getByRole('button', { name: 'E-mail me the link' }).click();
    await expect(form.getByRole('status')).toHaveText(/^If that order number and e-mail address match an order/);
    await shootAtBothWidths(page, testInfo, 'find-my-order', { fullPage: true });
    await expect.poll(() => mailsWith(`the link to your order ${orderNumber}`, orderPath).length, { timeout: 15_000 }).toBe(1);
  });
});
