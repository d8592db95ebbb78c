import { expect, test } from 'vitest';
import { z } from 'zod';
import { describeEachDb } from '../../../tests/support/build-test-app';
import {
  categoryListSchema,
  categorySchema,
  categorySizes,
  productListSchema,
  productPageSchema,
  productSchema,
  type Category,
  type Product,
} from '../../../common/contracts/catalog';

// docs/product.md §3: every field with the type it names. Strict, so a renamed or extra field is noticed.
const wireProduct = productSchema.strict();
const wireCategory = categorySchema.strict();
const HEX = /^#[0-9a-f]{6}$/i;

describeEachDb('catalogue API', (t) => {
  const get = (url: string) => t().client().get(url);
  const json = <T>(res: { body: string }) => JSON.parse(res.body) as T;

  test('GET /api/categories lists the three categories with slug, name and description', async () => {
    const res = await get('/api/categories');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const list = z.array(wireCategory).parse(json(res));
    expect(list.map((c) => c.slug).sort()).toEqual(['accessories', 'hoodies', 'tshirts']);
    for (const c of list) {
      expect(c.name.length).toBeGreaterThan(0);
      expect(c.description.length).toBeGreaterThan(10);
      expect(c.image).toMatch(/^\/uploads\//);
    }
    expect(list.find((c) => c.slug === 'tshirts')?.name).toBe('T-Shirts');
  });

  test('GET /api/categories/{slug} answers the category; an unknown slug is a JSON 404', async () => {
    const res = await get('/api/categories/hoodies');
    expect(res.statusCode).toBe(200);
    const category = wireCategory.parse(json(res));
    expect(category).toMatchObject({ slug: 'hoodies', name: 'Hoodies' });

    const missing = await get('/api/categories/no-such-category');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect(json<{ message: string }>(missing).message).toMatch(/not found/i);

    const odd = await get(`/api/categories/${encodeURIComponent('<script>"x\'')}`);
    expect(odd.statusCode).toBe(404);
    expect(json<{ message: string }>(odd)).toHaveProperty('message');
  });

  test('GET /api/products returns every product with the fields and types of docs/product.md §3', async () => {
    const res = await get('/api/products');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const list = z.array(wireProduct).parse(json(res));
    expect(list.length).toBeGreaterThanOrEqual(15);
    expect(new Set(list.map((p) => p.id)).size).toBe(list.length);

    for (const slug of ['tshirts', 'hoodies', 'accessories']) {
      expect(list.filter((p) => p.category === slug).length, slug).toBeGreaterThanOrEqual(4);
    }
    for (const p of list) {
      expect(p.price, p.name).toMatch(/^\d+\.\d{2}$/);
      expect(typeof p.price).toBe('string');
      if (p.salePrice !== null) expect(Number(p.salePrice)).toBeLessThan(Number(p.price));
      expect(p.stock).toBeGreaterThanOrEqual(0);
      expect(p.stock).toBeLessThanOrEqual(50);
      expect(p.images.length).toBeGreaterThan(0);
      expect(p.colors.length).toBeGreaterThan(0);
      for (const c of p.colors) expect(c.value, `${p.name} ${c.name}`).toMatch(HEX);
      // Sizes come from the category's list (docs/product.md §3).
      for (const s of p.sizes) expect(categorySizes[p.category], `${p.name} ${s}`).toContain(s);
      if (p.stock === 0) expect(p.inStock).toBe(false);
      expect(p.name.length).toBeGreaterThan(3);
      expect(p.description.length).toBeGreaterThan(20);
      expect(p.materials.length).toBeGreaterThan(3);
      expect(p.sustainabilityInfo.length).toBeGreaterThan(10);
    }
    for (const p of list.filter((x) => x.category !== 'accessories'))
      expect(p.sizes, p.name).toEqual(categorySizes[p.category]);

    const soldOut = list.filter((p) => p.stock === 0);
    expect(soldOut.length).toBeGreaterThanOrEqual(1);
    expect(soldOut.every((p) => p.inStock === false)).toBe(true);
    const onSale = list.filter((p) => p.isOnSale && p.salePrice !== null);
    expect(onSale.length).toBeGreaterThanOrEqual(1);
    expect(onSale[0].salePrice).toMatch(/^\d+\.\d{2}$/);
    expect(list.some((p) => p.isNew)).toBe(true);
    expect(list.some((p) => p.colors.length > 3)).toBe(true);
  });

  test('GET /api/products/{id} answers one product; unknown uuid is 404, malformed id is 400', async () => {
    const [first] = json<Product[]>(await get('/api/products'));
    const res = await get(`/api/products/${first.id}`);
    expect(res.statusCode).toBe(200);
    expect(wireProduct.parse(json(res))).toEqual(first);

    const unknown = await get('/api/products/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/json/);
    expect(json<{ message: string }>(unknown).message).toMatch(/not found/i);

    for (const bad of ['not-a-uuid', '123', "1'%20OR%201=1", '%E0%A4%A', `${first.id}x`]) {
      const r = await get(`/api/products/${bad}`);
      expect(r.statusCode, bad).toBe(400);
      expect(r.headers['content-type'], bad).toMatch(/^application\/json/);
      expect(typeof json<{ message: string }>(r).message, bad).toBe('string');
    }
  });

  test('search ?q= is case-insensitive over name, description, materials and category, best match first', async () => {
    const all = json<Product[]>(await get('/api/products'));
    const categories = json<Category[]>(await get('/api/categories'));
    const search = async (q: string) => {
      const r = await get(`/api/products?q=${encodeURIComponent(q)}`);
      expect(r.statusCode, q).toBe(200);
      return z.array(wireProduct).parse(json(r));
    };

    // Exact product name: that product comes first.
    const target = all.find((p) => p.category === 'hoodies')!;
    const byName = await search(target.name);
    expect(byName[0].id).toBe(target.id);

    // Case does not matter.
    const lower = await search(target.name.toLowerCase());
    const upper = await search(target.name.toUpperCase());
    expect(lower.map((p) => p.id)).toEqual(byName.map((p) => p.id));
    expect(upper.map((p) => p.id)).toEqual(byName.map((p) => p.id));

    // Category: by its name, every product of the category is found, and name hits rank above the rest.
    const hoodies = await search('HOODIES');
    const hoodieIds = all.filter((p) => p.category === 'hoodies').map((p) => p.id);
    expect(hoodies.map((p) => p.id)).toEqual(expect.arrayContaining(hoodieIds));
    const firstNonHoodie = hoodies.findIndex((p) => p.category !== 'hoodies');
    if (firstNonHoodie !== -1) expect(firstNonHoodie).toBeGreaterThanOrEqual(hoodieIds.length);
    expect(categories.some((c) => c.slug === 'hoodies')).toBe(true);

    // Materials: a word that only appears in some products' materials.
    const material = 'polyester';
    const withMaterial = all.filter((p) => p.materials.toLowerCase().includes(material));
    expect(withMaterial.length).toBeGreaterThan(0);
    const byMaterial = await search('Polyester');
    expect(byMaterial.map((p) => p.id)).toEqual(expect.arrayContaining(withMaterial.map((p) => p.id)));

    // Description: a distinctive word from one product's description.
    const word = target.description
      .split(/[^A-Za-z]+/)
      .filter((w) => w.length >= 6)
      .find(
        (w) =>
          all.filter((p) =>
            `${p.name} ${p.description} ${p.materials}`.toLowerCase().includes(w.toLowerCase()),
          ).length === 1,
      );
    if (word) {
      const byDescription = await search(word.toUpperCase());
      expect(byDescription.map((p) => p.id)).toContain(target.id);
    }

    expect(await search('zzqxjv-no-such-thing')).toEqual([]);
    expect(await search('a'.repeat(200))).toEqual([]);
  });

  test('search input never causes a 500', async () => {
    for (const q of [
      '',
      '   ',
      '%25',
      "'; drop table products; --",
      '<script>',
      '\\',
      '"',
      '(',
      '[',
      '*',
      '.*',
      '%00',
    ]) {
      const r = await get(`/api/products?q=${encodeURIComponent(q)}`);
      expect(r.statusCode, q).toBe(200);
      expect(Array.isArray(JSON.parse(r.body))).toBe(true);
    }
    const tooLong = await get(`/api/products?q=${'a'.repeat(201)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(JSON.parse(tooLong.body)).toHaveProperty('message');
  });

  test('an empty query returns the full list', async () => {
    const all = json<Product[]>(await get('/api/products'));
    const empty = json<Product[]>(await get('/api/products?q='));
    expect(empty.map((p) => p.id)).toEqual(all.map((p) => p.id));
  });

  test('the cached list follows writes after invalidate()', async () => {
    const { services } = t();
    const before = json<Product[]>(await get('/api/products'));
    const target = before[0];
    const { products } = await import('./catalog.tables');
    const { eq } = await import('drizzle-orm');
    await services.db.update(products).set({ stock: 0 }).where(eq(products.id, target.id));
    services.catalog.invalidate();
    const after = json<Product>(await get(`/api/products/${target.id}`));
    expect(after).toMatchObject({ id: target.id, stock: 0, inStock: false });
    await services.db.update(products).set({ stock: target.stock }).where(eq(products.id, target.id));
    services.catalog.invalidate();
    expect(json<Product>(await get(`/api/products/${target.id}`)).stock).toBe(target.stock);
  });

  test('GET /api/products/page: one grid page of 24, filtered, clamped to the last page; bad input is a JSON 400', async () => {
    const all = json<Product[]>(await get('/api/products'));
    const first = await get('/api/products/page');
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^W\//);
    expect(json(first)).toEqual({
      category: null,
      page: 1,
      pageCount: 1,
      pageSize: 24,
      total: all.length,
      products: all.slice(0, 24),
    });
    const hoodies = all.filter((p) => p.category === 'hoodies');
    expect(json(await get('/api/products/page?category=hoodies&page=7'))).toMatchObject({
      category: 'hoodies',
      page: 1,
      total: hoodies.length,
      products: hoodies,
    });
    for (const bad of ['page=0', 'page=abc', 'page=1.5', 'page=10001', 'category=%3Cx%3E']) {
      const res = await get(`/api/products/page?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(json<{ message: string }>(res).message, bad).toMatch(/Invalid (page|category)/);
    }
    const featured = json<Product[]>(await get('/api/products/featured'));
    expect(featured).toHaveLength(4);
    expect(featured.every((p) => p.inStock)).toBe(true);
  });

  // The four hot lists send the snapshot's precompressed bytes, not through a response schema
  // (server/route-contracts.test.ts lists them): their JSON must still be exactly the contract's shape.
  test('the snapshot JSON the raw-byte routes send parses with the contract schemas, no field more or less', async () => {
    const strictList = z.array(wireProduct);
    const snap = await t().services.catalog.current();
    expect(categoryListSchema.parse(JSON.parse(snap.categoriesJson))).toHaveLength(3);
    z.array(wireCategory).parse(JSON.parse(snap.categoriesJson));
    const products = strictList.parse(JSON.parse(snap.productsJson));
    expect(productListSchema.parse(products)).toEqual(products);

    const bodies = {
      '/api/categories': z.array(wireCategory),
      '/api/products': strictList,
      '/api/products?q=hoodie': strictList,
      '/api/products/featured': strictList,
      '/api/products/page': productPageSchema.extend({ products: strictList }).strict(),
      '/api/products/page?category=tshirts': productPageSchema.extend({ products: strictList }).strict(),
    };
    for (const [url, schema] of Object.entries(bodies)) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(schema.safeParse(json(res)).error, url).toBeUndefined();
    }
    // The strict check can fail: a field the contract lacks is refused.
    expect(wireProduct.safeParse({ ...products[0], passwordHash: 'x' }).success).toBe(false);
  });
});
