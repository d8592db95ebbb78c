import { test, expect, type APIRequestContext } from '@playwright/test';
import {
  cartDrawer,
  describeViolationWithTargets,
  loginOwner,
  markNewsletterSeen,
  seriousViolations,
  type OwnerApi,
} from '../support/e2e';

// A product card's size picker (docs/product.md): on a piece cut in sizes (ADR 015), a size that sold out is
// shown greyed and disabled, named 'M — sold out', from the catalogue JSON's per-size stock; the sizes left
// still add in one tap.

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

/** Another shopper's cart of one M, paid with the offline test card (its own cookies). */
async function buyM(request: APIRequestContext, productId: string): Promise<void> {
  const ok = async (res: Awaited<ReturnType<APIRequestContext['post']>>) => {
    expect(res.ok(), `${res.url()} → ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as Record<string, string>;
  };
  await ok(await request.post('/api/cart', { data: { productId, quantity: 1, selectedSize: 'M', selectedColor: 'Black' } }));
  await ok(
    await request.post('/api/customer-info', {
      data: {
        email: `card-sizes-${Date.now()}@example.com`,
        firstName: 'Other',
        lastName: 'Shopper',
        phone: null,
        shippingAddress: '9 Card Street',
        shippingCity: 'Springfield',
        shippingState: 'IL',
        shippingZip: '62701',
        shippingCountry: 'US',
      },
    }),
  );
  const intent = await ok(await request.post('/api/create-payment-intent', { data: {} }));
  await ok(
    await request.post('/api/payments/offline/confirm', {
      data: { clientSecret: intent.clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' },
    }),
  );
  await ok(await request.post('/api/payment-success', { data: { paymentIntentId: intent.paymentIntentId } }));
}

test('a product card greys a sold-out size in its picker, named as sold out; another size still adds', async ({ page, browser, baseURL }) => {
  const name = `Card Size Tee ${Date.now().toString(36)}`;
  const run = [
    { size: 'S', pieces: 1 },
    { size: 'M', pieces: 1 },
    { size: 'L', pieces: 2 },
  ];
  const id = await owner.createProduct({
    name,
    description: 'A numbered tee, cut in sizes. Made to order.',
    price: '45.00',
    category: 'tshirts',
    materials: 'Organic cotton jersey',
    sustainabilityInfo: 'Made to order.',
    stock: 4,
    editionSize: 4,
    maxPerShopper: 5,
    images: [owner.image],
    sizes: run.map((e) => e.size),
    sizeRun: run,
    colors: [{ name: 'Black', value: '#111111' }],
  });
  const other = await browser.newContext({ baseURL });
  try {
    await buyM(other.request, id);
  } finally {
    await other.close();
  }

  await page.goto(`/search?q=${encodeURIComponent(name)}`);
  const card = page.getByRole('article', { name });
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: /Add to Cart/ }).click();
  const picker = card.getByRole('group', { name: `Choose a size for ${name}` });
  await expect(picker).toBeVisible();
  await expect(picker.getByRole('button', { name: 'M — sold out', exact: true })).toBeDisabled();
  await expect(picker.getByRole('button', { name: 'S', exact: true })).toBeEnabled();
  await expect(picker.getByRole('button', { name: 'L', exact: true })).toBeEnabled();
  expect(await seriousViolations(page, { describe: describeViolationWithTargets })).toEqual([]);

  await picker.getByRole('button', { name: 'L', exact: true }).click();
  // The cart was empty: its drawer opens with the line.
  await expect(cartDrawer(page)).toContainText(name);
  await expect(cartDrawer(page)).toContainText('Size: L');
});
