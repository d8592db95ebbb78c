import { test, expect } from '@playwright/test';
import { loginOwner, markNewsletterSeen, teeData, type OwnerApi } from '../support/e2e';

// 3-D Secure at entry (docs/draw.md): on a phone, a shopper enters a draw with the offline gateway's 3-D Secure
// test card; the bank's dialog appears. Failing it leaves nothing held and the form as it was (no dead end);
// entering again and completing it records the entry ("Check your e-mail").

test.describe.configure({ mode: 'serial' });

let owner: OwnerApi;
let productId = '';
let drawId = '';

test.beforeAll(async ({ baseURL }) => {
  owner = await loginOwner(baseURL);
});

test.afterAll(async () => {
  if (drawId) await owner.request.post(`/api/admin/draws/${drawId}/cancel`).catch(() => undefined);
  if (productId) await owner.request.delete(`/api/admin/products/${productId}`).catch(() => undefined);
  await owner?.request.dispose();
});

test('entering with a 3-D Secure card at 375 px: the bank dialog, a failed check, then a completed one', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const made = await owner.request.post('/api/admin/products', {
    data: teeData(owner, `Secure Draw Tee ${stamp}`, { description: 'One numbered tee, sold by draw.', stock: 1, editionSize: 1 }),
  });
  expect(made.status(), await made.text()).toBe(201);
  productId = ((await made.json()) as { id: string }).id;
  const closesAt = new Date(Date.now() + 10 * 60_000);
  const created = await owner.request.post('/api/admin/draws', {
    data: {
      productId,
      opensAt: new Date(Date.now() - 60_000).toISOString(),
      closesAt: closesAt.toISOString(),
      drawAt: new Date(closesAt.getTime() + 30 * 60_000).toISOString(),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  drawId = ((await created.json()) as { id: string }).id;

  const shopper = await browser.newContext({ baseURL, viewport: { width: 375, height: 812 } });
  const page = await shopper.newPage();
  await markNewsletterSeen(page);
  await page.goto(`/product/${productId}`);
  const panel = page.getByRole('region', { name: 'Enter the draw' });
  await expect(panel).toBeVisible();
  await panel.getByLabel('Size', { exact: true }).selectOption('M');
  await panel.getByLabel('Email').fill(`draw-3ds-${stamp}@example.com`);
  await panel.getByLabel('First Name').fill('Grace');
  await panel.getByLabel('Last Name').fill('Hopper');
  await panel.getByLabel('Address', { exact: true }).fill('7 Secure Street');
  await panel.getByLabel('City').fill('Portland');
  await panel.getByLabel('State').fill('OR');
  await panel.getByLabel('ZIP Code').fill('97209');
  await panel.getByLabel('Card number').fill('4000 0027 6000 3184');
  await panel.getByLabel('Expiry (MM/YY)').fill('12/34');
  await panel.getByLabel('CVC').fill('123');

  const bank = page.getByRole('dialog', { name: 'Confirm with your bank' });
  await test.step('a failed check: the bank says so, nothing is entered, the form stays', async () => {
    await panel.getByRole('button', { name: 'Enter the draw' }).click();
    await expect(bank).toBeVisible({ timeout: 20_000 });
    await bank.getByRole('button', { name: 'Fail authentication' }).click();
    await expect(bank).toBeHidden();
    await expect(panel.getByRole('alert')).toHaveText(
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    );
    await expect(panel.getByRole('button', { name: 'Enter the draw' })).toBeEnabled();
  });

  await test.step('entering again and completing the check: the entry is recorded', async () => {
    await panel.getByRole('button', { name: 'Enter the draw' }).click();
    await expect(bank).toBeVisible({ timeout: 20_000 });
    // The dialog fits the phone's width.
    const box = await bank.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await bank.getByRole('button', { name: 'Complete authentication' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Check your e-mail to confirm your entry.' }),
    ).toBeVisible({ timeout: 30_000 });
  });
  await shopper.close();
});
