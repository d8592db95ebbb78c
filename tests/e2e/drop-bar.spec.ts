import { test, expect, type Locator, type Page } from '@playwright/test';
import { loginOwner, markNewsletterSeen, waitForHydration, type OwnerApi } from '../support/e2e';

// The phone drop bar (the waiting room's bar fixed to the bottom of a drop's product page): a thin
// name-and-price row, the state in a line, one full-width action; at 320 px the action's label is whole
// (not clipped) and the bar stays at most 140 px tall, so most of the screen is the product. What else the
// room offers sits in the page, not in the bar.

let owner: OwnerApi;

test.beforeAll(async ({ baseURL }) => {
  owner = await loginOwner(baseURL);
});

test.afterAll(async () => {
  await owner.dispose();
});

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
  await page.setViewportSize({ width: 320, height: 640 });
});

/** A drop released a minute ago (its room is open), with a long name the bar must cut, not wrap. */
async function releasedDrop(label: string, stock: number) {
  const name = `${label} Afterhours Coach Jacket ${Date.now().toString(36)}`;
  const id = await owner.createProduct({
    name,
    description: 'A heavyweight coach jacket. Numbered inside.',
    price: '240.00',
    category: 'accessories',
    materials: 'Organic cotton twill',
    sustainabilityInfo: 'Made to order.',
    stock,
    editionSize: 50,
    images: [owner.image],
    sizes: ['One Size'],
    colors: [{ name: 'Black', value: '#111111' }],
    releaseAt: new Date(Date.now() - 60_000).toISOString(),
  });
  return { id, name };
}

const room = (page: Page) => page.getByRole('region', { name: 'Waiting room' });
const bar = (page: Page) => page.locator('[data-room-bar]');

/** The bar's height, whether it sits on the bottom edge, and whether `action`'s label fits its box. */
async function measure(page: Page, action: Locator) {
  const box = await bar(page).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { height: r.height, bottom: r.bottom, viewport: window.innerHeight };
  });
  const fits = await action.evaluate((el) => el.scrollWidth <= el.clientWidth);
  return { ...box, fits };
}

test('sold out at 320 px: the bar says so in a line and offers the whole "Notify me if one comes back"', async ({
  page,
}) => {
  const drop = await releasedDrop('Gone', 0);
  await page.goto(`/product/${drop.id}`);
  await expect(room(page).getByText('Sold out', { exact: true })).toBeVisible();
  const notify = bar(page).getByRole('button', { name: 'Notify me if one comes back' });
  await expect(notify).toBeVisible();
  await expect(notify).toHaveText('Notify me if one comes back');
  const m = await measure(page, notify);
  expect(m.fits, 'the label is clipped').toBe(true);
  expect(m.height).toBeLessThanOrEqual(140);
  expect(Math.round(m.bottom)).toBe(m.viewport);
  // The rest is in the page: the reason and the next drop, not in the bar.
  const why = room(page).getByText('Every piece has gone. We can tell you if one comes back.');
  await expect(why).toBeAttached();
  await expect(bar(page).getByText('Every piece has gone.')).toHaveCount(0);
});

test('at 320 px the bar before joining and on the shopper’s turn: one whole action, at most 140 px', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const drop = await releasedDrop('Live', 5);
  await page.goto(`/product/${drop.id}`);
  const join = bar(page).getByRole('button', { name: 'Join the waiting room' });
  await expect(join).toBeVisible();
  let m = await measure(page, join);
  expect(m.fits, 'the Join label is clipped').toBe(true);
  expect(m.height).toBeLessThanOrEqual(140);
  await expect(room(page).getByText('How the line works')).toBeVisible();
  await expect(bar(page).getByText('How the line works')).toHaveCount(0);

  await waitForHydration(page);
  await join.click();
  await expect(room(page).getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(bar(page).getByRole('timer')).toHaveText(/^Your turn ends in \d\d:\d\d$/);
  const add = bar(page).getByRole('button', { name: /^Add to Cart - \$240\.00$/ });
  await expect(add).toBeVisible();
  m = await measure(page, add);
  expect(m.fits, 'the Add to Cart label is clipped').toBe(true);
  expect(m.height).toBeLessThanOrEqual(140);
  expect(Math.round(m.bottom)).toBe(m.viewport);
});
