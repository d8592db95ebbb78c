import { test, expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import {
  E2E_ADMIN_PASSWORD,
  loginOwner,
  markNewsletterSeen,
  shootAtBothWidths,
  type OwnerApi,
} from '../support/e2e';
import { solvePow } from '../support/pow';
import { startPrivateShop, type PrivateShop } from '../support/private-shop';

// The draw (docs/draw.md): the owner sets up a draw for a piece; a shopper enters on a phone with the offline
// test card (authorised, not charged) and confirms by the mailed link; a second shopper enters over the API;
// the owner runs the draw from the Draws tab; the winner's entry page shows the order, the other's mail and
// page say the card was never charged; the public page lets anyone check the ranking. It runs on a shop of
// its own, whose clock it moves past the entry window's close instead of waiting for it; mail is read from
// that shop's outbox.

let shop: PrivateShop;

/** The entry token of the confirmation mail sent to `email`. */
async function entryToken(email: string): Promise<string> {
  let token = '';
  await expect
    .poll(
      () => {
        const mail = shop.mailsWith(email, 'Confirm your entry')[0];
        token = mail?.match(/\/draw-entry\/([A-Za-z0-9_-]{43})/)?.[1] ?? '';
        return token;
      },
      { timeout: 15_000, message: `the confirmation mail to ${email}` },
    )
    .not.toBe('');
  return token;
}

const address = (n: number) => ({
  firstName: n === 1 ? 'Ada' : 'Grace',
  lastName: n === 1 ? 'Lovelace' : 'Hopper',
  shippingAddress: `${n}${n} Draw Street`,
  shippingCity: 'Portland',
  shippingState: 'OR',
  shippingZip: `9720${n}`,
  shippingCountry: 'US',
});

async function enterByApi(request: APIRequestContext, drawId: string, email: string) {
  const challenge = await request.get('/api/pow-challenge');
  const altcha = await solvePow(await challenge.json());
  // Another card (and another expiry) than the first shopper's: the same card would be the same person.
  const res = await request.post(`/api/draws/${drawId}/entries`, {
    data: {
      email,
      ...address(2),
      size: 'M',
      secondSize: 'L',
      card: { cardNumber: '5555555555554444', expiry: '11/33', cvc: '321' },
      altcha,
    },
  });
  expect(res.status(), await res.text()).toBe(202);
}

async function entryStatus(request: APIRequestContext, token: string): Promise<string> {
  const res = await request.get(`/api/draw-entries/${token}`);
  return ((await res.json()) as { status: string }).status;
}

async function atPhoneWidth(page: Page) {
  await page.setViewportSize({ width: 375, height: 812 });
}

test.describe.configure({ mode: 'serial' });

let owner: OwnerApi;
/** An anonymous client of the spec's shop (the second entrant, and status reads). */
let request: APIRequestContext;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  shop = await startPrivateShop();
  owner = await loginOwner(shop.base);
  request = await playwrightRequest.newContext({ baseURL: shop.base });
});

test.afterAll(async () => {
  await request?.dispose();
  await owner?.dispose();
  await shop?.stop();
});

