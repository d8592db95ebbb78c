import { expect, test } from 'vitest';
import type { Product } from '../../../common/contracts/catalog';
import type { PublicDraw } from '../../../common/contracts/draws';
import { createSeoService, type SeoCatalog, type SeoDraws, type SeoSettings } from './seo.service';

// A product sold by draw is server-rendered with its draw (docs/draw.md): the first paint shows the panel,
// never Add to Cart. Cached pages are keyed by the draw's stamp, so a page turns with its draw.

const ID = '5b1c1d8e-3f0e-4a57-9a51-2f7f2b0f9c11';
const product = {
  id: ID,
  name: 'Drawn Tee',
  description: 'A tee. Drawn.',
  category: 'tees',
  images: [],
  price: '40.00',
  salePrice: null,
  inStock: true,
} as unknown as Product;

const catalog: SeoCatalog = {
  listProducts: async () => [product],
  listCategories: async () => [],
  getProduct: async (id) => (id === ID ? product : null),
  search: async () => [],
  freshSnapshot: () => ({ version: 1, products: [product] }),
  current: async () => ({ version: 1, products: [product] }),
};
const settings = {
  shopName: 'FIFTY',
  publicSettings: {},
  freeShippingThresholdCents: 6000,
  rates: [],
} as unknown as SeoSettings;

const draw = {
  id: '0e1c1d8e-3f0e-4a57-9a51-2f7f2b0f9c11',
  productId: ID,
  status: 'drawn',
  entries: [{ publicId: 'e1', weight: 1, size: 'M', secondSize: null, rank: 1, outcome: 'won' }],
  winners: [{ publicId: 'e1', size: 'M' }],
} as unknown as PublicDraw;

function seoWith(draws: SeoDraws) {
  return createSeoService({ catalog, settings, publicUrl: 'https://shop.test', draws });
}

test('the product page carries its draw, without the published list', async () => {
  const seo = seoWith({ publicDrawOfProduct: async () => draw, productDrawStamp: () => 'stamp' });
  const page = await seo.renderPage(new URL(`https://shop.test/product/${ID}`));
  expect(page.bootstrap.productDraw).toEqual({ productId: ID, draw: { ...draw, entries: [], winners: [] } });
});

test('a product without a draw says so (null): the browser need not ask', async () => {
  const seo = seoWith({ publicDrawOfProduct: async () => null, productDrawStamp: () => '' });
  const page = await seo.renderPage(new URL(`https://shop.test/products/${ID.toUpperCase()}`));
  expect(page.bootstrap.productDraw).toEqual({ productId: ID, draw: null });
});

test('a draw that cannot be read leaves it out: the page waits for the browser to ask', async () => {
  const seo = seoWith({
    publicDrawOfProduct: () => Promise.reject(new Error('database away')),
    productDrawStamp: () => '',
  });
  const page = await seo.renderPage(new URL(`https://shop.test/product/${ID}`));
  expect(page.status).toBe(200);
  expect(page.bootstrap.product).toEqual(product);
  expect(page.bootstrap).not.toHaveProperty('productDraw');
});

test("a page's variant is its product's draw stamp; every other page has none", async () => {
  const asked: string[] = [];
  const seo = seoWith({
    publicDrawOfProduct: async () => null,
    productDrawStamp: (id) => {
      asked.push(id);
      return id === ID ? Promise.resolve('d.open.1') : '';
    },
  });
  expect(seo.pageVariant(new URL('https://shop.test/'))).toBe('');
  expect(seo.pageVariant(new URL('https://shop.test/category/tees'))).toBe('');
  expect(seo.pageVariant(new URL('https://shop.test/product/not-a-uuid'))).toBe('');
  expect(await seo.pageVariant(new URL(`https://shop.test/product/${ID.toUpperCase()}`))).toBe('d.open.1');
  // Sync (no promise) when the draws know without a query.
  expect(seo.pageVariant(new URL('https://shop.test/products/00000000-0000-4000-8000-000000000000'))).toBe(
    '',
  );
  expect(asked).toEqual([ID, '00000000-0000-4000-8000-000000000000']);
});

test('an unreadable stamp is a variant of its own, never an error', async () => {
  const seo = seoWith({
    publicDrawOfProduct: async () => null,
    productDrawStamp: () => Promise.reject(new Error('database away')),
  });
  expect(await seo.pageVariant(new URL(`https://shop.test/product/${ID}`))).toBe('unread');
});
