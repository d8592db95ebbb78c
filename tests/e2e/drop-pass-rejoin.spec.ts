import { test, expect, type Locator, type Page } from '@playwright/test';
import { cartDrawer, loginOwner, markNewsletterSeen, shootAtBothWidths, teeData, type OwnerApi } from '../support/e2e';
import { startPrivateShop, type PrivateShop } from '../support/private-shop';

// No dead end once a pass lapses (ADR 010, "No dead end after a lapse"): the product page offers
// "Rejoin the line" whatever it holds (a reload, a refused pass), the checkout says the lapse once with
// the one link back to the room, never a Try again that cannot work, and the pass timer stays in view
// while the shopper types. The server's clock is this spec's own shop's, moved past a pass's end
// (moveClock) instead of waiting it out; the page's clock is Playwright's, set to the shop's.

const PASS_MS = 10 * 60_000;
let shop: PrivateShop;
let owner: OwnerApi;

const dropTee = (name: string) =>
  teeData(owner, name, {
    description: 'A drop-day tee. Numbered inside.',
    price: '40.00',
    materials: 'Organic cotton',
    stock: 20,
    editionSize: 20,
    // Released a second ago on the shop's clock (an earlier test may have moved it), so its room is live.
    releaseAt: new Date(Date.now() + shop.clockShiftMs - 1000).toISOString(),
  });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  shop = await startPrivateShop({ DROP_PASS_MINUTES: String(PASS_MS / 60_000) });
  owner = await loginOwner(shop.base);
});

test.afterAll(async () => {
  await owner?.dispose();
  await shop?.stop();
});

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

/** The product page on the shop's clock, size M picked, joined and let in. */
async function admitted(page: Page, id: string): Promise<void> {
  await page.clock.install({ time: Date.now() + shop.clockShiftMs });
  await page.goto(`${shop.base}/product/${id}`);
  await page.getByLabel('Size').selectOption('M');
  await page.getByRole('button', { name: 'Join the waiting room' }).click();
  // Let in within a second when idle; a loaded box running its own shop is slower.
  await expect(page.getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 60_000 });
}

/** The pass runs out on the server (its clock moved past the pass's end) and in the page alike. */
async function lapse(page: Page): Promise<void> {
  shop.moveClock(PASS_MS + 5_000);
  await page.clock.setSystemTime(Date.now() + shop.clockShiftMs);
}

/**
 * 'in view' when the element's box lies inside the viewport and nothing covers its top (the site header rides
 * above the page), else where it is, for the failure message.
 */
async function inView(el: Locator): Promise<string> {
  return el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(8, r.height / 2));
    const covered = top === null || !node.contains(top);
    if (r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && !covered) return 'in view';
    return `top ${Math.round(r.top)}, bottom ${Math.round(r.bottom)} of ${window.innerHeight}, ${covered ? `covered by <${top?.tagName.toLowerCase()} class="${String(top?.className)}">` : 'uncovered'}, position ${getComputedStyle(node.closest('[data-testid="drop-pass"]') ?? node).position}`;
  });
}

test('a lapsed pass, the product page reloaded: "Rejoin the line" is there and gives a new turn', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const id = await owner.createProduct(dropTee(`Reload Tee ${Date.now().toString(36)}`));
  const room = page.getByRole('region', { name: 'Waiting room' });
  await admitted(page, id);

  await test.step('the pass lapses; the page is reloaded: one plain message and the Rejoin button, no stored error', async () => {
    await lapse(page);
    await page.reload();
    const rejoin = room.getByRole('button', { name: 'Rejoin the line' });
    await expect(rejoin).toBeVisible();
    await expect(room.getByRole('timer')).toHaveText('Your turn has ended');
    await expect(room.getByText('Your pass has run out, so the piece went back to others in line.', { exact: true })).toBeVisible();
    // The pass the page may no longer take is not asked for, nor its refusal shown in place of the way on.
    await expect(room.getByRole('alert')).toHaveCount(0);
    await expect(page.getByText(/Your turn to buy .* has passed/)).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Add to Cart/ })).toHaveCount(0);
    await shootAtBothWidths(page, testInfo, 'reloaded-after-lapse');
    // Still so once the page has settled (a pass asked for and refused would have replaced it by now).
    await expect(rejoin).toBeVisible();
    await expect(room.getByRole('alert')).toHaveCount(0);
  });

  await test.step('Rejoin the line → a new turn, with its own pass (Add to Cart works)', async () => {
    const rejoined = page.waitForResponse((r) => r.url().endsWith(`/api/drops/${id}/rejoin`));
    await room.getByRole('button', { name: 'Rejoin the line' }).click();
    expect((await rejoined).status()).toBe(201);
    await expect(page.getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(room.getByRole('timer')).toHaveText(/^Your turn ends in \d\d:\d\d$/);
  });

  await test.step('that turn lapses too, on the open page: Rejoin again → a third turn that is live', async () => {
    // The same ticket comes back each time: the page must take a new pass for each turn, not keep the old one.
    await lapse(page);
    const rejoin = room.getByRole('button', { name: 'Rejoin the line' });
    await expect(rejoin).toBeVisible();
    const rejoined = page.waitForResponse((r) => r.url().endsWith(`/api/drops/${id}/rejoin`));
    await rejoin.click();
    expect((await rejoined).status()).toBe(201);
    await expect(page.getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(room.getByRole('timer')).toHaveText(/^Your turn ends in \d\d:\d\d$/);
    await page.getByLabel('Size').selectOption('M');
    const added = page.waitForResponse((r) => r.url().endsWith('/api/cart') && r.request().method() === 'POST');
    await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
    expect((await added).status()).toBe(200);
    await expect(cartDrawer(page)).toBeVisible();
  });
});

