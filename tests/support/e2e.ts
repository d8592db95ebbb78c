import { expect, request as playwrightRequest, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { solvePow } from './pow';

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** Shared Playwright helpers for tests/e2e: storefront setup, common locators and the axe check. */

/** The newsletter popup would cover the page 3 s after load; mark it seen before any script runs. */
export async function markNewsletterSeen(page: Page): Promise<void> {
  await page.addInitScript(() => window.localStorage.setItem('fifty:newsletter-seen', '1'));
}

/**
 * Waits until the server-rendered page has hydrated: the server sends it inside `<fieldset disabled>` (#root), which
 * the app lifts once its handlers are attached (client/boot.tsx). Until then buttons take no focus and no keys.
 */
export const waitForHydration = (page: Page) => expect(page.locator('#root')).not.toHaveAttribute('disabled');

export const cartDrawer = (page: Page) => page.getByRole('dialog', { name: 'Shopping Cart' });

/** Toast text; `.first()` because Radix also announces it in a visually hidden live region. */
export const toastText = (page: Page, text: string | RegExp) => page.getByText(text).first();

/** Opens the product from the T-Shirts category and adds it to the cart in the given size. */
export async function addFromProductPage(page: Page, name: string, size: string): Promise<void> {
  await page.goto('/category/tshirts');
  await page
    .getByRole('link', { name: new RegExp(name) })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await chooseSize(page, size);
  await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
}

/**
 * Picks a size on the product page: a product cut in sizes shows one radio per size ('L', 'L — 2 left'),
 * a product of one pool the 'Size' dropdown (ADR 015).
 */
export async function chooseSize(page: Page, size: string): Promise<void> {
  const radio = page
    .getByRole('group', { name: 'Size' })
    .getByRole('radio', { name: new RegExp(`^${size.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( — \\d+ left)?$`) });
  if ((await radio.count()) > 0) await radio.check();
  else await page.getByLabel('Size').selectOption(size);
}

/** Who buys in buyOneWithTestCard: the checkout's contact and US address fields. */
export interface TestBuyer {
  email: string;
  address: string;
  city: string;
  state: string;
  zip: string;
}

/**
 * Buys one M of a product through the storefront (cart drawer, both checkout steps, the offline test card
 * 4242) and waits for the success page (the product's heading checked first when named): the order number, its page's path (with its key) and what was paid.
 */
export async function buyOneWithTestCard(
  page: Page,
  productUrl: string,
  buyer: TestBuyer,
  productName?: string,
): Promise<{ orderNumber: string; orderPath: string; paid: string }> {
  await page.goto(productUrl);
  if (productName) await expect(page.getByRole('heading', { level: 1, name: productName })).toBeVisible();
  await chooseSize(page, 'M');
  await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
  await page.getByRole('dialog', { name: 'Shopping Cart' }).getByRole('button', { name: 'Checkout' }).click();
  const values: Record<string, string> = {
    Email: buyer.email,
    'First Name': 'Ada',
    'Last Name': 'Lovelace',
    Address: buyer.address,
    City: buyer.city,
    State: buyer.state,
    'ZIP Code': buyer.zip,
  };
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label).fill(value);
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  const pay = page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ });
  const paid = (await pay.textContent())!.replace(/^Pay /, '');
  await pay.click();
  await expect(page).toHaveURL(/\/order-success$/);
  const orderNumber = (await page.getByTestId('order-number').textContent())!.trim();
  const orderPath = (await page.getByRole('link', { name: 'View your order' }).getAttribute('href'))!;
  return { orderNumber, orderPath, paid };
}

export const describeViolation = (v: Violation) => `${v.id}: ${v.help}`;
export const describeViolationWithCount = (v: Violation) => `${v.id}: ${v.help} (${v.nodes.length})`;
export const describeViolationWithTargets = (v: Violation) =>
  `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`;

interface ViolationOptions {
  /** CSS selector to limit the scan to. */
  include?: string;
  /** How each violation reads in a failure message. */
  describe?: (v: Violation) => string;
}

