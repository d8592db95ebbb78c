import { test, expect } from '@playwright/test';
import {
  addFromProductPage,
  cartDrawer,
  describeViolationWithTargets,
  loginOwner,
  markNewsletterSeen,
  seriousViolations,
  teeData,
  type OwnerApi,
} from '../support/e2e';

// Store credit (docs/product.md §2.15): the owner grants credit by hand; on a phone the buyer, typing another
// spelling of the same mailbox, sees the balance offered at checkout and pays all of the order with it — no card
// form, no payment intent.

const TEE = 'Store Credit Tee';
let owner: OwnerApi;

test.beforeAll(async ({ baseURL }) => {
  owner = await loginOwner(baseURL);
  await owner.createProduct(teeData(owner, TEE));
  const granted = await owner.request.post('/api/admin/store-credit', { data: { email: 'credit-buyer@example.com', amount: '500.00', reason: 'Returned a jacket' } });
  expect(granted.status(), await granted.text()).toBe(201);
});

test.afterAll(async () => {
  await owner?.dispose();
});

test('on a phone, store credit pays the whole order: no card form, the order placed', async ({ page }) => {
  await markNewsletterSeen(page);
  await page.setViewportSize({ width: 375, height: 812 });
  await addFromProductPage(page, TEE, 'M');
  await cartDrawer(page).getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  const values: Record<string, string> = {
    Email: 'Credit-Buyer+phone@Example.com',
    'First Name': 'Mary',
    'Last Name': 'Jackson',
    Address: '2 Wind Tunnel Rd',
    City: 'Hampton',
    State: 'VA',
    'ZIP Code': '23666',
  };
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label).fill(value);
  await page.getByRole('button', { name: 'Continue to Payment' }).click();

  const box = page.getByTestId('store-credit');
  await expect(box.getByLabel('Use my store credit ($500.00 available)')).toBeVisible();
  await expect(box).toContainText(/valid until [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await box.getByLabel('Use my store credit ($500.00 available)').check();
  await expect(page.getByRole('button', { name: 'Place order with store credit' })).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);

  await page.getByRole('button', { name: 'Place order with store credit' }).click();
  await expect(page).toHaveURL(/\/order-success$/);
  await expect(page.getByTestId('order-number')).toHaveText(/^FIFTY-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  // The order page says what credit paid.
  await page.getByRole('link', { name: 'View your order' }).click();
  const total = (await page.getByTestId('order-total').textContent())!.trim();
  await expect(page.getByTestId('order-store-credit')).toHaveText(`Paid with store credit${total}`);

  // The balance went down by what the order cost, under the address the owner granted to.
  const list = (await (await owner.request.get('/api/admin/store-credit')).json()) as { accounts: Array<{ email: string; balance: string }> };
  const account = list.accounts.find((a) => a.email.toLowerCase().startsWith('credit-buyer'));
  expect(Number(account!.balance)).toBeLessThan(500);
});