test('the pass lapses at checkout: one message with the link back, no Try again; the link lands on Rejoin', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const id = await owner.createProduct(dropTee(`Checkout Lapse Tee ${Date.now().toString(36)}`));
  await admitted(page, id);
  await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
  await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  const values: Record<string, string> = {
    Email: 'ada@example.com',
    'First Name': 'Ada',
    'Last Name': 'Lovelace',
    Address: '12 Difference Engine Row',
    City: 'Brooklyn',
    State: 'NY',
    'ZIP Code': '11201',
  };
  const rejoinLinks = page.getByRole('link', { name: 'Rejoin the line' });

  await test.step('typing the address when the pass lapses: the notice in view says so, with the one link', async () => {
    await page.setViewportSize({ width: 375, height: 667 });
    for (const label of ['Email', 'First Name', 'Last Name']) await page.getByLabel(label).fill(values[label]!);
    await page.getByLabel('Address').focus();
    await lapse(page);
    const pass = page.getByTestId('drop-pass');
    await expect(pass.getByRole('timer')).toHaveText('Your turn has ended');
    await expect(page.getByTestId('drop-pass-live')).toHaveText(/^Your turn has ended for /);
    expect(await inView(pass.getByRole('timer'))).toBe('in view');
    await expect(rejoinLinks).toHaveCount(1);
  });

  await test.step('on to payment: the refusal is said once, in place, with no toast and no Try again', async () => {
    for (const label of ['Address', 'City', 'State', 'ZIP Code']) await page.getByLabel(label).fill(values[label]!);
    const intent = page.waitForResponse((r) => r.url().endsWith('/api/create-payment-intent'));
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    expect((await intent).status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
    // Said once on screen (the notice; its live region spoke it when it lapsed), not again beside the card.
    await expect(page.getByText('Your turn has ended').and(page.locator(':not(.sr-only)'))).toHaveCount(1);
    await expect(page.getByTestId('drop-refusal')).toHaveCount(0);
    await expect(rejoinLinks).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Reserve again' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
    await expect(page.getByText('The card form opens again on your next turn.')).toBeVisible();
    // No red toast beside it (its title 'Error', the server's reason as its text).
    await expect(page.getByText('Error', { exact: true })).toHaveCount(0);
    await expect(page.getByText(/^Join the waiting room to buy /)).toHaveCount(0);
    await shootAtBothWidths(page, testInfo, 'checkout-payment-after-lapse');
  });

  await test.step("following the link: the product page, its Rejoin button visible and focused", async () => {
    await page.setViewportSize({ width: 375, height: 667 });
    await rejoinLinks.click();
    await expect(page).toHaveURL(new RegExp(`/product/${id}#waiting-room$`));
    const rejoin = page.getByRole('region', { name: 'Waiting room' }).getByRole('button', { name: 'Rejoin the line' });
    await expect(rejoin).toBeVisible();
    await expect(rejoin).toBeFocused();
    await expect.poll(() => inView(rejoin)).toBe('in view');
    // The same at 1280 px, where the room sits below the product's details: back to the checkout, the link again.
    await page.goBack();
    await page.setViewportSize({ width: 1280, height: 800 });
    await rejoinLinks.click();
    await expect(rejoin).toBeFocused();
    await expect.poll(() => inView(rejoin)).toBe('in view');
    await shootAtBothWidths(page, testInfo, 'product-page-from-checkout-link');
    const rejoined = page.waitForResponse((r) => r.url().endsWith(`/api/drops/${id}/rejoin`));
    await rejoin.click();
    expect((await rejoined).status()).toBe(201);
    await expect(page.getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 60_000 });
  });
});

