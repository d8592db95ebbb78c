import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { products } from '../catalog/catalog.tables';
import { eq } from 'drizzle-orm';

const bootstrapOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="fifty-bootstrap">([\s\S]*?)<\/script>/.exec(html)![1]!) as Record<string, unknown>;

describeEachDb('drops on the pages: /drops, the home hero data, the grid order', (t) => {
  test('/drops: 200, title, description with the sell-out story, live and past drops embedded', async () => {
    const db = t().database.db;
    const live = await createProduct(db, { name: 'Live Hoodie', releaseAt: new Date(Date.now() - 60_000) });
    const gone = await createProduct(db, { name: 'Gone Tee', releaseAt: new Date(Date.now() - 3 * 3600_000) });
    await db
      .update(products)
      .set({ stock: 0, soldCount: 10, soldOutAt: new Date(Date.now() - 3 * 3600_000 + 192_000) })
      .where(eq(products.id, gone));
    t().services.catalog.invalidate();

    const res = await t().app.inject({ method: 'GET', url: '/drops' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Drops | FIFTY</title>');
    const description = /<meta name="description" content="([^"]*)"/.exec(res.body)![1]!;
    expect(description).toContain('Live now: Live Hoodie.');
    expect(description).toMatch(/Gone Tee: All \d+ sold in 3 min 12 s\./);
    expect(res.body).not.toContain('noindex');
    const boot = bootstrapOf(res.body);
    const ids = (boot.drops as Array<{ id: string }>).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([live, gone]));
    expect(boot.dropTiming).toEqual({ raffleMinutes: 10, windowMinutes: 60 });

    // Home: the hero's candidates are embedded, and the grid starts with the newest drop.
    const home = await t().app.inject({ method: 'GET', url: '/' });
    const hb = bootstrapOf(home.body);
    expect((hb.drops as Array<{ id: string }>).map((p) => p.id)).toEqual([live]);
    const grid = (hb.home as { grid: { products: Array<{ id: string }> } }).grid.products;
    expect(grid[0]!.id).toBe(live);
    expect(grid[1]!.id).toBe(gone);

    const wishlist = await t().app.inject({ method: 'GET', url: '/wishlist' });
    expect(wishlist.statusCode).toBe(200);
    expect(wishlist.body).toContain('<title>Wishlist | FIFTY</title>');
    expect(wishlist.body).toContain('noindex');
  });
});
