import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { ssrDirFor } from '../../plugins/server-render';

// The product page is rendered with its draw (docs/draw.md) and cached per catalogue version and per its
// draw's stamp: making, opening or cancelling a draw changes the very next page, though the catalogue
// did not change; a product without a draw is still answered from the cache.

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-draw-page-'));
const clientDir = path.join(base, 'client');
fs.mkdirSync(clientDir, { recursive: true });
fs.mkdirSync(ssrDirFor(clientDir));
fs.writeFileSync(
  path.join(clientDir, 'index.html'),
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><!--app-head--></head><body><div id="root"></div></body></html>',
);
// A stand-in for the storefront's render: counts its calls and prints the draw it was given.
fs.writeFileSync(
  path.join(ssrDirFor(clientDir), 'entry-server.js'),
  `export async function render(pathname, search, bootstrap) {
    globalThis.__fiftyDrawRenders = (globalThis.__fiftyDrawRenders ?? 0) + 1;
    const d = bootstrap.productDraw;
    return '<main>' + (d === undefined ? 'unknown' : d.draw ? 'draw ' + d.draw.status : 'no draw') + '</main>';
  }`,
);
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const renders = () => (globalThis as { __fiftyDrawRenders?: number }).__fiftyDrawRenders ?? 0;
const HOUR = 3_600_000;

describeEachDb(
  'product pages and their draw',
  (t) => {
    test('the cached product page turns with its draw; without one it stays cached', async () => {
      const id = await createProduct(t().database.db, { name: 'Page Draw Tee', price: '45.00', stock: 3 });
      t().services.catalog.invalidate();
      const url = `/product/${id}`;
      const page = async () => (await t().app.inject({ url })).body;

      expect(await page()).toContain('<main>no draw</main>');
      const at = renders();
      expect(await page()).toContain('<main>no draw</main>');
      expect(renders()).toBe(at);

      const admin = await adminClient(t());
      const now = Date.now();
      const made = await admin.post('/api/admin/draws', {
        productId: id,
        opensAt: new Date(now + HOUR).toISOString(),
        closesAt: new Date(now + 2 * HOUR).toISOString(),
        drawAt: new Date(now + 3 * HOUR).toISOString(),
      });
      expect(made.statusCode, made.body).toBe(201);
      const drawId = (made.json() as { id: string }).id;
      const withDraw = await page();
      expect(withDraw).toContain('<main>draw scheduled</main>');
      // The data the browser's first render reads: the draw, without its (still empty) published list.
      const boot = JSON.parse(
        /<script type="application\/json" id="fifty-bootstrap">(.*?)<\/script>/.exec(withDraw)![1]!,
      ) as {
        productDraw: { productId: string; draw: { id: string; entries: unknown[] } };
      };
      expect(boot.productDraw).toMatchObject({ productId: id, draw: { id: drawId, entries: [] } });
      const cached = renders();
      expect(await page()).toContain('<main>draw scheduled</main>');
      expect(renders()).toBe(cached);

      expect((await admin.post(`/api/admin/draws/${drawId}/cancel`, {})).statusCode).toBe(200);
      expect(await page()).toContain('<main>draw cancelled</main>');
    });
  },
  { deps: { clientDir } },
);
