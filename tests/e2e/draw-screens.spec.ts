import { test, expect, type Page } from '@playwright/test';
import { loginOwner, markNewsletterSeen, type OwnerApi } from '../support/e2e';
import { startPrivateShop, type PrivateShop } from '../support/private-shop';

// The draw's screens at phone width (docs/draw.md): an error on the entry form goes as soon as its field is
// fixed (the others stay); once "Enter the draw" is taken, focus and the view go to the confirmation (not the
// footer, not <body>); the public page leads with how to check the draw and keeps the hex (the commitment, the
// seed, every entry) behind a "Verify" fold a keyboard opens. A shop of its own: its draw lists on no other
// spec's /drops.

let shop: PrivateShop;
let owner: OwnerApi;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  shop = await startPrivateShop();
  owner = await loginOwner(shop.base);
});

test.afterAll(async () => {
  await owner?.dispose();
  await shop?.stop();
});

/** A piece sold by draw, its window open for an hour. */
async function openDraw(name: string): Promise<{ productId: string; drawId: string }> {
  const made = await owner.request.post('/api/admin/products', {
    data: {
      name,
      description: 'One numbered tee, sold by draw.',
      price: '45.00',
      category: 'tshirts',
      materials: 'Organic cotton jersey',
      sustainabilityInfo: 'Made to order.',
      stock: 1,
      editionSize: 1,
      maxPerShopper: 1,
      images: [owner.image],
      sizes: ['S', 'M', 'L'],
      colors: [{ name: 'Black', value: '#111111' }],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const productId = ((await made.json()) as { id: string }).id;
  const now = Date.now();
  const created = await owner.request.post('/api/admin/draws', {
    data: {
      productId,
      opensAt: new Date(now - 60_000).toISOString(),
      closesAt: new Date(now + 3_600_000).toISOString(),
      drawAt: new Date(now + 2 * 3_600_000).toISOString(),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { productId, drawId: ((await created.json()) as { id: string }).id };
}

/** Whether the element's box lies inside the viewport. */
const inView = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });

test('entering a draw at 375 px: errors clear as fields are fixed, then focus lands on the confirmation', async ({
  browser,
}) => {
  const { productId } = await openDraw(`Screens Tee ${Date.now()}`);
  const context = await browser.newContext({ baseURL: shop.base, viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await markNewsletterSeen(page);
  await page.goto(`/product/${productId}`);
  const panel = page.getByRole('region', { name: 'Enter the draw' });
  await expect(panel).toBeVisible();
  const email = panel.getByLabel('Email');
  const firstName = panel.getByLabel('First Name');

  await test.step('an empty entry: each field says what is missing', async () => {
    await panel.getByRole('button', { name: 'Enter the draw' }).click();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(/Please enter a valid email address/);
    await expect(firstName).toHaveAccessibleDescription(/First name is required/);
  });

  await test.step('fixing a field clears its error at once; the fields not yet fixed keep theirs', async () => {
    await email.fill('ada-screens@example.com');
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
    await expect(email).not.toHaveAccessibleDescription(/Please enter a valid email address/);
    await expect(firstName).toHaveAttribute('aria-invalid', 'true');
    // Typing a new mistake into a fixed field shows nothing until the next send.
    await email.fill('ada-screens@');
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
    await email.fill('ada-screens@example.com');
    await panel.getByLabel('Size', { exact: true }).selectOption('M');
    await expect(panel.getByLabel('Size', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
  });

  await test.step('sent: the confirmation takes focus and is in view', async () => {
    await firstName.fill('Ada');
    await expect(firstName).not.toHaveAttribute('aria-invalid', 'true');
    await panel.getByLabel('Last Name').fill('Lovelace');
    await panel.getByLabel('Address', { exact: true }).fill('12 Draw Street');
    await panel.getByLabel('City').fill('Portland');
    const state = panel.getByLabel('State');
    if ((await state.evaluate((el) => el.tagName)) === 'SELECT') await state.selectOption('OR');
    else await state.fill('OR');
    await panel.getByLabel('ZIP Code').fill('97201');
    await panel.getByLabel('Card number').fill('4242 4242 4242 4242');
    await panel.getByLabel('Expiry (MM/YY)').fill('12/34');
    await panel.getByLabel('CVC').fill('123');
    await expect(panel.locator('[aria-invalid="true"]')).toHaveCount(0);
    await panel.getByRole('button', { name: 'Enter the draw' }).click();
    const confirmation = page.getByTestId('draw-entered');
    await expect(confirmation).toContainText('Check your e-mail to confirm your entry.', { timeout: 20_000 });
    await expect(confirmation).toBeFocused();
    await expect.poll(() => inView(page, 'draw-entered')).toBe(true);
  });
  await context.close();
});

test('the public draw page leads with how to check it; the hex is behind a Verify fold the keyboard opens', async ({
  browser,
}) => {
  const { drawId } = await openDraw(`Screens Cap ${Date.now()}`);
  const context = await browser.newContext({ baseURL: shop.base, viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await markNewsletterSeen(page);
  await page.goto(`/draws/${drawId}`);
  await expect(page.getByRole('heading', { level: 2, name: 'How to check this draw' })).toBeVisible();
  await expect(page.getByText('node scripts/verify-draw.mjs <draw.json>')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download the draw (JSON)' })).toHaveAttribute(
    'href',
    `/api/draws/${drawId}`,
  );
  const commitment = page.getByText('Commitment (SHA-256 of the secret seed)');
  await expect(commitment).toBeHidden();
  const fold = page.getByTestId('draw-verify').locator('summary');
  await expect(fold).toHaveText(/^Verify/);
  await fold.focus();
  await page.keyboard.press('Enter');
  await expect(commitment).toBeVisible();
  const published = (
    (await (await page.request.get(`/api/draws/${drawId}`)).json()) as { commitment: string }
  ).commitment;
  await expect(page.getByText(published, { exact: true })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(commitment).toBeHidden();
  await context.close();
});
