import { test, expect, type Locator, type Page } from '@playwright/test';
import {
  addFromProductPage,
  cartDrawer,
  describeViolationWithTargets,
  markNewsletterSeen,
  seriousViolations,
  toastText,
} from '../support/e2e';

// The buying path of docs/product.md §2: sidebar → checkout (info, payment) → order success, on the offline gateway.

const PRODUCT = 'Fifty Standard Tee'; // $38.00, sizes XS-XXL

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

async function addToOpenCart(page: Page, name: string, size: string) {
  await addFromProductPage(page, name, size);
  await expect(cartDrawer(page)).toBeVisible();
}

async function fillCustomerInfo(page: Page, overrides: Partial<Record<string, string>> = {}) {
  const values: Record<string, string> = {
    Email: 'ada@example.com',
    'First Name': 'Ada',
    'Last Name': 'Lovelace',
    Address: '12 Difference Engine Row',
    City: 'Brooklyn',
    State: 'NY',
    'ZIP Code': '11201',
    ...overrides,
  };
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label).fill(value);
}

async function payWith(page: Page, cardNumber: string) {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
}

const step = (page: Page, name: string): Locator =>
  page.getByRole('navigation', { name: 'Checkout progress' }).getByRole('listitem').filter({ hasText: name });

async function toCheckoutWithTwoItems(page: Page) {
  await addToOpenCart(page, PRODUCT, 'M');
  await cartDrawer(page).getByRole('button', { name: 'Increase quantity' }).click();
  await expect(cartDrawer(page).getByText('2 items', { exact: true })).toBeVisible();
  expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);
  await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
}

test('browse → add → sidebar → checkout → validation → discount → pay → order success with edition numbers', async ({
  page,
}) => {
  await toCheckoutWithTwoItems(page);

  await expect(step(page, 'Shipping Info')).toHaveAttribute('aria-current', 'step');
  await expect(page.getByRole('button', { name: 'Skip to Payment' })).toHaveCount(0);

  // Empty submit: the exact messages of docs/product.md §5 under their fields.
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  for (const message of [
    'Please enter a valid email address',
    'First name is required',
    'Last name is required',
    'Shipping address is required',
    'City is required',
    'State is required',
    'ZIP code is required',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Please enter a valid email address');
  await expect(page.getByLabel('Country')).toHaveValue('US');
  expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);

  await fillCustomerInfo(page);
  await expect(page.getByText('First name is required')).toHaveCount(0);
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(toastText(page, 'Information Saved')).toBeVisible();
  await expect(step(page, 'Payment')).toHaveAttribute('aria-current', 'step');

  // The stock hold's live countdown.
  await expect(page.getByText(/^Your items are reserved for (10:00|9:\d\d)$/)).toBeVisible();

  // Shipping methods for a US address; totals from the server.
  await expect(page.getByRole('radio', { name: /Standard/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /Express/ })).toBeVisible();
  await expect(page.getByRole('radio', { name: /International/ })).toHaveCount(0);
  const summary = page.getByRole('region', { name: 'Order Summary' });
  await expect(summary.getByText('$76.00').first()).toBeVisible();

  // Discount box: empty, then FALL15 typed in lower case and applied with Enter.
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Please enter a discount code')).toBeVisible();
  const code = page.getByLabel('Discount code');
  await code.fill('fall15');
  await expect(code).toHaveValue('FALL15');
  await code.press('Enter');
  await expect(toastText(page, 'Discount Applied!')).toBeVisible();
  await expect(toastText(page, '15% off')).toBeVisible();
  await expect(summary.getByText('Discount (FALL15)')).toBeVisible();
  await expect(summary.getByText('-$11.40')).toBeVisible();

  // Express costs more; the Pay button follows the server's total.
  const totalCell = summary.locator('dt', { hasText: /^Total$/ }).locator('xpath=following-sibling::dd');
  const payButton = page.getByRole('button', { name: /^Pay \$/ });
  await expect(payButton).toBeEnabled();
  await page.getByRole('radio', { name: /Express/ }).check();
  await expect(page.getByRole('radio', { name: /Express/ })).toBeChecked();
  await expect(payButton).toBeEnabled();
  await expect.poll(async () => `Pay ${await totalCell.textContent()}`).toBe(await payButton.textContent());
  expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);

  await payWith(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/order-success$/);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  const orderNumber = page.getByTestId('order-number');
  await expect(orderNumber).toHaveText(/^FIFTY-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  const editions = page.getByRole('list', { name: 'Edition numbers' }).getByRole('listitem');
  // Edition numbers (docs/product.md §9): one label for the line's two pieces, in the same words as the e-mail and admin.
  await expect(editions).toHaveCount(1);
  await expect(editions.first()).toHaveText(/^Nos\. \d+, \d+ of 50$/);
  await expect(page.getByRole('heading', { name: "What's Next?" })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue Shopping' })).toHaveAttribute('href', '/');
  await expect(page.getByRole('link', { name: 'View T-Shirts' })).toHaveAttribute(
    'href',
    '/categories/tshirts',
  );
  expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);

  // The cart is empty afterwards.
  await page.getByRole('button', { name: /^Shopping cart/ }).click();
  await expect(cartDrawer(page).getByText('Your cart is empty')).toBeVisible();
});

test('a declined card keeps cart, form and discount; a retry with 4242 succeeds', async ({ page }) => {
  await addToOpenCart(page, PRODUCT, 'L');
  await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();
  // Another shopper than the first test's (address and card), so its 2 tees do not count against
  // this one's per-shopper limit (docs/product.md §9).
  await fillCustomerInfo(page, {
    Email: 'grace@example.com',
    'First Name': 'Grace',
    'Last Name': 'Hopper',
    Address: '1 Navy Yard',
  });
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(step(page, 'Payment')).toHaveAttribute('aria-current', 'step');

  await page.getByLabel('Discount code').fill('FALL15');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(toastText(page, 'Discount Applied!')).toBeVisible();

  await payWith(page, '4000 0000 0000 0002');
  await expect(toastText(page, 'Payment Failed')).toBeVisible();
  await expect(toastText(page, 'Your card was declined.')).toBeVisible();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByLabel('Card number')).toHaveValue('4000 0000 0000 0002');
  await expect(page.getByText('Discount (FALL15)')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay \$/ })).toBeEnabled();

  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiry (MM/YY)').fill('11/35');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/order-success$/);
  await expect(page.getByTestId('order-number')).toHaveText(/^FIFTY-/);
  await expect(page.getByText(/^No\. \d+ of 50$/)).toHaveCount(1);
});

