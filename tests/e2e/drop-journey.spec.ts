import {
  test,
  expect,
  request as playwrightRequest,
  type APIRequestContext,
  type Page,
  type TestInfo,
} from '@playwright/test';
import { cartDrawer, E2E_ADMIN_PASSWORD, loginOwner, markNewsletterSeen, shootAtBothWidths, waitForHydration, type OwnerApi } from '../support/e2e';
import { solvePow } from '../support/pow';

// Drop day (docs/operations.md, Running a drop): countdown → release → waiting room → admitted → purchase → live stock falls on a
// second browser; and the owner's Drops view (admission rate, pause). The clocks are real here (the
// server's drop is a few seconds ahead); the fake-clock flip is drop-release.spec.ts. Screenshots of every
// waiting-room state at 375 and 1280 px go to the test's output folder, each page checked with axe.

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

function productPayload(name: string, releaseAt: number, stock: number) {
  return {
    name,
    description: 'A drop-day cap. Numbered inside.',
    price: '80.00',
    category: 'accessories',
    materials: 'Organic cotton twill',
    sustainabilityInfo: 'Made to order.',
    stock,
    editionSize: 50,
    images: [owner.image],
    sizes: ['One Size'],
    colors: [{ name: 'Black', value: '#111111' }],
    releaseAt: new Date(releaseAt).toISOString(),
  };
}

/** A product dropping `leadMs` from now (on a whole second), its waiting room already open. */
async function createDrop(label: string, leadMs: number, stock: number) {
  const releaseAt = Math.ceil((Date.now() + leadMs) / 1000) * 1000;
  const name = `${label} ${releaseAt.toString(36)}`;
  const id = await owner.createProduct(productPayload(name, releaseAt, stock));
  return { id, name, releaseAt };
}

async function setDrop(id: string, update: { admitPerMinute?: number; paused?: boolean }) {
  const res = await owner.request.patch(`/api/admin/drops/${id}`, { data: update });
  expect(res.status(), await res.text()).toBe(200);
}

/** A shopper of its own (a fresh cookie jar) joining the room through the API, as the storefront does. */
async function joinByApi(baseURL: string, productId: string): Promise<APIRequestContext> {
  const shopper = await playwrightRequest.newContext({ baseURL });
  // A session first (the storefront has one from its first page).
  await shopper.get('/api/cart');
  const challenge = await shopper.get('/api/pow-challenge');
  const res = await shopper.post(`/api/drops/${productId}/queue`, {
    data: { altcha: await solvePow(await challenge.json()) },
  });
  expect(res.status(), await res.text()).toBe(201);
  return shopper;
}

const shoot = (page: Page, testInfo: TestInfo, name: string) => shootAtBothWidths(page, testInfo, name);

const room = (page: Page) => page.getByRole('region', { name: 'Waiting room' });

