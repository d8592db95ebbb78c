import { test, expect } from '@playwright/test';
import {
  E2E_ADMIN_PASSWORD,
  buyOneWithTestCard,
  describeViolationWithTargets,
  keepScreenshot,
  loginOwner,
  markNewsletterSeen,
  seriousViolations,
  teeData,
} from '../support/e2e';

// Returns by the refund policy (docs/product.md "Returns"), on a phone: a delivered order's buyer asks to
// return a piece from the order page, the owner approves it and, once it is in, accepts it from the admin order
// card; the order page then shows the return accepted and the store credit granted.

test('the buyer asks for a return, the owner approves and accepts it, the credit shows on the order page at 375 px', async ({
  page,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const owner = await loginOwner(baseURL);
  const name = `Send Back Tee ${Date.now().toString(36)}`;
  try {
    const id = await owner.createProduct(teeData(owner, name, { stock: 5, editionSize: 5 }));
    await markNewsletterSeen(page);
    await page.setViewportSize({ width: 375, height: 812 });

    const { orderNumber, orderPath } = await buyOneWithTestCard(page, `/product/${id}`, {
      email: 'send-back@example.com',
      address: '7 Return Lane',
      city: 'Boston',
      state: 'MA',
      zip: '02108',
    });

    // The owner marks it delivered (the status dropdown's value, through its API).
    expect(
      (await page.request.post('/api/admin/login', { data: { password: E2E_ADMIN_PASSWORD } })).ok(),
    ).toBe(true);
    const orders = (await (await page.request.get(`/api/admin/orders?q=${orderNumber}`)).json()) as Array<{
      id: string;
      orderNumber: string;
    }>;
    const orderId = orders.find((o) => o.orderNumber === orderNumber)!.id;
    expect(
      (await page.request.put(`/api/admin/orders/${orderId}/status`, { data: { status: 'delivered' } })).ok(),
    ).toBe(true);

    // The buyer asks from the order page.
    await page.goto(orderPath);
    const returns = page.getByRole('region', { name: 'Returns' });
    await expect(returns).toContainText(/You can request a return until/);
    await returns.getByLabel(`Quantity of ${name} to return`).selectOption('1');
    await returns.getByLabel('Reason').fill('Too big');
    await keepScreenshot(page, testInfo, 'return-request-375', { fullPage: true });
    expect(
      await seriousViolations(page, { describe: describeViolationWithTargets }),
      'return form at 375px',
    ).toEqual([]);
    await returns.getByRole('button', { name: 'Request return' }).click();
    await expect(returns.getByTestId('order-return')).toContainText('Requested: waiting for the shop');

    // The owner approves, then accepts it once received, from the order card.
    await page.goto('/admin');
    await page.getByRole('tab', { name: /^Orders \(\d+\)$/ }).click();
    await page.getByRole('searchbox').fill(orderNumber);
    // The search's own orders, not the previous list dimmed while they load (its contrast is not the page's).
    await expect(page.getByRole('list', { name: 'Orders' })).toHaveAttribute('aria-busy', 'false');
    const card = page.getByRole('article', { name: orderNumber });
    const section = card.getByRole('region', { name: 'Returns' });
    await section.getByRole('button', { name: `Approve return for order ${orderNumber}` }).click();
    await expect(section.getByTestId('admin-return')).toContainText('Approved');
    await expect(page.getByRole('list', { name: 'Orders' })).toHaveAttribute('aria-busy', 'false');
    await keepScreenshot(page, testInfo, 'admin-returns-375');
    expect(
      await seriousViolations(page, {
        include: `[aria-label="Returns"]`,
        describe: describeViolationWithTargets,
      }),
      'admin returns at 375px',
    ).toEqual([]);
    await section.getByRole('button', { name: `Received: accept for order ${orderNumber}` }).click();
    await expect(section.getByTestId('admin-return')).toContainText(/Accepted — \$\d+\.\d{2} store credit/);

    // The order page shows the credit.
    await page.goto(orderPath);
    const done = page.getByRole('region', { name: 'Returns' }).getByTestId('order-return');
    await expect(done).toContainText('Status: Accepted');
    await expect(done).toContainText(/Store credit granted: \$\d+\.\d{2}/);
    await keepScreenshot(page, testInfo, 'return-accepted-375', { fullPage: true });
  } finally {
    await owner.dispose();
  }
});
