import { test, expect, type Page } from '@playwright/test';
import { seasonLabel, seasonOf } from '../../common/domain/season';
import { describeViolationWithTargets, markNewsletterSeen, seriousViolations, waitForHydration } from '../support/e2e';

// Home screen of docs/product.md §2/§4: hero, carousel, category tiles, product grid and card, testimonials.

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

const carousel = (page: Page) => page.getByRole('region', { name: 'Highlights' });
const slide = (page: Page, n: number) => carousel(page).getByRole('group', { name: `Slide ${n} of 7` });

/**
 * Moves the page's clock (Playwright's, installed before navigation) past `ms` of the carousel's
 * timers instead of sleeping through them, then lets one frame render whatever they changed.
 */
async function pass(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Waits until the carousel rotates again after the pointer left: React handles a mouse leave as a
 * continuous event, rendering it and setting the 5 s timer in tasks of its own, so moving the fake clock
 * straight after the move can run ahead of the timer (the slides' live region turns 'off' while rotating).
 * A message through a MessageChannel (not faked by the clock) queues behind React's scheduler task.
 */
async function rotationResumed(page: Page): Promise<void> {
  await expect(carousel(page).locator('[aria-live]')).toHaveAttribute('aria-live', 'off');
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
  );
}

test('hero: Shop Collection scrolls to the Latest Drops grid; LCP image is eager', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const hero = page.locator('img[fetchpriority="high"]');
  await expect(hero).toHaveCount(1);
  await expect(hero).toHaveAttribute('loading', 'eager');
  await expect(hero).toHaveAttribute('srcset', /-400\.webp 400w, .*-800\.webp 800w, .*\.webp 1600w/);

  await page.getByRole('button', { name: /Shop Collection/ }).click();
  await expect(page.locator('#shop')).toBeInViewport();
  await expect(page.getByRole('heading', { name: 'Latest Drops' })).toBeInViewport();
  expect(await seriousViolations(page)).toEqual([]);
});

test("a new slide's text is at full opacity at once (only its picture fades in)", async ({ page }) => {
  await page.goto('/');
  await carousel(page).getByRole('button', { name: 'Next slide' }).click();
  // Read synchronously after the click's render: no transition may be dimming the text.
  const opacities = await slide(page, 2).evaluate((group) => {
    const chain: string[] = [];
    for (let el: Element | null = group.querySelector('h3'); el && el !== document.body; el = el.parentElement) {
      chain.push(getComputedStyle(el).opacity);
    }
    return chain;
  });
  expect(opacities.every((o) => o === '1')).toBe(true);
});

test('carousel: 7 slides, next/previous wrap both ways, dots, CTA scrolls to #shop', async ({ page }) => {
  await page.goto('/');
  const region = carousel(page);
  await expect(region).toHaveAttribute('aria-roledescription', 'carousel');
  // Focus inside the carousel pauses it, so the assertions below never race the 5 s rotation.
  await region.getByRole('button', { name: 'Go to slide 1' }).click();
  await expect(slide(page, 1)).toBeVisible();
  await expect(slide(page, 1)).toContainText('Free Shipping Over $60');
  await expect(region.getByRole('button', { name: 'Go to slide 1' })).toHaveAttribute('aria-current', 'true');

  await region.getByRole('button', { name: 'Previous slide' }).click();
  await expect(slide(page, 7)).toBeVisible();
  await expect(slide(page, 1)).toBeHidden();
  await expect(region.getByRole('button', { name: 'Go to slide 7' })).toHaveAttribute('aria-current', 'true');

  await region.getByRole('button', { name: 'Next slide' }).click();
  await expect(slide(page, 1)).toBeVisible();
  await region.getByRole('button', { name: 'Next slide' }).click();
  await expect(slide(page, 2)).toBeVisible();

  await region.getByRole('button', { name: 'Go to slide 4' }).click();
  await expect(slide(page, 4)).toBeVisible();
  await expect(slide(page, 4)).toContainText(/Hoodies/i);
  await expect(region.getByRole('button', { name: 'Go to slide 4' })).toHaveAttribute('aria-current', 'true');
  await expect(region.getByRole('button', { name: 'Go to slide 2' })).not.toHaveAttribute(
    'aria-current',
    'true',
  );

  const titles = [
    'Free Shipping',
    seasonLabel(seasonOf(new Date())),
    'Limited Edition',
    'Hoodies',
    'Shop Now',
    'Become a Member',
    'Street Style',
  ];
  for (let n = 1; n <= 7; n++) {
    await region.getByRole('button', { name: `Go to slide ${n}` }).click();
    await expect(slide(page, n)).toContainText(new RegExp(titles[n - 1], 'i'));
  }

  await slide(page, 7).getByRole('button').click();
  await expect(page.locator('#shop')).toBeInViewport();
});