test('countdown → release → waiting room → admitted → purchase, while a second browser watches the stock fall', async ({
  page,
  browser,
}, testInfo) => {
  const drop = await createDrop('Drop Day Cap', 9_000, 5);
  await setDrop(drop.id, { admitPerMinute: 6000 });

  await test.step('before the release: the countdown and the Join button; joining puts the shopper in the draw', async () => {
    await page.goto(`/product/${drop.id}`);
    await expect(page.getByRole('heading', { level: 1, name: drop.name })).toBeVisible();
    await expect(page.getByRole('timer').first()).toHaveText(/^Drops in 00:00:0\d$/);
    await expect(page.getByRole('button', { name: /^Add to Cart/ })).toHaveCount(0);
    const join = room(page).getByRole('button', { name: 'Join the waiting room' });
    // Keyboard: focus and Enter (the button takes focus once the page has hydrated).
    await waitForHydration(page);
    await join.focus();
    await expect(join).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(room(page).getByText("You're in the draw.", { exact: true })).toBeVisible();
    await expect(room(page).getByText('Places are drawn at random when the drop opens — joining early gives no edge.', { exact: true })).toBeVisible();
    await expect(room(page).getByRole('status')).toHaveText(/You're in the draw\./);
    expect(Date.now()).toBeLessThan(drop.releaseAt);
    await shoot(page, testInfo, 'waiting-draw');
  });

  const second = await browser.newContext();
  const watcher = await second.newPage();
  await test.step('a second browser sees how many are left', async () => {
    await markNewsletterSeen(watcher);
    await watcher.goto(`/product/${drop.id}`);
    await expect(watcher.getByText('5 of 50 left', { exact: true })).toBeVisible();
  });

  await test.step('at the release the shopper is let in: their turn, a pass timer and Add to Cart', async () => {
    await expect(room(page).getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 20_000 });
    expect(Date.now()).toBeGreaterThanOrEqual(drop.releaseAt);
    await expect(room(page).getByRole('timer')).toHaveText(/^Your turn ends in \d\d:\d\d$/);
    await expect(page.getByRole('button', { name: /^Add to Cart - \$80\.00$/ })).toBeEnabled();
    await shoot(page, testInfo, 'admitted');
  });

  await test.step('add, check out with the offline test card, and reach the order success page', async () => {
    await page.getByRole('button', { name: /^Add to Cart - \$80\.00$/ }).click();
    await expect(cartDrawer(page).getByText(drop.name)).toBeVisible();
    await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    const values: Record<string, string> = {
      Email: 'drop-day@example.com',
      'First Name': 'Ada',
      'Last Name': 'Lovelace',
      Address: '12 Analytical Way',
      City: 'Brooklyn',
      State: 'NY',
      'ZIP Code': '11201',
    };
    for (const [label, value] of Object.entries(values)) await page.getByLabel(label).fill(value);
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
    await expect(page).toHaveURL(/\/order-success$/);
    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  });

  await test.step('the second browser saw the stock fall by one without a reload', async () => {
    const url = watcher.url();
    await expect(watcher.getByText('4 of 50 left', { exact: true })).toBeVisible({ timeout: 15_000 });
    expect(watcher.url()).toBe(url);
  });
  await second.close();
});

test('the owner’s Drops view: the admission rate is saved and shown; pause holds the line, resume lets it move; sold out tells everyone', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  // The owner's page and a shopper's, through release, pause, resume and sell-out: the steps keep their
  // own deadlines; the whole run needs more than the default minute.
  test.setTimeout(150_000);
  const drop = await createDrop('Drop Day Beanie', 6_000, 5);
  const others: APIRequestContext[] = [];

  await test.step('the Drops tab lists the drop; a new admission rate is saved and shown', async () => {
    expect((await page.request.post('/api/admin/login', { data: { password: E2E_ADMIN_PASSWORD } })).ok()).toBe(true);
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Drops' }).click();
    const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: drop.name }) });
    await expect(row.getByText('Room open (draw)')).toBeVisible();
    const rate = row.getByRole('spinbutton', { name: `Admission rate for ${drop.name} (shoppers per minute)` });
    await expect(rate).toHaveValue('300');
    // Refused in place with the server's reason.
    await rate.fill('0');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(row.getByRole('alert')).toHaveText('Admission rate must be at least 1 per minute');
    await rate.fill('1');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(row.getByText('Saved')).toBeVisible();
    await expect(row.getByRole('alert')).toHaveCount(0);
    const listed = (await (await owner.request.get('/api/admin/drops')).json()) as Array<{ productId: string; admitPerMinute: number }>;
    expect(listed.find((d) => d.productId === drop.id)?.admitPerMinute).toBe(1);
    // Still 1 after the 2-second refreshes.
    await page.waitForResponse((r) => r.url().endsWith('/api/admin/drops') && r.request().method() === 'GET');
    await expect(rate).toHaveValue('1');
  });

  // Two shoppers in the draw before the release: at 1 a minute, the one who comes after waits in line.
  others.push(await joinByApi(baseURL!, drop.id), await joinByApi(baseURL!, drop.id));

  const shopperContext = await browser.newContext();
  // This shopper has no event stream (a proxy that drops it): the room falls back to polling every 2 s.
  let streamsRefused = 0;
  await shopperContext.route(/\/api\/drops\/[^/]+\/events$/, (route) => {
    streamsRefused++;
    return route.abort();
  });
  const shopper = await shopperContext.newPage();
  await markNewsletterSeen(shopper);

  await test.step('after the release a late shopper queues behind the draw, with a position and an estimate', async () => {
    await expect.poll(() => Date.now(), { timeout: 10_000 }).toBeGreaterThanOrEqual(drop.releaseAt);
    await shopper.goto(`/product/${drop.id}`);
    await expect(room(shopper).getByRole('button', { name: 'Join the waiting room' })).toBeVisible();
    await shoot(shopper, testInfo, 'join');
    await room(shopper).getByRole('button', { name: 'Join the waiting room' }).click();
    await expect(room(shopper).getByText(/^You're number [1-3] in line$/)).toBeVisible({ timeout: 10_000 });
    await expect(room(shopper).getByText(/^About \d+ min$/)).toBeVisible();
    await expect(room(shopper).getByRole('status')).toHaveText(/^You're number [1-3] in line\. About \d+ min\.$/);
    await shoot(shopper, testInfo, 'waiting-position');
  });

  await test.step('the owner pauses: the shopper is told at once; resume lets the line move again', async () => {
    const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: drop.name }) });
    await expect(row.getByText('Live')).toBeVisible();
    await row.getByRole('button', { name: 'Pause admissions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Pause now' }).click();
    await expect(row.getByRole('button', { name: 'Resume admissions' })).toBeVisible();
    await expect(row.getByText('Paused', { exact: true })).toBeVisible();
    await expect(room(shopper).getByText('Paused by the shop', { exact: true })).toBeVisible({ timeout: 5_000 });
    await shoot(page, testInfo, 'admin-drops');
    await shoot(shopper, testInfo, 'waiting-paused');
    await row.getByRole('button', { name: 'Resume admissions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resume now' }).click();
    await expect(row.getByRole('button', { name: 'Pause admissions' })).toBeVisible();
    await expect(room(shopper).getByText('Paused by the shop', { exact: true })).toHaveCount(0, { timeout: 5_000 });
    await expect(room(shopper).getByText(/^About \d+ min$/)).toBeVisible();
  });

  await test.step('the last pieces go: everyone still waiting is told it sold out, and offered Notify me', async () => {
    const res = await owner.request.put(`/api/admin/products/${drop.id}`, {
      data: productPayload(drop.name, drop.releaseAt, 0),
    });
    expect(res.status(), await res.text()).toBe(200);
    await expect(room(shopper).getByText('Sold out', { exact: true })).toBeVisible({ timeout: 10_000 });
    await expect(room(shopper).getByRole('button', { name: 'Notify me if one comes back' })).toBeVisible();
    // Missing out is not a dead end: the next drop (or every drop) is one tap away.
    await expect(room(shopper).getByRole('link', { name: /See every drop|Next drop/ }).or(room(shopper).getByText(/^Next drop:/))).toBeVisible();
    await expect(room(shopper).getByRole('status')).toHaveText(/^Sold out\./);
    await shoot(shopper, testInfo, 'sold-out');
    expect(streamsRefused).toBeGreaterThan(0);
  });

  await shopperContext.close();
  for (const o of others) await o.dispose();
});