/** Serious and critical WCAG 2.2 AA violations on the page, as readable lines. */
export async function seriousViolations(
  page: Page,
  { include, describe = describeViolation }: ViolationOptions = {},
): Promise<string[]> {
  // Let running transitions end first: a half-faded element is not the page's real contrast. Two frames
  // first, so that a transition set off by the last step (a resize that moves a button from under the
  // pointer, whose hover colours then fade) has started by the time the page is asked for its animations.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const { violations } = await runAxe(page, include);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map(describe);
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe over the page with AXE_TAGS, gathering violations only (`resultTypes`: axe then stops collecting every
 * passing and inapplicable node, a third of a check's CPU on the home page; the violations are the same).
 * A page of one frame (every storefront and admin page: no iframes) is checked
 * by axe.run in the page, axe injected once per document: the same rules on the same DOM as AxeBuilder, which
 * injects axe again on every call and merges its results in a blank page it opens (0.3–2 s more per check on a
 * 2-core box; the e2e suite runs some 150 checks). A page with frames goes through AxeBuilder, which checks
 * inside each of them.
 */
async function runAxe(page: Page, include?: string): Promise<axe.AxeResults> {
  const context = { include: include ? [include] : [], exclude: [] };
  if (page.frames().length > 1) {
    const builder = new AxeBuilder({ page }).withTags(AXE_TAGS).options({ resultTypes: ['violations'] });
    if (include) builder.include(include);
    return builder.analyze();
  }
  type WithAxe = { axe?: typeof axe };
  if (!(await page.evaluate(() => Boolean((window as WithAxe).axe)))) await page.evaluate(axeMinified());
  return page.evaluate(
    ({ context, tags }) => (window as WithAxe).axe!.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    { context, tags: AXE_TAGS },
  );
}

/**
 * axe-core's minified build (580 KB; `axe.source` is the 1.3 MB readable one): the same code, which a fresh
 * document parses in about a third less time. Read once per worker.
 */
let axeSource: string | undefined;
const axeMinified = () => (axeSource ??= fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

/** A newsletter signup through the API, with the bot check solved as the storefront does it. */
export async function subscribeByApi(request: APIRequestContext, email: string) {
  const challenge = await request.get('/api/pow-challenge');
  expect(challenge.ok()).toBe(true);
  return request.post('/api/newsletter', { data: { email, altcha: await solvePow(await challenge.json()) } });
}

/** playwright.config.ts gives the e2e shop this admin password. */
export const E2E_ADMIN_PASSWORD = 'e2e-admin-password';

export interface OwnerApi {
  /** The logged-in owner's request context (the /api/admin routes). */
  request: APIRequestContext;
  /** A seeded product image, for products a test makes. */
  image: string;
  /** Makes a product through the admin API (201 expected); `dispose` deletes it. Returns its id. */
  createProduct(data: Record<string, unknown>): Promise<string>;
  /** Deletes the products made here and closes the context. */
  dispose(): Promise<void>;
}

/**
 * A test's own numbered tee, as the admin API takes it: black, S–L, one seeded image; `over` changes any field
 * (a stock, an edition size, a release time).
 */
export function teeData(owner: Pick<OwnerApi, 'image'>, name: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    description: 'One numbered tee, made for this test.',
    price: '45.00',
    category: 'tshirts',
    materials: 'Organic cotton jersey',
    sustainabilityInfo: 'Made to order.',
    stock: 5,
    editionSize: 5,
    images: [owner.image],
    sizes: ['S', 'M', 'L'],
    colors: [{ name: 'Black', value: '#111111' }],
    ...over,
  };
}

/** The shop owner, logged in over the API, making products for a test and cleaning up after it. */
export async function loginOwner(baseURL: string | undefined): Promise<OwnerApi> {
  const request = await playwrightRequest.newContext({ baseURL });
  expect((await request.post('/api/admin/login', { data: { password: E2E_ADMIN_PASSWORD } })).ok()).toBe(true);
  const products = (await (await request.get('/api/products')).json()) as Array<{ images: string[] }>;
  const image = products.find((p) => p.images.length > 0)!.images[0]!;
  const made: string[] = [];
  return {
    request,
    image,
    async createProduct(data) {
      const res = await request.post('/api/admin/products', { data });
      expect(res.status(), await res.text()).toBe(201);
      const { id } = (await res.json()) as { id: string };
      made.push(id);
      return id;
    },
    async dispose() {
      for (const id of made) expect((await request.delete(`/api/admin/products/${id}`)).ok()).toBe(true);
      await request.dispose();
    },
  };
}

/**
 * A screenshot into the test's output folder (`<name>.png`), for a person to look at: it asserts nothing.
 * `npm test` sets E2E_SCREENSHOTS=off and takes none (a full-page pair is about 2 CPU-s of Chromium, and no
 * one looks at a whole run's); `npx playwright test` takes them.
 */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string, opts: { fullPage?: boolean } = {}) {
  if (process.env.E2E_SCREENSHOTS === 'off') return;
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: opts.fullPage ?? false });
}

/**
 * The page at 375 and 1280 px (ending at 1280), each width with an axe check of the whole page and a
 * screenshot (keepScreenshot): the "look at it at phone and desktop widths" step of a UI test.
 */
export async function shootAtBothWidths(page: Page, testInfo: TestInfo, name: string, opts: { fullPage?: boolean } = {}) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await keepScreenshot(page, testInfo, `${name}-${width}`, opts);
    expect(await seriousViolations(page, { describe: describeViolationWithTargets }), `${name} at ${width}px`).toEqual([]);
  }
}