test('a pointer resting on the carousel before hydration still pauses it; hydration keeps the scroll position', async ({ page }) => {
  // Hold the app's scripts back until the pointer rests on the server-rendered carousel.
  let release!: () => void;
  const scriptsHeld = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/(vendor|boot)-.*\.js$/, async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.clock.install();
  await page.goto('/', { waitUntil: 'commit' });
  await carousel(page).hover();
  await expect(page.locator('#root')).toHaveAttribute('disabled');
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(0);
  release();
  await waitForHydration(page);
  // Hydration keeps the shopper where they scrolled to.
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  await pass(page, 6_000);
  await expect(slide(page, 1)).toBeVisible();
  // It was the pointer that held it: once the pointer leaves, the next 5 s move it on.
  await page.mouse.move(0, 0);
  await rotationResumed(page);
  await pass(page, 5_000);
  await expect(slide(page, 2)).toBeVisible();
});

test('carousel auto-advances every 5 s and pauses on hover', async ({ page }) => {
  await page.clock.install();
  await page.goto('/');
  await waitForHydration(page);
  await page.mouse.move(0, 0);
  await expect(slide(page, 1)).toBeVisible();
  await pass(page, 3_500);
  await expect(slide(page, 1)).toBeVisible();
  await pass(page, 1_500);
  await expect(slide(page, 2)).toBeVisible();

  await carousel(page).hover();
  await pass(page, 6_000);
  await expect(slide(page, 2)).toBeVisible();

  // The rotation button stops it for keyboard and touch users too.
  await page.mouse.move(0, 0);
  await carousel(page).getByRole('button', { name: 'Stop slide rotation' }).click();
  await page.mouse.move(0, 0);
  await page.locator('body').click({ position: { x: 1, y: 400 } });
  await pass(page, 6_000);
  await expect(slide(page, 2)).toBeVisible();

  // And starts it again.
  await carousel(page).getByRole('button', { name: 'Start slide rotation' }).click();
  await page.mouse.move(0, 0);
  await page.locator('body').click({ position: { x: 1, y: 400 } });
  await pass(page, 5_000);
  await expect(slide(page, 3)).toBeVisible();
});

test.describe('with prefers-reduced-motion', () => {
  test.use({ reducedMotion: 'reduce' });
  test('the carousel does not advance by itself', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    await waitForHydration(page);
    await page.mouse.move(0, 0);
    await pass(page, 6_000);
    await expect(slide(page, 1)).toBeVisible();
    // The preference alone held it: without it the same page rotates.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await pass(page, 5_000);
    await expect(slide(page, 2)).toBeVisible();
  });
});

