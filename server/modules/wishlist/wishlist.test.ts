import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { wishlistChangeSchema, wishlistSchema, type Wishlist } from '../../../common/contracts/wishlist';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { wishlistItems } from './wishlist.tables';

describeEachDb('wishlist: saved per shopper, on the database', (t) => {
  const product = async (over: Parameters<typeof createProduct>[1] = {}) => {
    const id = await createProduct(t().database.db, over);
    t().services.catalog.invalidate();
    return id;
  };

  test('a save is kept for the session across requests, newest first; another shopper sees none of it', async () => {
    const [a, b] = [await product(), await product()];
    const shopper = t().client();
    expect((await shopper.get('/api/wishlist')).json()).toEqual({ items: [] });
    // Reading an empty list creates no session.
    expect(shopper.cookies.size).toBe(0);

    const saved = await shopper.post('/api/wishlist', { productId: a });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(wishlistChangeSchema.parse(saved.json())).toEqual({ productId: a, saved: true });
    await shopper.post('/api/wishlist', { productId: b });
    // Saving twice keeps one row.
    expect((await shopper.post('/api/wishlist', { productId: a })).json()).toEqual({ productId: a, saved: true });

    const list = wishlistSchema.parse((await shopper.get('/api/wishlist')).json()) as Wishlist;
    expect(list.items.map((i) => i.productId).sort()).toEqual([a, b].sort());
    expect(list.items[0]!.product.id).toBe(list.items[0]!.productId);
    const rows = await t().database.db.select().from(wishlistItems).where(eq(wishlistItems.productId, a));
    expect(rows).toHaveLength(1);

    const other = t().client();
    expect((await other.get('/api/wishlist')).json()).toEqual({ items: [] });
  });

  test('DELETE removes it; removing what is not there is fine', async () => {
    const a = await product();
    const shopper = t().client();
    await shopper.post('/api/wishlist', { productId: a });
    const removed = await shopper.delete(`/api/wishlist/${a}`);
    expect(removed.json()).toEqual({ productId: a, saved: false });
    expect((await shopper.get('/api/wishlist')).json()).toEqual({ items: [] });
    expect((await shopper.delete(`/api/wishlist/${a}`)).statusCode).toBe(200);
  });

  test('bad input is a 4xx { message }: malformed id, unknown product, a full list', async () => {
    const shopper = t().client();
    const bad = await shopper.post('/api/wishlist', { productId: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: expect.stringMatching(/Invalid product id/) });
    const badDelete = await shopper.delete('/api/wishlist/nope');
    expect(badDelete.statusCode).toBe(400);
    const unknown = await shopper.post('/api/wishlist', { productId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Product not found' });
    // No row for a refused save.
    expect((await shopper.get('/api/wishlist')).json()).toEqual({ items: [] });
  });

  test('a deleted product leaves the list', async () => {
    const a = await product();
    const shopper = t().client();
    await shopper.post('/api/wishlist', { productId: a });
    await t().services.catalog.deleteProduct(a);
    t().services.catalog.invalidate();
    expect((await shopper.get('/api/wishlist')).json()).toEqual({ items: [] });
  });
});

describeEachDb(
  'wishlist: the cap and the rate limit',
  (t) => {
    test('at most WISHLIST_MAX pieces: the next save is a 409 { message } and nothing is written', async () => {
      const { createWishlistService } = await import('./wishlist.service');
      const small = createWishlistService({ db: t().database.db, catalog: t().services.catalog, max: 2 });
      const ids = [await createProduct(t().database.db), await createProduct(t().database.db), await createProduct(t().database.db)];
      t().services.catalog.invalidate();
      const session = async () => 'cap-session';
      await small.save(session, ids[0]!);
      await small.save(session, ids[1]!);
      await expect(small.save(session, ids[2]!)).rejects.toMatchObject({ statusCode: 409, message: expect.stringMatching(/full/) });
      // Two saves at once on a list with one place left: exactly one gets in.
      await small.remove('cap-session', ids[1]!);
      const raced = await Promise.allSettled([small.save(session, ids[1]!), small.save(session, ids[2]!)]);
      expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((await small.list('cap-session')).items).toHaveLength(2);
    });

    test('saves are rate-limited per session like cart adds (429 { message })', async () => {
      const id = await createProduct(t().database.db);
      t().services.catalog.invalidate();
      const shopper = t().client();
      const statuses: number[] = [];
      for (let i = 0; i < 32; i++) statuses.push((await shopper.post('/api/wishlist', { productId: id })).statusCode);
      expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
      const refused = await shopper.post('/api/wishlist', { productId: id });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ message: expect.any(String) });
    });
  },
  { env: { RATE_LIMITS: 'on' } },
);
