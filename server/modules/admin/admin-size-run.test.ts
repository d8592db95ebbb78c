import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { productState } from '../../../tests/support/shop-fixtures';
import type { TestClient } from '../../../tests/support/build-test-app';
import { readSizeStock, holdVariant } from '../inventory/variants.repository';

const patchOf = (admin: TestClient) => (url: string, payload: unknown) =>
  admin.request({ method: 'PATCH', url, payload: payload as object, headers: { 'content-type': 'application/json' } });

const base = {
  name: 'Run Tee',
  description: 'A tee split into sizes.',
  price: '45.00',
  salePrice: null,
  category: 'tshirts',
  subcategory: null,
  materials: 'Cotton',
  sustainabilityInfo: 'Organic',
  stock: 0,
  editionSize: 30,
  images: [],
  sizes: [],
  colors: [],
};

describeEachDb('the owner splits an edition into sizes (ADR 015)', (t) => {
  test('create with a size run: the run is written with the product, stock is the sum, sizes are its labels', async () => {
    const admin = await adminClient(t());
    const res = await admin.post('/api/admin/products', {
      ...base,
      sizeRun: [
        { size: 'XS', pieces: 5 },
        { size: ' m ', pieces: 15 },
        { size: 'XXL', pieces: 10 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const product = res.json();
    expect(product.stock).toBe(30);
    expect(product.sizes).toEqual(['XS', 'm', 'XXL']);
    expect(product.sizeRun.map((s: { size: string; pieces: number; left: number }) => [s.size, s.pieces, s.left])).toEqual([
      ['XS', 5, 5],
      ['m', 15, 15],
      ['XXL', 10, 10],
    ]);
    expect(await productState(t().database.db, product.id)).toEqual({ stock: 30, soldCount: 0 });
    const list = (await admin.get('/api/admin/products')).json();
    expect(list.find((p: { id: string }) => p.id === product.id).sizeRun).toHaveLength(3);
  });

  test('a run that does not add up, or repeats a size, is a 400 naming why, and nothing is written', async () => {
    const admin = await adminClient(t());
    const short = await admin.post('/api/admin/products', {
      ...base,
      name: 'Short Run Tee',
      sizeRun: [
        { size: 'S', pieces: 10 },
        { size: 'M', pieces: 15 },
      ],
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ message: 'Sizes add up to 25 of 30 pieces.' });
    const twice = await admin.post('/api/admin/products', {
      ...base,
      name: 'Twice Tee',
      sizeRun: [
        { size: 'M', pieces: 15 },
        { size: 'm', pieces: 15 },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ message: 'm: m is listed twice.' });
    const negative = await admin.post('/api/admin/products', {
      ...base,
      name: 'Negative Tee',
      sizeRun: [{ size: 'M', pieces: -1 }, { size: 'L', pieces: 31 }],
    });
    expect(negative.statusCode).toBe(400);
    expect(negative.json()).toEqual({ message: 'M: Pieces must be a whole number, 0 or more.' });
    const names = (await admin.get('/api/admin/products')).json().map((p: { name: string }) => p.name);
    expect(names).not.toContain('Short Run Tee');
    expect(names).not.toContain('Twice Tee');
  });

  test('an unsplit product is split by PATCH (expectedStock checked); a size never goes below its held + sold', async () => {
    const admin = await adminClient(t());
    const patch = patchOf(admin);
    const product = (await t().services.catalog.listProducts()).find((p) => p.name === 'Night Shift Tee')!;
    // One pool: 7 left of 50, 43 sold.
    const before = (await admin.get('/api/admin/products')).json().find((p: { id: string }) => p.id === product.id);
    expect(before.sizeRun).toEqual([]);

    const stale = await patch(`/api/admin/products/${product.id}`, {
      sizeRun: [{ size: 'M', pieces: 7 }],
      expectedStock: 6,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().currentStock).toBe(7);

    // The 43 sold pieces stay on the one run ("sold before sizes"): the sizes share the 7 left.
    const over = await patch(`/api/admin/products/${product.id}`, {
      sizeRun: [{ size: 'M', pieces: 4 }, { size: 'L', pieces: 4 }],
      expectedStock: 7,
    });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ message: 'Sizes add up to 8 of 7 pieces.' });

    const split = await patch(`/api/admin/products/${product.id}`, {
      sizeRun: [{ size: 'M', pieces: 4 }, { size: 'L', pieces: 3 }],
      expectedStock: 7,
    });
    expect(split.statusCode, split.body).toBe(200);
    const body = split.json();
    expect(body.stock).toBe(7);
    expect(body.sizes).toEqual(['M', 'L']);
    expect(body.sizeRun.map((s: { size: string | null; left: number; sold: number }) => [s.size, s.left, s.sold])).toEqual([
      [null, 0, 43],
      ['M', 4, 0],
      ['L', 3, 0],
    ]);

    // A split product's stock moves through its run only.
    const stock = await patch(`/api/admin/products/${product.id}`, { stock: 5, expectedStock: 7 });
    expect(stock.statusCode).toBe(400);
    expect(stock.json().message).toMatch(/split into sizes/);
    const edition = await patch(`/api/admin/products/${product.id}`, { editionSize: 60 });
    expect(edition.statusCode).toBe(400);

    // Two M held in a checkout: M cannot go below 2, and cannot leave the run.
    const sizes = (await readSizeStock(t().database.db, [product.id])).get(product.id)!;
    const m = sizes.find((s) => s.size === 'M')!;
    await t().database.db.transaction(async (tx) => {
      expect(await holdVariant(tx, product.id, m.variantId, 2)).toBe(true);
    });
    const below = await patch(`/api/admin/products/${product.id}`, {
      sizeRun: [{ size: 'M', pieces: 1 }, { size: 'L', pieces: 6 }],
    });
    expect(below.statusCode).toBe(400);
    expect(below.json()).toEqual({ message: 'M has 2 pieces held or sold: it cannot have fewer.' });
    const gone = await patch(`/api/admin/products/${product.id}`, { sizeRun: [{ size: 'L', pieces: 7 }] });
    expect(gone.statusCode).toBe(400);
    expect(gone.json()).toEqual({ message: 'M has pieces held or sold: it stays in the run.' });

    // Growing the edition with the run: 10 more pieces, M keeps its 2 held.
    const grown = await patch(`/api/admin/products/${product.id}`, {
      editionSize: 60,
      sizeRun: [{ size: 'M', pieces: 6 }, { size: 'L', pieces: 5 }, { size: 'XL', pieces: 6 }],
    });
    expect(grown.statusCode, grown.body).toBe(200);
    expect(grown.json().editionSize).toBe(60);
    expect(grown.json().stock).toBe(15);
    expect(await productState(t().database.db, product.id)).toEqual({ stock: 15, soldCount: 43 });

    // A typo fix leaves the run alone.
    const typo = await patch(`/api/admin/products/${product.id}`, { name: 'Night Shift Tee' });
    expect(typo.statusCode, typo.body).toBe(200);
    expect(typo.json().sizeRun).toHaveLength(4);
  });

  test('free entry: an accessories jacket is not forced into deck sizes', async () => {
    const admin = await adminClient(t());
    const res = await admin.post('/api/admin/products', {
      ...base,
      name: 'Coach Jacket',
      category: 'accessories',
      editionSize: 20,
      sizeRun: [{ size: 'S/M', pieces: 12 }, { size: 'L/XL', pieces: 8 }],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().sizes).toEqual(['S/M', 'L/XL']);
  });
});