test('Shop by Category tiles link to their category with their tag', async ({ page }) => {
  await page.goto('/');
  const section = page.getByRole('region', { name: 'Shop by Category' });
  for (const [name, slug, tag] of [
    ['T-Shirts', 'tshirts', 'Limited Edition'],
    ['Hoodies', 'hoodies', 'Premium Quality'],
    ['Accessories', 'accessories', 'Exclusive Items'],
  ]) {
    const tile = section.getByRole('link', { name: new RegExp(name) });
    await expect(tile).toHaveAttribute('href', `/category/${slug}`);
    await expect(tile).toContainText(tag);
  }
  await section.getByRole('link', { name: /Hoodies/ }).click();
  await expect(page).toHaveURL(/\/category\/hoodies$/);
});

test('Latest Drops: filters with aria-pressed, View All Products, card content', async ({ page }) => {
  await page.goto('/');
  const grid = page.locator('#shop');
  await expect(grid.getByRole('heading', { name: 'Latest Drops' })).toBeVisible();
  await expect(grid.getByText(/limited edition collection/i)).toBeVisible();
  const filters = grid.getByRole('group', { name: 'Filter products by category' });
  for (const name of ['All', 'T-Shirts', 'Hoodies', 'Accessories']) {
    await expect(filters.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await expect(filters.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
  const all = await grid.getByRole('article').count();
  expect(all).toBeGreaterThan(8);

  await filters.getByRole('button', { name: 'Hoodies' }).click();
  await expect(filters.getByRole('button', { name: 'Hoodies' })).toHaveAttribute('aria-pressed', 'true');
  await expect(filters.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'false');
  await expect(grid.getByRole('article', { name: 'Block Party Hoodie' })).toBeVisible();
  await expect(grid.getByRole('article', { name: 'Concrete Bloom Tee' })).toHaveCount(0);

  await grid.getByRole('button', { name: 'View All Products' }).click();
  await expect(filters.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
  await expect(grid.getByRole('article')).toHaveCount(all);

  // A sale card: SALE badge, sale price and the struck-through original.
  const sale = grid.getByRole('article', { name: 'Night Shift Tee' });
  await expect(sale.getByText('SALE', { exact: true })).toBeVisible();
  await expect(sale.locator('s')).toContainText('$42.00');
  await expect(sale).toContainText('$34.00');
  await expect(sale.getByRole('link', { name: 'Night Shift Tee' })).toHaveAttribute(
    'href',
    /^\/product\/[0-9a-f-]{36}$/,
  );

  // Up to 3 swatches named by colour, then "+N".
  const bloom = grid.getByRole('article', { name: 'Concrete Bloom Tee' });
  await expect(bloom.getByText('NEW', { exact: true })).toBeVisible();
  await expect(bloom.getByRole('list', { name: 'Colours' }).getByRole('img')).toHaveCount(3);
  await expect(bloom.getByText('+2')).toBeVisible();

  // Sold out.
  const soldOut = grid.getByRole('article', { name: 'Signal Loss Tee' });
  await expect(soldOut.getByRole('button', { name: 'Out of Stock' })).toBeDisabled();
});

test('Add to Cart on a card with sizes opens a size picker; one tap adds one unit and opens the empty cart', async ({
  page,
}) => {
  await page.goto('/');
  const card = page.locator('#shop').getByRole('article', { name: 'Fifty Standard Tee' });
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  const picker = card.getByRole('group', { name: 'Choose a size for Fifty Standard Tee' });
  await expect(picker).toBeVisible();
  await picker.getByRole('button', { name: 'M', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  const drawer = page.getByRole('dialog', { name: 'Shopping Cart' });
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText('Fifty Standard Tee');
  await drawer.getByRole('button', { name: 'Close cart' }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await expect(page.getByRole('button', { name: /^Shopping cart, 1 item/ })).toBeVisible();
});

test('a one-size card in several colours asks for the colour only; a refused add shows the server message in a toast', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/');
  const cap = page.locator('#shop').getByRole('article', { name: 'Corner Store Cap' });
  await cap.getByRole('button', { name: 'Add to Cart' }).click();
  const colours = cap.getByRole('group', { name: 'Choose a colour for Corner Store Cap' });
  for (const name of ['Black', 'Navy', 'Sunset Orange'])
    await expect(colours.getByRole('button', { name, exact: true })).toBeVisible();
  await expect(colours.getByRole('button', { name: 'Close colour picker' })).toBeVisible();
  await colours.getByRole('button', { name: 'Black' }).click();
  await expect(colours).toHaveCount(0);
  const drawer = page.getByRole('dialog', { name: 'Shopping Cart' });
  await expect(drawer).toContainText('Corner Store Cap');
  await drawer.getByRole('button', { name: 'Close cart' }).click();
  await expect(drawer).toBeHidden();

  await page.route('**/api/cart', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 409,
          contentType: 'application/json',
          body: '{"message":"Only 2 left in stock"}',
        })
      : route.continue(),
  );
  const refused = page.waitForResponse((r) => r.request().method() === 'POST' && r.status() === 409);
  await cap.getByRole('button', { name: 'Add to Cart' }).click();
  await colours.getByRole('button', { name: 'Navy' }).click();
  await refused;
  const toast = page.getByRole('status').filter({ hasText: 'Only 2 left in stock' });
  await expect(toast).toBeVisible();
  await expect(page.getByText('Only 2 left in stock')).toHaveCount(1);
  await expect(page).toHaveURL(/\/$/);
  // The toast itself is the status (not a hidden 1-second announcer copy); it closes by itself after 5 s.
  await pass(page, 1_500);
  await expect(toast).toBeVisible();
  await pass(page, 4_000);
  await expect(toast).toBeHidden();
});

test('testimonials: 3 per page over 3 pages, wrapping, dots', async ({ page }) => {
  await page.goto('/');
  const section = page.getByRole('region', { name: 'Worn by the Few' });
  const quotes = section.getByRole('figure');
  await expect(quotes).toHaveCount(3);
  await expect(section).toContainText('Maya R.');
  await expect(section.getByRole('button', { name: 'Go to testimonials page 1' })).toHaveAttribute(
    'aria-current',
    'true',
  );

  await section.getByRole('button', { name: 'Next testimonials' }).click();
  await expect(section).toContainText('Dev P.');
  await expect(section).not.toContainText('Maya R.');
  await section.getByRole('button', { name: 'Next testimonials' }).click();
  await expect(section).toContainText('Lena W.');
  await section.getByRole('button', { name: 'Next testimonials' }).click();
  await expect(section).toContainText('Maya R.');
  await section.getByRole('button', { name: 'Previous testimonials' }).click();
  await expect(section).toContainText('Priya S.');
  await expect(section.getByRole('button', { name: 'Go to testimonials page 3' })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await section.getByRole('button', { name: 'Go to testimonials page 2' }).click();
  await expect(section).toContainText('Amara O.');
  await expect(quotes).toHaveCount(3);
});

test('Built Different links to the mission page', async ({ page }) => {
  await page.goto('/');
  const section = page.getByRole('region', { name: 'Built Different' });
  await expect(section.getByRole('heading', { level: 3 })).toHaveCount(4);
  await section.getByRole('link', { name: 'Discover the Culture' }).click();
  await expect(page).toHaveURL(/\/mission$/);
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });
  test('no horizontal scroll and no serious axe violations', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Latest Drops' })).toBeVisible();
    const [scrollWidth, innerWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      window.innerWidth,
    ]);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);
  });

  test('the newsletter field and button stack full width at their full height', async ({ page }) => {
    await page.goto('/');
    const section = page.getByRole('region', { name: 'Join the Community' });
    const field = await section.getByRole('textbox', { name: 'Email address' }).boundingBox();
    const button = await section.getByRole('button', { name: 'Subscribe' }).boundingBox();
    expect(field!.height).toBeGreaterThanOrEqual(44);
    expect(field!.width).toBeGreaterThan(300);
    expect(button!.y).toBeGreaterThan(field!.y + field!.height);
  });
});
