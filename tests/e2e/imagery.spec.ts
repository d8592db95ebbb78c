import { test, expect, type Page } from '@playwright/test';
import { buyOneWithTestCard, cartDrawer, chooseSize, markNewsletterSeen, seriousViolations, waitForHydration } from '../support/e2e';

// The demo catalogue's pictures: a flat-lay per colour that follows the chosen colour from the product
// page to the cart, checkout and success page, and the product page's zoom.

interface SeedProduct {
  id: string;
  name: string;
  images: string[];
  colors: Array<{ name: string }>;
}

async function productNamed(page: Page, name: string): Promise<SeedProduct> {
  const list = (await (await page.request.get('/api/products')).json()) as SeedProduct[];
  const found = list.find((p) => p.name === name);
  if (!found) throw new Error(`no product ${name}`);
  return found;
}

/** The 800 px variant ProductImage puts in `src` for an /uploads image. */
const shown = (file: string) => new RegExp(`/uploads/seed/${file}-800\\.webp$`);

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

test('a piece added in another colour than the first shows that colour in the cart, at checkout and on the success page', async ({
  page,
}) => {
  const tee = await productNamed(page, 'Fifty Standard Tee');
  expect(tee.colors.map((c) => c.name)).toEqual(['White', 'Grey', 'Navy']);
  await page.goto(`/product/${tee.id}`);
  await waitForHydration(page);
  const main = page.getByRole('img', { name: /^Fifty Standard Tee, image \d+ of \d+$/ }).first();
  await expect(main).toHaveAttribute('src', shown('fifty-standard-tee-white'));
  // Choosing the colour shows its flat-lay.
  await page.getByRole('radio', { name: 'Navy' }).check();
  await expect(main).toHaveAttribute('src', shown('fifty-standard-tee-navy'));
  await chooseSize(page, 'M');
  await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();

  const line = cartDrawer(page).getByRole('listitem').filter({ hasText: 'Fifty Standard Tee' });
  await expect(line).toContainText('Color: Navy');
  await expect(line.locator('img')).toHaveAttribute('src', shown('fifty-standard-tee-navy'));
  await cartDrawer(page).getByRole('button', { name: 'Close cart' }).click();

  // Checkout's summary shows the line's colour.
  await page.goto('/checkout');
  const summaryImages = () => page.getByRole('list', { name: 'Items in your order' }).locator('img');
  await expect(summaryImages()).toHaveCount(1);
  await expect(summaryImages()).toHaveAttribute('src', shown('fifty-standard-tee-navy'));

  // The same tee again in its first colour (buyOneWithTestCard adds M in the default colour; the cart
  // not being empty, the drawer stays shut, so the header's cart button, once it counts both pieces,
  // opens the drawer it checks out from), then paid: the success page shows each line in its own colour.
  const buying = buyOneWithTestCard(
    page,
    `/product/${tee.id}`,
    { email: 'colours@example.com', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
    'Fifty Standard Tee',
  );
  await page.getByRole('button', { name: 'Shopping cart, 2 items' }).click();
  await buying;
  await expect(summaryImages()).toHaveCount(2);
  expect((await summaryImages().evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src')))).sort()).toEqual([
    '/uploads/seed/fifty-standard-tee-navy-800.webp',
    '/uploads/seed/fifty-standard-tee-white-800.webp',
  ]);
});

test('the product image opens a zoom: slides by buttons and arrow keys, magnifies, closes with Escape, nothing moves', async ({
  page,
}) => {
  const hoodie = await productNamed(page, 'Block Party Hoodie');
  const count = hoodie.images.length;
  expect(count).toBeGreaterThan(2);
  await page.goto(`/product/${hoodie.id}`);
  await waitForHydration(page);
  const zoom = page.getByRole('button', { name: 'Zoom image' });
  // Where the picture sits in the page (not the viewport: clicking may scroll it into view).
  const layout = () =>
    zoom.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
    });
  const frame = await layout();

  // Keyboard: the button opens the zoom, the arrows change slides, Escape closes.
  await zoom.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Block Party Hoodie' });
  await expect(dialog).toBeVisible();
  const big = dialog.getByRole('img');
  await expect(big).toHaveAccessibleName(`Block Party Hoodie, image 1 of ${count}`);
  await expect(dialog.getByRole('button', { name: 'Go to slide 1' })).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(big).toHaveAccessibleName(`Block Party Hoodie, image 2 of ${count}`);
  // The second picture is the close-up.
  await expect(big).toHaveAttribute('src', shown('block-party-hoodie-detail'));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(big).toHaveAccessibleName(`Block Party Hoodie, image ${count} of ${count}`);
  expect(await seriousViolations(page, { include: '[role="dialog"]' })).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(zoom).toBeFocused();
  // The page shows the slide the zoom was left on.
  await expect(page.getByRole('button', { name: `View image ${count}` })).toHaveAttribute('aria-pressed', 'true');

  // Pointer: the buttons, then a click on the picture magnifies it.
  await zoom.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Go to slide 1' }).click();
  await expect(big).toHaveAccessibleName(`Block Party Hoodie, image 1 of ${count}`);
  await dialog.getByRole('button', { name: 'Next slide' }).click();
  await expect(big).toHaveAccessibleName(`Block Party Hoodie, image 2 of ${count}`);
  await dialog.getByRole('button', { name: 'Previous slide' }).click();
  await expect(big).toHaveAccessibleName(`Block Party Hoodie, image 1 of ${count}`);
  await big.click();
  await expect(dialog.getByRole('button', { name: 'Zoom out' })).toHaveAttribute('aria-pressed', 'true');
  await expect(big).toHaveCSS('transform', /matrix\(2\.5, 0, 0, 2\.5/);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  expect(await layout()).toEqual(frame);
});
