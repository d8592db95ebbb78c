import { expect, test, vi } from 'vitest';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { drawSaleListSchema, type DrawSale } from '../../../common/contracts/catalog';
import { createManualClock } from '../../lib/db-clock';
import type { MailMessage } from '../../lib/mailer';

// GET /api/products/draws (docs/draw.md): the products whose sale a draw owns, from the announcement until
// the draw has run, so product cards lead to the draw instead of an Add to Cart the server refuses. The
// server-rendered pages with cards carry the same list and are cached under its stamp.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2031, 6, 1, 12);
const clock = createManualClock(T0);
const mailer = { send: async (_m: MailMessage) => {} };

async function drawSales(t: TestApp): Promise<DrawSale[]> {
  const res = await t.client().get('/api/products/draws');
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-cache');
  return drawSaleListSchema.parse(res.json());
}

async function makeDraw(admin: TestClient, productId: string) {
  clock.set(T0);
  const res = await admin.post('/api/admin/draws', {
    productId,
    opensAt: new Date(T0 + HOUR).toISOString(),
    closesAt: new Date(T0 + DAY).toISOString(),
    drawAt: new Date(T0 + DAY + HOUR).toISOString(),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

/** The list is read at most every 5 s per instance: a draw opened by another instance's job shows within that. */
const within = { timeout: 8_000, interval: 250 };

describeEachDb(
  'the products sold by draw, for the product cards',
  (t) => {
    test('the list names the drawn product from the moment its draw is made, and lets it go when cancelled', async () => {
      const db = t().database.db;
      const drawn = await createProduct(db, { name: 'Drawn Grid Tee' });
      const plain = await createProduct(db, { name: 'Plain Grid Tee' });
      t().services.catalog.invalidate();
      expect(await drawSales(t())).toEqual([]);

      const admin = await adminClient(t());
      const draw = await makeDraw(admin, drawn);
      // Made on this instance: listed at once, with its window, and nothing about the other product.
      expect(await drawSales(t())).toEqual([
        {
          productId: drawn,
          drawId: draw.id,
          status: 'scheduled',
          opensAt: new Date(T0 + HOUR).toISOString(),
          closesAt: new Date(T0 + DAY).toISOString(),
          drawAt: new Date(T0 + DAY + HOUR).toISOString(),
        },
      ]);
      // The list agrees with the cart's refusal (notByDraw), and the other product still sells.
      const shopper = t().client();
      const refused = await shopper.post('/api/cart', { productId: drawn, quantity: 1, selectedSize: 'M' });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().message).toBe('Drawn Grid Tee is sold by draw: enter the draw on its page.');
      const added = await shopper.post('/api/cart', { productId: plain, quantity: 1, selectedSize: 'M' });
      expect(added.statusCode, added.body).toBe(200);

      // Server-rendered grids carry the list in their first HTML, and are cached under its stamp.
      const seo = t().services.seo;
      const page = await seo.renderPage(new URL('http://shop.test/category/tshirts'));
      expect(page.bootstrap.drawSales).toEqual([expect.objectContaining({ productId: drawn, drawId: draw.id })]);
      const search = await seo.renderPage(new URL('http://shop.test/search?q=Grid%20Tee'));
      expect(search.bootstrap.drawSales).toEqual(page.bootstrap.drawSales);
      const home = await seo.renderPage(new URL('http://shop.test/'));
      expect(home.bootstrap.drawSales).toEqual(page.bootstrap.drawSales);
      const stampWhileDrawn = await seo.pageVariant(new URL('http://shop.test/'));
      expect(stampWhileDrawn).not.toBe('');
      expect(await seo.pageVariant(new URL('http://shop.test/category/tshirts'))).toBe(stampWhileDrawn);
      // A page without product cards is not keyed by it.
      expect(seo.pageVariant(new URL('http://shop.test/shipping'))).toBe('');

      const cancelled = await admin.post(`/api/admin/draws/${draw.id}/cancel`);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      // Called off on this instance: let go at once (another instance's list follows within its 5 s).
      expect(await drawSales(t())).toEqual([]);
      const after = await seo.renderPage(new URL('http://shop.test/category/tshirts'));
      expect(after.bootstrap.drawSales).toEqual([]);
      expect(await seo.pageVariant(new URL('http://shop.test/'))).not.toBe(stampWhileDrawn);
      // The cart takes the piece again.
      const again = await shopper.post('/api/cart', { productId: drawn, quantity: 1, selectedSize: 'M' });
      expect(again.statusCode, again.body).toBe(200);
    });

    test('a draw that has run and settled is no longer listed; while it runs its status says where it is', async () => {
      const db = t().database.db;
      const drawn = await createProduct(db, { name: 'Run Grid Tee', stock: 3 });
      const admin = await adminClient(t());
      const draw = await makeDraw(admin, drawn);
      expect((await drawSales(t())).map((s) => [s.productId, s.status])).toEqual([[drawn, 'scheduled']]);

      // Entries open by the one clock: the draws job opens it; the list follows within its 5 s.
      clock.set(T0 + 2 * HOUR);
      await t().services.drawFlows.settle.advance(draw.id);
      await vi.waitFor(
        async () => expect((await drawSales(t())).map((s) => [s.productId, s.status])).toEqual([[drawn, 'open']]),
        within,
      );

      clock.set(T0 + DAY + 1);
      const run = await admin.post(`/api/admin/draws/${draw.id}/run`);
      expect(run.statusCode, run.body).toBe(200);
      expect(run.json().status).toBe('settled');
      // Settled on this instance: the piece is back on sale at once.
      expect(await drawSales(t())).toEqual([]);
    });
  },
  { deps: { mailer, clock } },
);
