import { test, expect, type Browser, type Locator, type Page, type TestInfo } from '@playwright/test';
import {
  cartDrawer,
  chooseSize,
  keepScreenshot,
  loginOwner,
  markNewsletterSeen,
  shootAtBothWidths,
  teeData,
  type OwnerApi,
} from '../support/e2e';

// Shoppers outside the shop's home country (docs/decisions/023-international-addresses.md), each on a phone
// in a browser set to their own language and clock: the checkout opens on their country, asks for their
// country's fields under its own labels, refuses a postcode of another country where it is typed, and charges
// the international rate "excluding customs and taxes"; the order page writes the address as their post does,
// country name last. Each also enters a draw through the same address form.

interface Shopper {
  who: string;
  locale: string;
  timezoneId: string;
  country: string;
  countryName: string;
  /** The country's fields by their labels, in the order the form shows them. */
  fields: Record<string, string>;
  /** A line of the order page's address as the country's post writes it. */
  postalLine: string;
}

const SHOPPERS: Shopper[] = [
  {
    who: 'paris',
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    country: 'FR',
    countryName: 'France',
    fields: { Address: '5 rue Oberkampf', 'Postal code': '75011', City: 'Paris' },
    postalLine: '75011 Paris',
  },
  {
    who: 'london',
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    country: 'GB',
    countryName: 'United Kingdom',
    // Typed as people type it: the shop writes it as Royal Mail does.
    fields: { Address: '1 Old Street', 'Town/City': 'London', Postcode: 'ec1y8sy' },
    postalLine: 'EC1Y 8SY',
  },
  {
    who: 'tokyo',
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    country: 'JP',
    countryName: 'Japan',
    fields: { Address: '1-2-3 Jingumae, Shibuya-ku', Prefecture: 'Tokyo', 'Postal code': '1500001' },
    postalLine: '150-0001',
  },
];

const CUSTOMS = 'excluding customs and taxes';

let owner: OwnerApi;
let teeId = '';
let drawProductId = '';
let drawId = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ baseURL }) => {
  owner = await loginOwner(baseURL);
  const stamp = Date.now().toString(36);
  // The three shoppers pay with the one test card, which the shop counts as one buyer: a limit above three.
  teeId = await owner.createProduct(
    teeData(owner, `Abroad Tee ${stamp}`, { price: '38.00', stock: 10, editionSize: 10, maxPerShopper: 10 }),
  );
  const made = await owner.request.post('/api/admin/products', {
    data: teeData(owner, `Abroad Draw Tee ${stamp}`, { description: 'One numbered tee, sold by draw.', stock: 1, editionSize: 1 }),
  });
  expect(made.status(), await made.text()).toBe(201);
  drawProductId = ((await made.json()) as { id: string }).id;
  const closesAt = new Date(Date.now() + 20 * 60_000);
  const created = await owner.request.post('/api/admin/draws', {
    data: {
      productId: drawProductId,
      opensAt: new Date(Date.now() - 60_000).toISOString(),
      closesAt: closesAt.toISOString(),
      drawAt: new Date(closesAt.getTime() + 30 * 60_000).toISOString(),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  drawId = ((await created.json()) as { id: string }).id;
});

test.afterAll(async () => {
  if (drawId) await owner.request.post(`/api/admin/draws/${drawId}/cancel`).catch(() => undefined);
  if (drawProductId) await owner.request.delete(`/api/admin/products/${drawProductId}`).catch(() => undefined);
  await owner?.dispose();
});

/** A phone in the shopper's own language and time zone: nothing saved, so the form guesses from these. */
async function phoneOf(browser: Browser, baseURL: string | undefined, s: Shopper): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    locale: s.locale,
    timezoneId: s.timezoneId,
    viewport: { width: 375, height: 812 },
  });
  const page = await context.newPage();
  await markNewsletterSeen(page);
  return page;
}

async function fillFields(scope: Page | Locator, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) await scope.getByLabel(label, { exact: true }).fill(value);
}

async function enterDraw(page: Page, s: Shopper) {
  await page.goto(`/product/${drawProductId}`);
  const panel = page.getByRole('region', { name: 'Enter the draw' });
  await expect(panel).toBeVisible();
  // The browser's country is chosen once the page is live (it may have been rendered on the server).
  await expect(panel.getByLabel('Country')).toHaveValue(s.country);
  await panel.getByLabel('Size', { exact: true }).selectOption('M');
  await panel.getByLabel('Email').fill(`draw-${s.who}-${Date.now()}@example.com`);
  await panel.getByLabel('First Name').fill('Ada');
  await panel.getByLabel('Last Name').fill(s.who);
  await fillFields(panel, s.fields);
  await panel.getByLabel('Card number').fill('4242 4242 4242 4242');
  await panel.getByLabel('Expiry (MM/YY)').fill('12/34');
  await panel.getByLabel('CVC').fill('123');
  // Priced as the server prices it: the international rate, not the domestic one.
  await expect(panel.getByText(/the piece \$45\.00, shipping \$24\.99/)).toBeVisible();
  await panel.getByRole('button', { name: 'Enter the draw' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Check your e-mail to confirm your entry.' })).toBeVisible({
    timeout: 30_000,
  });
}