test('the pass timer stays in view while the shopper fills the checkout, on both steps, at 375 and 1280 px', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const id = await owner.createProduct(dropTee(`Sticky Timer Tee ${Date.now().toString(36)}`));
  await admitted(page, id);
  await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
  await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  const pass = page.getByTestId('drop-pass');
  const timer = pass.getByRole('timer');

  await test.step('information step, scrolled down to the address fields: the timer is in view', async () => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 667 : 800 });
      await page.getByLabel('ZIP Code').scrollIntoViewIfNeeded();
      await page.getByLabel('Address').fill('12 Difference Engine Row');
      await expect(timer).toHaveText(/^Your turn ends in \d\d:\d\d$/);
      expect(await page.evaluate(() => window.scrollY), `scrolled at ${width}px`).toBeGreaterThan(0);
      expect(await inView(timer), `timer at ${width}px`).toBe('in view');
    }
  });

  await test.step('tabbing back up the form at 375 px: each field it lands on shows below the timer, not under it', async () => {
    await page.setViewportSize({ width: 375, height: 667 });
    await page.getByRole('button', { name: 'Continue to Payment' }).focus();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    // Country comes first in the address (the country decides the fields after it).
    for (const label of ['ZIP Code', 'State', 'City', 'Address', 'Country', 'Phone (optional)', 'Last Name']) {
      await page.keyboard.press('Shift+Tab');
      const field = page.getByLabel(label, { exact: true });
      await expect(field).toBeFocused();
      // The page scrolls smoothly: wait for it to settle.
      await expect.poll(() => inView(field), { message: label }).toBe('in view');
    }
  });

  await test.step('60 s before the end: the warning is shown in view and spoken', async () => {
    await page.setViewportSize({ width: 375, height: 667 });
    await page.getByLabel('ZIP Code').scrollIntoViewIfNeeded();
    await page.clock.fastForward(PASS_MS - 59_000);
    const warning = 'Less than a minute left on your turn — check out now.';
    await expect(page.getByTestId('drop-pass-warning')).toHaveText(warning);
    await expect(page.getByTestId('drop-pass-live')).toHaveText(warning);
    expect(await inView(page.getByTestId('drop-pass-warning'))).toBe('in view');
    await shootAtBothWidths(page, testInfo, 'checkout-info-warning-scrolled');
  });

  await test.step('payment step, scrolled down to the card: the hold that covers the pieces is in view', async () => {
    await page.setViewportSize({ width: 375, height: 667 });
    const values: Record<string, string> = {
      Email: 'ada@example.com',
      'First Name': 'Ada',
      'Last Name': 'Lovelace',
      City: 'Brooklyn',
      State: 'NY',
      'ZIP Code': '11201',
    };
    for (const [label, value] of Object.entries(values)) await page.getByLabel(label).fill(value);
    const intent = page.waitForResponse((r) => r.url().endsWith('/api/create-payment-intent'));
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    expect((await intent).status()).toBe(200);
    await expect(pass).toHaveText(/^Your pieces are held until \d{1,2}:\d\d [AP]M$/);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 667 : 800 });
      await page.getByLabel('CVC').scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY), `scrolled at ${width}px`).toBeGreaterThan(0);
      expect(await inView(pass), `the hold at ${width}px`).toBe('in view');
    }
    await shootAtBothWidths(page, testInfo, 'checkout-payment-held-scrolled');
  });
});

test("the shop's clock ahead of the page's: the server's refusal is the one message, and the product page believes it", async ({ page }) => {
  test.setTimeout(150_000);
  const id = await owner.createProduct(dropTee(`Skew Tee ${Date.now().toString(36)}`));
  await admitted(page, id);
  await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
  await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  // The pass lapses on the server only: the page's clock still counts the turn down.
  shop.moveClock(PASS_MS + 5_000);
  const rejoinLinks = page.getByRole('link', { name: 'Rejoin the line' });

  await test.step('payment refused (403): said in place with the link, no Try again, no toast', async () => {
    const values: Record<string, string> = {
      Email: 'ada@example.com',
      'First Name': 'Ada',
      'Last Name': 'Lovelace',
      Address: '12 Difference Engine Row',
      City: 'Brooklyn',
      State: 'NY',
      'ZIP Code': '11201',
    };
    for (const [label, value] of Object.entries(values)) await page.getByLabel(label).fill(value);
    const intent = page.waitForResponse((r) => r.url().endsWith('/api/create-payment-intent'));
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    expect((await intent).status()).toBe(403);
    const refusal = page.getByTestId('drop-refusal');
    await expect(refusal).toContainText(/Join the waiting room to buy /);
    await expect(refusal.getByRole('link', { name: 'Rejoin the line' })).toBeVisible();
    await expect(rejoinLinks).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expect(page.getByText('Error', { exact: true })).toHaveCount(0);
  });

  await test.step('the product page: the pass it asks for is refused, so the turn is over: Rejoin, focused', async () => {
    const refused = page.waitForResponse((r) => r.url().endsWith(`/api/drops/${id}/pass`));
    await rejoinLinks.click();
    expect((await refused).status()).toBe(403);
    const room = page.getByRole('region', { name: 'Waiting room' });
    const rejoin = room.getByRole('button', { name: 'Rejoin the line' });
    await expect(rejoin).toBeFocused();
    await expect(room.getByRole('timer')).toHaveText('Your turn has ended');
    await expect(room.getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Add to Cart/ })).toHaveCount(0);
  });
});
