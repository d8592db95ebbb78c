import { test, expect } from '@playwright/test';
import { E2E_ADMIN_PASSWORD, loginOwner, shootAtBothWidths, type OwnerApi } from '../support/e2e';

// Fair over time (docs/draw.md): at 375 px the owner makes a draw with the loyalty rule from the Draws tab,
// by its labels, then switches it to "recent winners sit out" on the draw's card; the public draw page says
// the rule in force in plain words.

test.describe.configure({ mode: 'serial' });

let owner: OwnerApi;

test.beforeAll(async ({ baseURL }) => {
  owner = await loginOwner(baseURL);
});

test.afterAll(async () => {
  await owner?.dispose();
});

/** A time as a datetime-local input takes it (the browser's zone is this machine's). */
const local = (ms: number) => {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};

test('the owner sets the fairness rule at 375 px; the draw page states it', async ({
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const name = `Fair Draw Tee ${Date.now()}`;
  await owner.createProduct({
    name,
    description: 'One tee, sold by draw.',
    price: '40.00',
    category: 'tshirts',
    materials: 'Organic cotton jersey',
    sustainabilityInfo: 'Made to order.',
    stock: 1,
    editionSize: 1,
    maxPerShopper: 1,
    images: [owner.image],
    sizes: [],
    colors: [{ name: 'Black', value: '#111111' }],
  });

  const context = await browser.newContext({ baseURL });
  const admin = await context.newPage();
  await admin.setViewportSize({ width: 375, height: 812 });
  expect(
    (await admin.request.post('/api/admin/login', { data: { password: E2E_ADMIN_PASSWORD } })).ok(),
  ).toBe(true);
  await admin.goto('/admin');
  await admin.getByRole('tab', { name: 'Draws' }).click();

  const form = admin.getByRole('form', { name: 'New draw' });
  await form.getByLabel('Product').selectOption({ label: name });
  const start = Date.now() + 2 * 24 * 3_600_000;
  await form.getByLabel('Entries open').fill(local(start));
  await form.getByLabel('Entries close').fill(local(start + 24 * 3_600_000));
  await form.getByLabel('Draw time').fill(local(start + 25 * 3_600_000));
  const fairness = form.getByRole('group', { name: 'Fair over time' });
  await expect(fairness.getByRole('radio', { name: 'Off' })).toBeChecked();
  await fairness.getByRole('radio', { name: 'Loyalty' }).check();
  await fairness.getByLabel('Earlier draws that count').selectOption({ label: 'The last 2 draws' });
  await expect(fairness).toContainText('Entrants who lost their last 2 draws here count 3 times');
  // Nothing wider than the phone.
  expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await form.getByRole('button', { name: 'Create draw' }).click();
  await expect(form.getByText(`Draw created for ${name}`)).toBeVisible();

  const card = admin.getByRole('article', { name });
  await expect(card).toContainText('Entrants who lost their last 2 draws here count 3 times');
  const listed = (await (await admin.request.get('/api/admin/draws')).json()) as Array<{
    id: string;
    productName: string;
  }>;
  const drawId = listed.find((d) => d.productName === name)!.id;

  // The card edits the rule while the draw is scheduled.
  const edit = card.getByRole('group', { name: 'Fair over time' });
  await edit.getByRole('radio', { name: 'Recent winners sit out' }).check();
  await edit.getByLabel('Earlier draws that count').selectOption({ label: 'The last 3 draws' });
  await card.getByRole('button', { name: 'Save the rule' }).click();
  await expect(card.getByText('Saved: the draw page shows the new rule.')).toBeVisible();
  await shootAtBothWidths(admin, testInfo, 'draw-fairness-admin', { fullPage: true });
  await context.close();

  const visitor = await browser.newContext({ baseURL });
  const page = await visitor.newPage();
  await page.goto(`/draws/${drawId}`);
  const rule = page.getByRole('region', { name: 'Fair over time' });
  await expect(rule).toContainText(
    'Recent winners sit out: anyone who won one of the last 3 draws here is not in this one.',
  );
  await shootAtBothWidths(page, testInfo, 'draw-fairness-public', { fullPage: true });
  await visitor.close();
});
