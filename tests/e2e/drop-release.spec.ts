import { test, expect } from '@playwright/test';
import { cartDrawer, loginOwner, markNewsletterSeen, type OwnerApi } from '../support/e2e';

// Scheduled release (docs/product.md §9): before the release the page and the card count down and offer
// 'Notify me' (the server refuses the cart); at the release second the page becomes buyable without
// a reload. The page's clock is Playwright's fake one; the server's is real, so the product is set
// to drop a few seconds ahead and the test polls until the server's time has passed it. Its waiting
// room (ADR 010) is already open, so the page offers 'Join the waiting room' in place of
// Notify me, and after the release buying goes through it (drop-journey.spec.ts has the whole room).

const LEAD_MS = 8_000;

let owner: OwnerApi;

test.beforeAll(async ({ baseURL }) => {
  owner = await loginOwner(baseURL);
});

test.afterAll(async () => {
  await owner.dispose();
});

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

test('countdown on the home card and the product page, the waiting room, then Add to Cart once admitted after the release', async ({
  page,
  request,
}) => {
  // Whole seconds, as the admin form sets them: the countdown ticks on the second.
  const start = Math.ceil(Date.now() / 1000) * 1000;
  const releaseAt = start + LEAD_MS;
  const name = `Release Cap ${start.toString(36)}`;
  const productId = await owner.createProduct({
    name,
    description: 'A cap that drops on time. Numbered inside.',
    price: '35.00',
    category: 'accessories',
    materials: 'Organic cotton twill',
    sustainabilityInfo: 'Made to order.',
    stock: 5,
    images: [owner.image],
    sizes: ['One Size'],
    colors: [{ name: 'Black', value: '#111111' }],
    releaseAt: new Date(releaseAt).toISOString(),
  });

  // The page's time stands still at `start` until the test moves it. Installed a little earlier: the
  // installed clock runs until paused, and on a loaded box it could pass `start` before the pause.
  await page.clock.install({ time: start - 5_000 });
  await page.clock.pauseAt(start);

  await test.step('the home page lists it under Upcoming drops with a live countdown and Notify me', async () => {
    await page.goto('/');
    const upcoming = page.getByRole('region', { name: 'Upcoming drops' });
    const card = upcoming.getByRole('article', { name });
    await expect(card.getByRole('timer')).toHaveText(/^Drops in 00:00:0[789]$/);
    await expect(card.getByRole('timer')).toHaveAccessibleName(/^Drops in \d seconds$/);
    // The room is already open (it opens DROP_RAFFLE_MINUTES before the release): the card leads to the
    // line, not to Notify me (drop cards say 'Join the line' inside the drop's room window).
    await expect(card.getByRole('link', { name: /^Join the line/ })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Add to Cart' })).toHaveCount(0);
  });

  await test.step('the product page counts down every second; the room is open, Add to Cart absent, the server refuses', async () => {
    await page.goto(`/product/${productId}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const timer = page.getByRole('timer');
    await expect(timer).toHaveText('Drops in 00:00:08');
    await page.clock.runFor(1000);
    await expect(timer).toHaveText('Drops in 00:00:07');
    await expect(page.getByRole('button', { name: 'Join the waiting room' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Add to Cart/ })).toHaveCount(0);
    expect(Date.now()).toBeLessThan(releaseAt);
    const refused = await request.post('/api/cart', { data: { productId, quantity: 1 } });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      new RegExp(`^${name} drops on .+ UTC\\. It can't be bought yet\\.$`),
    );
  });

  await test.step('at the release second the countdown ends without a reload; through the room, adding works', async () => {
    const url = page.url();
    await page.clock.runFor(LEAD_MS - 1001);
    await expect(page.getByRole('timer')).toHaveText('Drops in 00:00:01');
    await page.clock.runFor(1);
    await expect(page.getByRole('timer')).toHaveCount(0);
    expect(page.url()).toBe(url);
    // The server's clock is real: wait until it has passed the release too.
    await expect.poll(() => Date.now(), { timeout: LEAD_MS + 5_000 }).toBeGreaterThanOrEqual(releaseAt);
    // Let the page's time run again (the cart drawer and the request use timers).
    await page.clock.resume();
    // Within the drop window buying goes through the waiting room: join, be let in, then add.
    await page.getByRole('button', { name: 'Join the waiting room' }).click();
    // Let in within a second when idle; a loaded CI box running two workers is slower.
    await expect(page.getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 30_000 });
    const add = page.getByRole('button', { name: /^Add to Cart - \$35\.00$/ });
    await expect(add).toBeEnabled();
    await add.click();
    await expect(cartDrawer(page).getByText(name)).toBeVisible();
    await page.keyboard.press('Escape');

    // The pass lasts DROP_PASS_MINUTES (10): when it runs out, Add to Cart goes away and the page says so.
    await page.clock.fastForward('10:01');
    await expect(page.getByRole('timer')).toHaveText('Your turn has ended');
    // exact: the live region says it too, after 'Your turn has ended.'
    await expect(page.getByText('Your pass has run out, so the piece went back to others in line.', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Add to Cart/ })).toHaveCount(0);
  });
});