test('a status answer older than the stream never puts a shopper who was let in back in line', async ({ page }) => {
  test.setTimeout(90_000);
  // Released already: joining puts the shopper in line, and the next admission tick lets them in (by the stream).
  const drop = await createDrop('Race Cap', 1_500, 3);
  await page.goto(`/product/${drop.id}`);
  await expect(page.getByRole('heading', { level: 1, name: drop.name })).toBeVisible();
  await expect.poll(() => Date.now(), { timeout: 10_000 }).toBeGreaterThan(drop.releaseAt + 500);
  await page.reload();
  const join = room(page).getByRole('button', { name: 'Join the waiting room' });
  await expect(join).toBeVisible();

  // The status read sent when the shopper joins is answered by the server at once (still in line), but reaches
  // the page only after the stream has said it is their turn: a slow network or a busy phone.
  let joined = false;
  let releaseStale!: () => void;
  const turnShown = new Promise<void>((resolve) => (releaseStale = resolve));
  let staleDelivered!: () => void;
  const delivered = new Promise<void>((resolve) => (staleDelivered = resolve));
  await page.route(`**/api/drops/${drop.id}`, async (route) => {
    if (!joined || route.request().method() !== 'GET') return route.continue();
    const answer = await route.fetch();
    await turnShown;
    await route.fulfill({ response: answer });
    staleDelivered();
  });
  joined = true;
  await join.click();
  await expect(room(page).getByText("It's your turn", { exact: true })).toBeVisible({ timeout: 30_000 });
  releaseStale();
  await delivered;
  // The stale answer changes nothing: still their turn, with Add to Cart.
  await page.waitForTimeout(500);
  await expect(room(page).getByText("It's your turn", { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Add to Cart - \$/ })).toBeVisible();
});