async function toCheckout(page: Page) {
  await page.goto(`/product/${teeId}`);
  await chooseSize(page, 'M');
  await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
  const drawer = cartDrawer(page);
  await expect(drawer).toBeVisible();
  // Free shipping is the home country's: abroad the drawer promises none, and says what abroad costs.
  await expect(drawer.getByTestId('free-shipping-scope')).toContainText(`International: $24.99, ${CUSTOMS}.`);
  await expect(drawer.getByText(/for free shipping|Free shipping unlocked/)).toHaveCount(0);
  await drawer.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByRole('heading', { name: 'Shipping Information' })).toBeVisible();
}

async function buy(page: Page, s: Shopper, testInfo: TestInfo): Promise<void> {
  await page.getByLabel('Email').fill(`${s.who}-${Date.now()}@example.com`);
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill(s.who);
  await fillFields(page, s.fields);
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page.getByRole('heading', { name: 'Payment', exact: true })).toBeVisible();
  const international = page.getByRole('radio', { name: new RegExp(`International.*${CUSTOMS}.*\\$24\\.99`) });
  await expect(international).toBeChecked();
  await expect(page.getByRole('radio', { name: /Standard|Express/ })).toHaveCount(0);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  // $38.00 + $24.99: the threshold waives nothing abroad.
  await page.getByRole('button', { name: 'Pay $62.99' }).click();
  await expect(page).toHaveURL(/\/order-success$/, { timeout: 30_000 });
  await page.getByRole('link', { name: 'View your order' }).click();
  const address = page.getByTestId('shipping-address');
  await expect(address).toContainText(s.postalLine);
  // The country's name, last.
  await expect(address.locator('span').last()).toHaveText(s.countryName);
  await expect(page.getByTestId('order-total')).toHaveText('$62.99');
  await expect(page.getByTestId('customs-note')).toHaveText(`International, ${CUSTOMS}`);
  await expect(page.getByText('$24.99', { exact: true }).first()).toBeVisible();
  await keepScreenshot(page, testInfo, `order-page-${s.who}-375`, { fullPage: true });
}

test('Paris at 375 px: France chosen from the browser, a UK postcode refused, the order and a draw entry', async ({
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const paris = SHOPPERS[0]!;
  const page = await phoneOf(browser, baseURL, paris);
  await toCheckout(page);
  const country = page.getByLabel('Country');
  await expect(country).toHaveValue('FR');
  // France's fields: no State, a postal code before the city (its own order).
  await expect(page.getByLabel('State')).toHaveCount(0);
  await expect(page.getByLabel('ZIP Code')).toHaveCount(0);
  // The summary is priced for the country on screen before anything is saved: $38.00 + $24.99.
  await expect(page.getByRole('button', { name: 'Show order summary $62.99' })).toBeVisible();

  // Each country's address step, to look at (no assertion beyond the axe check).
  for (const code of ['US', 'FR', 'GB', 'JP']) {
    await country.selectOption(code);
    await shootAtBothWidths(page, testInfo, `checkout-address-${code}`, { fullPage: true });
  }
  await page.setViewportSize({ width: 375, height: 812 });
  await country.selectOption('FR');

  await test.step('a UK postcode typed for France is refused where it was typed; nothing is saved', async () => {
    await fillFields(page, { ...paris.fields, 'Postal code': 'EC1Y 8SY' });
    await page.getByLabel('Email').fill('paris-wrong@example.com');
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Paris');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    const zip = page.getByLabel('Postal code', { exact: true });
    await expect(zip).toHaveAccessibleDescription(/This postal code does not look like a French postal code/);
    await expect(zip).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('heading', { name: 'Payment', exact: true })).toHaveCount(0);
    expect(await (await page.request.get('/api/customer-info')).json()).toBeNull();
  });

  await buy(page, paris, testInfo);
  await enterDraw(page, paris);
  await page.context().close();
});

for (const s of SHOPPERS.slice(1)) {
  test(`${s.who} at 375 px: ${s.countryName} from the browser, its fields, the international rate, a draw entry`, async ({
    browser,
    baseURL,
  }, testInfo) => {
    test.setTimeout(90_000);
    const page = await phoneOf(browser, baseURL, s);
    await toCheckout(page);
    await expect(page.getByLabel('Country')).toHaveValue(s.country);
    await buy(page, s, testInfo);
    await enterDraw(page, s);
    await page.context().close();
  });
}
