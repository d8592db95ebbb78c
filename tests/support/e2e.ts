import { expect, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { solvePow } from './pow';

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** Shared Playwright helpers for tests/e2e: storefront setup, common locators and the axe check. */

/** The newsletter popup would cover the page 3 s after load; mark it seen before any script runs. */
export async function markNewsletterSeen(page: Page): Promise<void> {
  await page.addInitScript(() => window.localStorage.setItem('fifty:newsletter-seen', '1'));
}

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
  await page.getByLabel('Size').selectOption(size);
  await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
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
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']);
  if (include) builder.include(include);
  // Let running transitions end first: a half-faded element is not the page's real contrast.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const { violations } = await builder.analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map(describe);
}

/** A newsletter signup through the API, with the bot check solved as the storefront does it. */
export async function subscribeByApi(request: APIRequestContext, email: string) {
  const challenge = await request.get('/api/pow-challenge');
  expect(challenge.ok()).toBe(true);
  return request.post('/api/newsletter', { data: { email, altcha: await solvePow(await challenge.json()) } });
}
