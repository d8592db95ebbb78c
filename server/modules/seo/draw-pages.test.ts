import { expect, test } from 'vitest';
import { createSeoService, type SeoCatalog, type SeoSettings } from './seo.service';

// The draw's two pages (client/pages/draw-page.tsx, draw-entry-page.tsx) are real pages: 200 with their own
// title, not the not-found page. The entrant's page carries a private link's token: never indexed.

const catalog: SeoCatalog = {
  listProducts: async () => [],
  listCategories: async () => [],
  getProduct: async () => null,
  search: async () => [],
  freshSnapshot: () => ({ version: 1, products: [] }),
  current: async () => ({ version: 1, products: [] }),
};
const settings = {
  shopName: 'FIFTY',
  publicSettings: {},
  freeShippingThresholdCents: 6000,
  rates: [],
} as unknown as SeoSettings;

const seo = createSeoService({ catalog, settings, publicUrl: 'https://shop.test' });

test('/draws/:id is the public draw page, indexable', async () => {
  const page = await seo.renderPage(new URL('https://shop.test/draws/5b1c1d8e-3f0e-4a57-9a51-2f7f2b0f9c11'));
  expect(page.status).toBe(200);
  expect(page.head).toContain('<title>The draw | FIFTY</title>');
  expect(page.head).toContain(
    '<link rel="canonical" href="https://shop.test/draws/5b1c1d8e-3f0e-4a57-9a51-2f7f2b0f9c11">',
  );
  expect(page.head).not.toContain('noindex');
});

test('/draw-entry/:token is the entrant page, never indexed', async () => {
  const page = await seo.renderPage(new URL(`https://shop.test/draw-entry/${'a'.repeat(43)}`));
  expect(page.status).toBe(200);
  expect(page.head).toContain('<title>Your draw entry | FIFTY</title>');
  expect(page.head).toContain('<meta name="robots" content="noindex, nofollow">');
});