test('a draw from entry to result: enter at 375 px, confirm by mail, the owner runs it, winner and loser see their outcome', async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const baseURL = shop.base;
  const stamp = Date.now();
  const name = `Draw Tee ${stamp}`;
  const shopperEmail = `draw-ada-${stamp}@example.com`;
  const otherEmail = `draw-grace-${stamp}@example.com`;

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

  // The window is open from now for 75 s: long enough to enter twice and confirm on a loaded box. The shop's
  // clock is then moved past its close (no waiting).
  const closesAt = new Date(Date.now() + 75_000);
  const created = await owner.request.post('/api/admin/draws', {
    data: {
      productId,
      opensAt: new Date(Date.now() - 60_000).toISOString(),
      closesAt: closesAt.toISOString(),
      // Well after the close: the shop's own job would otherwise draw it at once; here the owner runs it.
      drawAt: new Date(closesAt.getTime() + 30 * 60_000).toISOString(),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const drawId = ((await created.json()) as { id: string }).id;

  const shopper = await browser.newContext({ baseURL });
  const page = await shopper.newPage();
  await markNewsletterSeen(page);
  await atPhoneWidth(page);

  await test.step('the product page offers the draw instead of Add to Cart, with the card authorised, not charged', async () => {
    await page.goto(`/product/${productId}`);
    const panel = page.getByRole('region', { name: 'Enter the draw' });
    await expect(panel).toBeVisible();
    await expect(page.getByRole('button', { name: /Add to Cart/ })).toHaveCount(0);
    await panel.getByLabel('Size', { exact: true }).selectOption('M');
    await panel.getByLabel('Second choice (optional)').selectOption('L');
    await panel.getByLabel('Email').fill(shopperEmail);
    const a = address(1);
    await panel.getByLabel('First Name').fill(a.firstName);
    await panel.getByLabel('Last Name').fill(a.lastName);
    await panel.getByLabel('Address', { exact: true }).fill(a.shippingAddress);
    await panel.getByLabel('City').fill(a.shippingCity);
    await panel.getByLabel('State').fill(a.shippingState);
    await panel.getByLabel('ZIP Code').fill(a.shippingZip);
    await panel.getByLabel('Card number').fill('4242 4242 4242 4242');
    await panel.getByLabel('Expiry (MM/YY)').fill('12/34');
    await panel.getByLabel('CVC').fill('123');
    await expect(
      panel.getByText('Your card is authorised for $53.99 (the piece $45.00, shipping $8.99) when you confirm your entry by e-mail, not charged.'),
    ).toBeVisible();
    await shootAtBothWidths(page, testInfo, 'draw-product-open', { fullPage: true });
    await atPhoneWidth(page);
    // A drawn piece is a limited edition: the server's P.O. box refusal is told on the address field.
    const street = panel.getByLabel('Address', { exact: true });
    await street.fill('PO Box 12');
    await panel.getByRole('button', { name: 'Enter the draw' }).click();
    await expect(street).toHaveAccessibleDescription(/We can't ship limited editions to a P\.O\. Box\. Please use a street address\./, { timeout: 20_000 });
    await expect(street).toBeFocused();
    await street.fill(a.shippingAddress);
    // Fixed: the refusal goes at once, before the next send.
    await expect(street).not.toHaveAccessibleDescription(/P\.O\. Box/);
    await panel.getByRole('button', { name: 'Enter the draw' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Check your e-mail to confirm your entry.' }),
    ).toBeVisible({ timeout: 20_000 });
    // Focus goes to the confirmation (not left on <body> with the page on its footer).
    await expect(page.getByTestId('draw-entered')).toBeFocused();
  });

  const shopperToken = await entryToken(shopperEmail);
  await enterByApi(request, drawId, otherEmail);
  const otherToken = await entryToken(otherEmail);
  expect((await request.post(`/api/draw-entries/${otherToken}/confirm`, { data: {} })).ok()).toBe(true);

  await test.step('the mailed link confirms the entry and lets the shopper change it until the window closes', async () => {
    await page.goto(`/draw-entry/${shopperToken}`);
    await expect(page.getByTestId('entry-outcome')).toContainText('Your entry is confirmed.');
    await expect(page.getByTestId('entry-outcome')).toContainText(
      '$53.99 is authorised on your card, not charged.',
    );
    const change = page.getByRole('form', { name: 'Change your sizes' });
    await change.getByLabel('Second choice (optional)').selectOption('S');
    await change.getByRole('button', { name: 'Save sizes' }).click();
    await expect(page.getByText('Your sizes are saved.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Withdraw my entry' })).toBeVisible();
    await shootAtBothWidths(page, testInfo, 'draw-entry-confirmed', { fullPage: true });
    await atPhoneWidth(page);
    expect(await entryStatus(request, shopperToken)).toBe('confirmed');
  });

  await test.step('the owner runs the draw from the Draws tab once the window has closed', async () => {
    const left = closesAt.getTime() - Date.now();
    expect(left, 'the entries took longer than the window').toBeGreaterThan(0);
    shop.moveClock(left + 1_500);
    const ownerContext = await browser.newContext({ baseURL });
    const admin = await ownerContext.newPage();
    // The owner's browser keeps the shop's time, which now runs past the close.
    await admin.clock.install({ time: Date.now() + shop.clockShiftMs });
    await atPhoneWidth(admin);
    expect(
      (await admin.request.post('/api/admin/login', { data: { password: E2E_ADMIN_PASSWORD } })).ok(),
    ).toBe(true);
    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Draws' }).click();
    const card = admin.getByRole('article', { name });
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: 'Run now' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Run the draw' }).click();
    await expect(card.getByText('Settled')).toBeVisible({ timeout: 30_000 });
    await expect(card.getByRole('definition').filter({ hasText: /^2$/ }).first()).toBeVisible();
    // The owner sees who entered and how each entry ended, ranked first.
    await card.getByRole('button', { name: 'Show entries (2)' }).click();
    const list = card.getByRole('list', { name: `Entries for ${name}` });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list.getByRole('listitem').nth(0)).toContainText(/^#1 /);
    await expect(list).toContainText('Won');
    await expect(list).toContainText('Not drawn');
    await expect(list).toContainText(shopperEmail);
    await shootAtBothWidths(admin, testInfo, 'draw-admin-settled', { fullPage: true });
    await ownerContext.close();
  });

  const [shopperResult, otherResult] = [
    await entryStatus(request, shopperToken),
    await entryStatus(request, otherToken),
  ];
  expect([shopperResult, otherResult].sort()).toEqual(['lost', 'won']);
  const winner = shopperResult === 'won' ? shopperToken : otherToken;
  const loser = winner === shopperToken ? otherToken : shopperToken;
  const loserEmail = loser === shopperToken ? shopperEmail : otherEmail;

  await test.step("the winner's entry page shows the order", async () => {
    await page.goto(`/draw-entry/${winner}`);
    const outcome = page.getByTestId('entry-outcome');
    await expect(outcome).toContainText('You won.');
    await expect(outcome).toContainText(/Order number: \S+\./);
    await expect(page.getByRole('button', { name: 'Withdraw my entry' })).toHaveCount(0);
    await shootAtBothWidths(page, testInfo, 'draw-entry-won', { fullPage: true });
    await atPhoneWidth(page);
  });

  await test.step("the other entrant's mail and page say the card was never charged", async () => {
    await expect
      .poll(() => shop.mailsWith(loserEmail, 'not this time').length, {
        timeout: 15_000,
        message: 'the result mail',
      })
      .toBe(1);
    expect(shop.mailsWith(loserEmail, 'not this time')[0]).toContain('Your card was never charged');
    await page.goto(`/draw-entry/${loser}`);
    await expect(page.getByTestId('entry-outcome')).toContainText('Your entry was not drawn this time.');
    await expect(page.getByTestId('entry-outcome')).toContainText('Your card was never charged.');
  });

  await test.step('the public page shows the seed, the ranking and the visitor’s rank, and checks it in the browser', async () => {
    const shopperView = (await (await request.get(`/api/draw-entries/${shopperToken}`)).json()) as {
      publicId: string;
      rank: number;
    };
    await page.goto(`/draws/${drawId}?entry=${shopperView.publicId}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    // The page leads with who won; the hex (seed, commitment, every entry) is behind the Verify fold.
    await expect(page.getByRole('list', { name: 'Winners' }).getByRole('listitem')).toHaveCount(1);
    await expect(page.getByText('Seed (revealed at the draw)')).toBeHidden();
    await page.getByTestId('draw-verify').locator('summary').click();
    await expect(page.getByText('Seed (revealed at the draw)')).toBeVisible();
    const table = page.getByRole('table', { name: 'Every entry in the draw, in rank order' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(page.getByTestId('your-rank')).toHaveText(
      new RegExp(`^Your rank: ${shopperView.rank} of 2 `),
    );
    await expect(page.getByRole('link', { name: 'Download the draw (JSON)' })).toHaveAttribute(
      'href',
      `/api/draws/${drawId}`,
    );
    await expect(page.getByText('node scripts/verify-draw.mjs <draw.json>')).toBeVisible();
    await page.getByRole('button', { name: 'Check it in this browser' }).click();
    await expect(
      page.getByText('The seed matches the commitment, and all 2 ranks match the published list.'),
    ).toBeVisible();
    await shootAtBothWidths(page, testInfo, 'draw-public-result', { fullPage: true });
  });

  await shopper.close();
});