test('saved info: returning to checkout starts on payment; Back to Info, then Skip to Payment', async ({
  page,
}) => {
  await addToOpenCart(page, PRODUCT, 'S');
  await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();
  // A shopper of their own (see the declined-card test): the payment step holds the tee.
  await fillCustomerInfo(page, {
    Email: 'alan@example.com',
    'First Name': 'Alan',
    'Last Name': 'Turing',
    Address: '2 Bletchley Park',
  });
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(step(page, 'Payment')).toHaveAttribute('aria-current', 'step');

  await page.goto('/');
  await page.goto('/checkout');
  await expect(step(page, 'Payment')).toHaveAttribute('aria-current', 'step');
  await expect(page.getByLabel('Card number')).toBeVisible();

  await page.getByRole('button', { name: 'Back to Info' }).click();
  await expect(step(page, 'Shipping Info')).toHaveAttribute('aria-current', 'step');
  await expect(page.getByLabel('Email')).toHaveValue('alan@example.com');
  await page.getByRole('button', { name: 'Skip to Payment' }).click();
  await expect(step(page, 'Payment')).toHaveAttribute('aria-current', 'step');
  await expect(page.getByRole('heading', { name: 'Payment', exact: true })).toBeFocused();
});

test('invalid and removed discount codes; international addresses ship international', async ({ page }) => {
  await addToOpenCart(page, PRODUCT, 'XL');
  await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();
  await fillCustomerInfo(page, {
    Email: 'mo@example.com',
    City: 'Toronto',
    State: 'ON',
    'ZIP Code': 'M5V 2T6',
  });
  await page.getByLabel('Country').selectOption('CA');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(step(page, 'Payment')).toHaveAttribute('aria-current', 'step');

  await expect(page.getByRole('radio', { name: /International/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /Standard|Express/ })).toHaveCount(0);

  await page.getByLabel('Discount code').fill('NOPE99');
  await page.getByLabel('Discount code').press('Enter');
  await expect(toastText(page, 'Invalid Code')).toBeVisible();

  await page.getByLabel('Discount code').fill('FALL15');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(toastText(page, 'Discount Applied!')).toBeVisible();
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(toastText(page, 'Discount Removed')).toBeVisible();
  await expect(page.getByText('Discount (FALL15)')).toHaveCount(0);
  // Abroad the free-shipping threshold waives nothing (ADR 023): the rate is shown without customs and
  // taxes, and no "more for free shipping" is promised.
  await expect(page.getByRole('radio', { name: /International.*excluding customs and taxes/ })).toBeChecked();
  await expect(page.getByTestId('customs-note').first()).toHaveText('International, excluding customs and taxes');
  await expect(page.getByText(/more for free shipping/)).toHaveCount(0);
});
