import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { loginOwner, markNewsletterSeen, seriousViolations, teeData, type OwnerApi } from '../support/e2e';

// 3-D Secure at confirmation (docs/draw.md): on a phone, a shopper enters a draw with the offline gateway's
// 3-D Secure test card; entering asks nothing of the bank. The mailed link's confirmation does: the bank's
// dialog appears. Failing it reads the shop's one message and offers another card (no dead end); another card
// with the check completed confirms the entry.

/** The link token of the confirmation mail to `email` in the e2e shop's outbox ('' until it is there). */
function entryTokenInOutbox(email: string): string {
  const outbox = path.join(process.env.FIFTY_E2E_DATA_DIR ?? '', 'outbox');
  if (!fs.existsSync(outbox)) return '';
  for (const f of fs.readdirSync(outbox).filter((n) => n.endsWith('.eml'))) {
    const mail = fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, '');
    if (!mail.includes(email) || !mail.includes('Confirm your entry')) continue;
    const m = /\/draw-entry\/([A-Za-z0-9_-]{43})/.exec(mail);
    if (m) return m[1]!;
  }
  return '';
}

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

test('a 3-D Secure card at 375 px: entered without the bank, then at the confirmation the bank dialog, a failed check, another card completed', async ({
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

  await test.step('entering asks nothing of the bank: the entry waits for its mailed link', async () => {
    await panel.getByRole('button', { name: 'Enter the draw' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Check your e-mail to confirm your entry.' }),
    ).toBeVisible({ timeout: 30_000 });
  });

  const email = `draw-3ds-${stamp}@example.com`;
  let token = '';
  await expect
    .poll(() => (token = entryTokenInOutbox(email)), { timeout: 15_000, message: `the confirmation mail to ${email}` })
    .not.toBe('');

  const bank = page.getByRole('dialog', { name: 'Confirm with your bank' });
  await test.step('the link confirms: the bank dialog; a failed check reads the one message and offers another card', async () => {
    await page.goto(`/draw-entry/${token}`);
    await expect(bank).toBeVisible({ timeout: 20_000 });
    // The dialog fits the phone's width.
    const box = await bank.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await bank.getByRole('button', { name: 'Fail authentication' }).click();
    await expect(bank).toBeHidden();
    await expect(page.getByRole('alert').first()).toHaveText('Your card could not be authorised. Try another card.');
    await expect(page.getByTestId('entry-outcome')).toContainText('Your card could not be authorised.');
  });

  await test.step('another card (3-D Secure again), the check completed: the entry is confirmed', async () => {
    const another = page.getByRole('form', { name: 'Try another card' });
    await another.getByLabel('Card number').fill('4000 0027 6000 3184');
    await another.getByLabel('Expiry (MM/YY)').fill('11/34');
    await another.getByLabel('CVC').fill('123');
    await another.getByRole('button', { name: 'Confirm with this card' }).click();
    await expect(bank).toBeVisible({ timeout: 20_000 });
    await bank.getByRole('button', { name: 'Complete authentication' }).click();
    await expect(page.getByTestId('entry-outcome')).toContainText('Your entry is confirmed.', { timeout: 30_000 });
    expect(await seriousViolations(page)).toEqual([]);
  });
  await shopper.close();
});
