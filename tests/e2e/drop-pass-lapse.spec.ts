import { test, expect } from '@playwright/test';
import { cartDrawer, loginOwner, markNewsletterSeen, shootAtBothWidths, teeData, type OwnerApi } from '../support/e2e';
import { startPrivateShop, type PrivateShop } from '../support/private-shop';

// No dead ends after admission (ADR 010): admitted with no size, Add to Cart opens the size picker; the
// pass warns at 60 s (shown and spoken), lapses plainly, and "Rejoin the line" puts the shopper back in
// line. The page's clock is Playwright's; the server's is this spec's own shop's, whose pass lasts 63 s
// (DROP_PASS_MINUTES 1.05) and whose clock the spec moves past the pass's end instead of waiting for it.

const PASS_MS = 63_000;
let shop: PrivateShop;
let owner: OwnerApi;
/** A 50-piece drop tee released at `releaseAt` (ms), so its waiting room is live when the test opens it. */
const dropTee = (name: string, releaseAt: number) =>
  teeData(owner, name, {
    description: 'A drop-day tee. Numbered inside.',
    price: '40.00',
    materials: 'Organic cotton',
    editionSize: 50,
    releaseAt: new Date(releaseAt).toISOString(),
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

test('admitted with no size → the picker; 60 s warning → lapse → Rejoin the line → back in line', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const releaseAt = Date.now() - 1000;
  const name = `Lapse Tee ${releaseAt.toString(36)}`;
  const id = await owner.createProduct(dropTee(name, releaseAt));

  let admittedBy = 0;
  await page.clock.install({ time: Date.now() + shop.clockShiftMs }); // the shop's time (an earlier test may have moved it)
  await page.goto(`${shop.base}/product/${id}`);
  const live = page.getByTestId('waiting-room-live');

  await test.step('join; once admitted focus is on the turn, not on <body>', async () => {
    await page.getByRole('button', { name: 'Join the waiting room' }).click();
    await expect(page.getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 60_000 }); // let in within a second when idle; a loaded CI box running its own shop is slower
    admittedBy = Date.now();
    await expect(live).toHaveText(/^It's your turn\. Your pass ends at \d{1,2}:\d\d [AP]M\.$/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
  });

  await test.step('Add to Cart with no size opens the size picker with a hint', async () => {
    const add = page.getByRole('button', { name: /^Add to Cart/ });
    await expect(add).toHaveAttribute('aria-disabled', 'true');
    // aria-disabled (Playwright won't click it unforced) but still answers a tap: it leads to the size picker.
    await add.click({ force: true });
    await expect(page.getByLabel('Size')).toBeFocused();
    await expect(page.getByRole('alert').filter({ hasText: 'Choose a size to add this piece to your cart.' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.getByLabel('Size').selectOption('M');
    await expect(add).not.toHaveAttribute('aria-disabled', 'true');
  });

  await test.step('60 s before the pass ends: a visible warning, said in the live region', async () => {
    await page.clock.fastForward(PASS_MS - 59_000);
    const warning = 'Less than a minute left on your turn — add it to your cart now.';
    await expect(page.getByTestId('pass-warning')).toHaveText(warning);
    await expect(live).toHaveText(warning);
    await shootAtBothWidths(page, testInfo, 'pass-warning');
  });

  await test.step('the pass lapses: said plainly, no "your turn", a Rejoin button', async () => {
    await page.clock.fastForward(60_000);
    await expect(page.getByRole('timer')).toHaveText('Your turn has ended');
    await expect(page.getByText("It's your turn", { exact: true })).toHaveCount(0);
    await expect(live).toHaveText(/^Your turn has ended\. Your pass has run out/);
    await expect(page.getByRole('button', { name: /^Add to Cart/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Rejoin the line' })).toBeVisible();
    await shootAtBothWidths(page, testInfo, 'pass-lapsed');
  });

  await test.step('Rejoin the line: back in line (admissions paused, so the place holds still)', async () => {
    // The server's pass lapses too: its clock moves past the pass's end, and the page's goes along.
    shop.moveClock(admittedBy + PASS_MS + 2000 - Date.now());
    await page.clock.setSystemTime(Date.now() + shop.clockShiftMs);
    const pause = await owner.request.patch(`${shop.base}/api/admin/drops/${id}`, { data: { paused: true } });
    expect(pause.status(), await pause.text()).toBe(200);
    const rejoined = page.waitForResponse((r) => r.url().endsWith(`/api/drops/${id}/rejoin`));
    await page.getByRole('button', { name: 'Rejoin the line' }).click();
    expect((await rejoined).status()).toBe(201);
    await expect(page.getByText(/^You're (number 1 )?in line$/)).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toMatch(/in line/);
    // The size chosen before is kept for the next turn.
    await expect(page.getByLabel('Size')).toHaveValue('M');
    await shootAtBothWidths(page, testInfo, 'rejoined');
  });
});

test('the pass timer follows the shopper into the cart drawer and checkout; the hold covers them at payment', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const releaseAt = Date.now() - 1000;
  const id = await owner.createProduct(dropTee(`Timer Tee ${releaseAt.toString(36)}`, releaseAt));
  await page.clock.install({ time: Date.now() + shop.clockShiftMs }); // the shop's time (an earlier test may have moved it)
  await page.goto(`${shop.base}/product/${id}`);
  const drawer = cartDrawer(page);

  await test.step('admitted, added: the drawer shows the time left on the turn', async () => {
    await page.getByLabel('Size').selectOption('M');
    await page.getByRole('button', { name: 'Join the waiting room' }).click();
    await expect(page.getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 60_000 }); // let in within a second when idle; a loaded CI box running its own shop is slower
    // The size picked while waiting is kept once admitted.
    await expect(page.getByLabel('Size')).toHaveValue('M');
    await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
    await expect(drawer).toBeVisible();
    await expect(drawer.getByTestId('drop-pass').getByRole('timer')).toHaveText(/^Your turn ends in 0[01]:\d\d$/);
    await expect(drawer.getByTestId('drop-pass-warning')).toHaveCount(0);
  });

  await test.step('60 s before the end: the drawer warns, shown and spoken', async () => {
    await page.clock.fastForward(PASS_MS - 59_000);
    const warning = 'Less than a minute left on your turn — check out now.';
    await expect(drawer.getByTestId('drop-pass-warning')).toHaveText(warning);
    await expect(drawer.getByTestId('drop-pass-live')).toHaveText(warning);
    await shootAtBothWidths(page, testInfo, 'drawer-pass-warning');
  });

  await test.step('checkout, customer info: the timer and the warning are there too', async () => {
    await drawer.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    const pass = page.getByTestId('drop-pass');
    await expect(pass.getByRole('timer')).toHaveText(/^Your turn ends in 00:\d\d$/);
    await expect(page.getByTestId('drop-pass-warning')).toHaveText('Less than a minute left on your turn — check out now.');
    await shootAtBothWidths(page, testInfo, 'checkout-info-pass');
  });

  await test.step('payment: the pieces are held, the pass warnings stop', async () => {
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
    expect((await intent).status()).toBe(200);
    await expect(page.getByTestId('drop-pass')).toHaveText(/^Your pieces are held until \d{1,2}:\d\d [AP]M$/);
    await expect(page.getByTestId('drop-pass-warning')).toHaveCount(0);
    await expect(page.getByRole('timer').filter({ hasText: 'Your turn ends' })).toHaveCount(0);
    await shootAtBothWidths(page, testInfo, 'checkout-payment-held');
  });
});
