import { test, expect, type Page } from '@playwright/test';
import {
  describeViolationWithTargets,
  keepScreenshot,
  loginOwner,
  markNewsletterSeen,
  seriousViolations,
  teeData,
  waitForHydration,
  type OwnerApi,
} from '../support/e2e';

// Product cards in grids never offer Add to Cart for a piece sold by draw (docs/draw.md): from the first
// HTML on the home page and the category page, the card of a drawn product leads to its draw ('Enter the
// draw' while entries are open, 'See the draw' before they open), and every other card keeps its Add to
// Cart. Screenshots at 375 and 1280 px, each checked with axe.

test.describe.configure({ mode: 'serial' });

let owner: OwnerApi;
const ids = { open: '', soon: '', plain: '' };
const draws: string[] = [];
const stamp = Date.now();
const names = {
  open: `Open Draw Grid Tee ${stamp}`,
  soon: `Soon Draw Grid Tee ${stamp}`,
  plain: `Plain Grid Tee ${stamp}`,
};

const productData = (name: string) =>
  teeData(owner, name, {
    // Released two days ago (its drop window long over): newest drops come first, so the cards are on the
    // home grid's first page, and nothing but the draw decides what they offer.
    releaseAt: new Date(stamp - 2 * 24 * 3_600_000).toISOString(),
  });

async function makeDraw(productId: string, opensInMs: number): Promise<void> {
  const opensAt = Date.now() + opensInMs;
  const res = await owner.request.post('/api/admin/draws', {
    data: {
      productId,
      opensAt: new Date(opensAt).toISOString(),
      closesAt: new Date(opensAt + 24 * 3_600_000).toISOString(),
      drawAt: new Date(opensAt + 25 * 3_600_000).toISOString(),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  draws.push(((await res.json()) as { id: string }).id);
}

test.beforeAll(async ({ baseURL }) => {
  owner = await loginOwner(baseURL);
  ids.open = await owner.createProduct(productData(names.open));
  ids.soon = await owner.createProduct(productData(names.soon));
  ids.plain = await owner.createProduct(productData(names.plain));
  await makeDraw(ids.open, -60_000);
  await makeDraw(ids.soon, 24 * 3_600_000);
});

test.afterAll(async () => {
  for (const id of draws) await owner?.request.post(`/api/admin/draws/${id}/cancel`);
  await owner?.dispose();
});

/** The grids the test looks at: the home page's Latest Drops and the category page. */
const grids = [
  { url: '/', grid: (page: Page) => page.locator('#shop') },
  { url: '/category/tshirts', grid: (page: Page) => page.getByRole('main') },
];

/** The drawn and plain cards of a grid say what they should: the draw's link, or Add to Cart. */
async function expectCards(page: Page, grid: ReturnType<(typeof grids)[number]['grid']>) {
  const open = grid.getByRole('article', { name: names.open });
  await expect(open.getByRole('link', { name: 'Enter the draw' })).toBeVisible();
  await expect(open.getByRole('link', { name: 'Enter the draw' })).toHaveAttribute('href', `/product/${ids.open}`);
  await expect(open.getByText('Sold by draw')).toBeVisible();
  await expect(open.getByRole('button', { name: 'Add to Cart' })).toHaveCount(0);

  const soon = grid.getByRole('article', { name: names.soon });
  await expect(soon.getByText(/^Draw opens /)).toBeVisible();
  await expect(soon.getByRole('link', { name: 'See the draw' })).toBeVisible();
  await expect(soon.getByRole('button', { name: 'Add to Cart' })).toHaveCount(0);

  const plain = grid.getByRole('article', { name: names.plain });
  await expect(plain.getByRole('button', { name: 'Add to Cart' })).toBeVisible();
  await expect(plain.getByTestId('card-draw')).toHaveCount(0);
}

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the first HTML of the home and category grids leads a drawn piece to its draw', async ({ page }) => {
    for (const { url, grid } of grids) {
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
        const res = await page.goto(url);
        expect(res?.status(), url).toBe(200);
        await expectCards(page, grid(page));
      }
    }
  });
});

test.describe('with JavaScript on', () => {
  for (const { url, grid } of grids) {
    test(`${url}: the drawn card links to the draw, the others add to the cart; axe clean at 375 and 1280 px`, async ({
      page,
    }, testInfo) => {
      // Two widths, each with a screenshot and an axe scan of the whole page: slow on a loaded box.
      test.slow();
      await markNewsletterSeen(page);
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(url);
      // Hydrated: the cards are React's now.
      await waitForHydration(page);
      await expectCards(page, grid(page));
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
        // The drawn cards in view, under the sticky header.
        await grid(page)
          .getByRole('article', { name: names.open })
          .evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
        const name = `draw-grid${url === '/' ? '-home' : '-category'}-${width}`;
        await keepScreenshot(page, testInfo, name);
        expect(await seriousViolations(page, { describe: describeViolationWithTargets }), name).toEqual([]);
        await expectCards(page, grid(page));
      }
      expect(errors).toEqual([]);
    });
  }

  test("the drawn card's link opens the product page on its draw", async ({ page }) => {
    await markNewsletterSeen(page);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/category/tshirts');
    await waitForHydration(page);
    await page.getByRole('article', { name: names.open }).getByRole('link', { name: 'Enter the draw' }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${ids.open}$`));
    await expect(page.getByRole('region', { name: 'Enter the draw' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Add to Cart/ })).toHaveCount(0);
  });

  test('a grid reached in the browser asks which pieces are drawn before offering Add to Cart', async ({ page }) => {
    await markNewsletterSeen(page);
    // The first page carries no list (a product page); the category grid is then rendered in the browser.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/product/${ids.plain}`);
    await waitForHydration(page);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route(/\/api\/products\/draws$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'T-Shirts' }).click();
    await expect(page).toHaveURL(/\/category\/tshirts$/);
    const open = page.getByRole('article', { name: names.open });
    // Unknown yet: no card offers a working Add to Cart.
    await expect(open.getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
    await expect(page.getByRole('article', { name: names.plain }).getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
    release();
    await expectCards(page, page.getByRole('main'));
  });
});
