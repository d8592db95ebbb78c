import crypto from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Db } from '../../db/client';
import {
  ensureOneRun,
  findOneRun,
  findVariantForLine,
  holdVariant,
  readSizeStock,
  releaseVariant,
  replaceSizeRun,
  returnToVariant,
  sellVariant,
  syncOneRunVariants,
  type SizeStock,
} from './variants.repository';

/**
 * Per-size stock on the real database (ADR 015): many shoppers in concurrent transactions race for the
 * last M while L is plenty. Exactly one gets the M, L is unaffected, the product's totals stay the sums
 * of its sizes and the edition is never exceeded.
 */
let pool: pg.Pool;
let db: Db;
let name: string;

beforeAll(async () => {
  name = `fifty_variants_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('testDatabaseUrl') });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('testTemplateDatabase')}`);
  await admin.end();
  const url = new URL(inject('testDatabaseUrl'));
  url.pathname = `/${name}`;
  // One connection per racing shopper, so they queue on the product row rather than on the pool; a patient
  // connect timeout, since opening sixty connections on a loaded box takes longer than the shop's 2 s.
  pool = new pg.Pool({ connectionString: url.toString(), max: 64, connectionTimeoutMillis: 60_000 });
  pool.on('error', () => undefined);
  db = drizzle(pool) as Db;
  await db.execute(
    sql`insert into categories (slug, name) values ('tshirts', 'T-Shirts') on conflict do nothing`,
  );
});

afterAll(async () => {
  await pool?.end();
  const admin = new pg.Client({ connectionString: inject('testDatabaseUrl') });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

/** A product straight in the table (no catalogue service): `stock` on the shelf, `sold` sold, edition 50. */
async function makeProduct(opts: { stock: number; sold?: number; inStock?: boolean }): Promise<string> {
  // The price column is whatever the money migration made it; it plays no part here.
  const { rows } = await db.execute<{ column_name: string }>(
    sql`select column_name from information_schema.columns where table_name = 'products' and column_name in ('price', 'price_cents')`,
  );
  const priceCol = sql.identifier(rows[0]!.column_name);
  const { rows: made } = await db.execute<{ id: string }>(sql`
    insert into products (name, ${priceCol}, category, stock, sold_count, in_stock, sizes)
    values (${`Tee ${crypto.randomUUID().slice(0, 8)}`}, 4500, 'tshirts', ${opts.stock}, ${opts.sold ?? 0}, ${opts.inStock ?? true},
            '["XS","S","M","L","XL","XXL"]'::jsonb)
    returning id`);
  const id = made[0]!.id;
  await db.transaction((tx) => ensureOneRun(tx, id));
  return id;
}

async function totals(productId: string) {
  const { rows } = await db.execute<{
    stock: number;
    held: number;
    sold: number;
    edition: number;
    v_stock: number;
    v_held: number;
    v_sold: number;
  }>(sql`
    select p.stock, p.held_count as held, p.sold_count as sold, p.edition_size as edition,
           sum(v.stock)::int as v_stock, sum(v.held_count)::int as v_held, sum(v.sold_count)::int as v_sold
      from products p join product_variants v on v.product_id = p.id
     where p.id = ${productId} group by p.id`);
  return rows[0]!;
}

async function expectLevel(productId: string) {
  const t = await totals(productId);
  expect({ stock: t.v_stock, held: t.v_held, sold: t.v_sold }).toEqual({
    stock: t.stock,
    held: t.held,
    sold: t.sold,
  });
  expect(t.stock + t.held + t.sold).toBeLessThanOrEqual(t.edition);
  return t;
}

const sizeOf = (sizes: SizeStock[], label: string) => sizes.find((s) => s.size === label)!;
async function sizes(productId: string) {
  return (await readSizeStock(db, [productId])).get(productId)!;
}

/** 5/10/1/24/5/5: one M left on the shelf, L plenty. */
const lastM = [
  { size: 'XS', pieces: 5 },
  { size: 'S', pieces: 10 },
  { size: 'M', pieces: 1 },
  { size: 'L', pieces: 24 },
  { size: 'XL', pieces: 5 },
  { size: 'XXL', pieces: 5 },
];

describe('the last M while L is plenty', () => {
  test('many concurrent shoppers: exactly one gets the M, every L shopper gets theirs, sums and edition hold', async () => {
    const productId = await makeProduct({ stock: 50 });
    const split = await db.transaction((tx) => replaceSizeRun(tx, productId, lastM));
    expect(split.ok).toBe(true);
    const run = await sizes(productId);
    const m = sizeOf(run, 'M');
    const l = sizeOf(run, 'L');
    expect(run.map((s) => [s.size, s.left])).toEqual(lastM.map((e) => [e.size, e.pieces]));

    // 30 want the last M, 20 want an L, 10 want both in one cart (all-or-nothing: no M, no L either).
    const carts: Array<Array<{ variantId: string; qty: number }>> = [
      ...Array.from({ length: 30 }, () => [{ variantId: m.variantId, qty: 1 }]),
      ...Array.from({ length: 20 }, () => [{ variantId: l.variantId, qty: 1 }]),
      ...Array.from({ length: 10 }, () => [
        { variantId: m.variantId, qty: 1 },
        { variantId: l.variantId, qty: 1 },
      ]),
    ].sort(() => Math.random() - 0.5);

    class Short extends Error {}
    const results = await Promise.all(
      carts.map((cart) =>
        db
          .transaction(async (tx) => {
            // Sizes of one product in variant-id order (ADR 015, lock order).
            for (const line of [...cart].sort((a, b) => (a.variantId < b.variantId ? -1 : 1)))
              if (!(await holdVariant(tx, productId, line.variantId, line.qty))) throw new Short();
            return cart;
          })
          .catch((err: unknown) => {
            if (err instanceof Short) return null;
            throw err;
          }),
      ),
    );
    const won = results.filter((r): r is NonNullable<typeof r> => r !== null);
    const gotM = won.filter((cart) => cart.some((line) => line.variantId === m.variantId));
    expect(gotM).toHaveLength(1);
    // Every L-only shopper got one; L was never short (24 on the shelf), whatever happened to M.
    const lOnly = won.filter((cart) => cart.length === 1 && cart[0]!.variantId === l.variantId);
    expect(lOnly).toHaveLength(20);
    const lHeld = won.flat().filter((line) => line.variantId === l.variantId).length;

    const after = await sizes(productId);
    expect(sizeOf(after, 'M')).toMatchObject({ left: 0, held: 1, sold: 0 });
    expect(sizeOf(after, 'L')).toMatchObject({ left: 24 - lHeld, held: lHeld });
    for (const label of ['XS', 'S', 'XL', 'XXL']) expect(sizeOf(after, label).held).toBe(0);
    const t = await expectLevel(productId);
    expect(t).toMatchObject({ stock: 50 - won.flat().length, held: won.flat().length, sold: 0 });

    // Every hold is sold, concurrently: edition numbers are the design's, 1..n, each once, whatever the size.
    const sold = await Promise.all(
      won.flat().map((line) => db.transaction((tx) => sellVariant(tx, productId, line.variantId, line.qty))),
    );
    const numbers = sold.flatMap((s) => s!.numbers).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: won.flat().length }, (_, i) => i + 1));
    expect(sold.every((s) => s!.editionSize === 50)).toBe(true);
    const final = await sizes(productId);
    // M's last piece sold: M is sold out (and says when); L is not.
    expect(sizeOf(final, 'M')).toMatchObject({ left: 0, held: 0, sold: 1 });
    expect(sizeOf(final, 'M').soldOutAt).toBeInstanceOf(Date);
    expect(sizeOf(final, 'L').soldOutAt).toBeNull();
    await expectLevel(productId);
  });

  test('a paused product holds nothing; a short size moves nothing', async () => {
    const productId = await makeProduct({ stock: 50, inStock: false });
    await db.transaction((tx) => replaceSizeRun(tx, productId, lastM));
    const m = sizeOf(await sizes(productId), 'M');
    expect(await db.transaction((tx) => holdVariant(tx, productId, m.variantId, 1))).toBe(false);
    await db.execute(sql`update products set in_stock = true where id = ${productId}`);
    expect(await db.transaction((tx) => holdVariant(tx, productId, m.variantId, 2))).toBe(false);
    expect(await expectLevel(productId)).toMatchObject({ stock: 50, held: 0 });
    expect(await db.transaction((tx) => holdVariant(tx, productId, m.variantId, 1))).toBe(true);
    expect(await expectLevel(productId)).toMatchObject({ stock: 49, held: 1 });
  });
});

describe('releases and returns per size', () => {
  test('a released hold goes back to its size; a returned piece goes to the size on its order line', async () => {
    const productId = await makeProduct({ stock: 50 });
    await db.transaction((tx) => replaceSizeRun(tx, productId, lastM));
    const run = await sizes(productId);
    const m = sizeOf(run, 'M');
    const l = sizeOf(run, 'L');
    await db.transaction(async (tx) => {
      expect(await holdVariant(tx, productId, m.variantId, 1)).toBe(true);
      expect(await holdVariant(tx, productId, l.variantId, 2)).toBe(true);
    });
    // The M hold lapses: M is back from none (restock alerts for an M), the product was not empty.
    expect(await db.transaction((tx) => releaseVariant(tx, productId, m.variantId, 1))).toEqual({
      sizeRefilled: true,
      productRefilled: false,
    });
    expect(sizeOf(await sizes(productId), 'M')).toMatchObject({ left: 1, held: 0 });
    // The L pieces sell, then one is refunded and comes back as an L.
    const sold = await db.transaction((tx) => sellVariant(tx, productId, l.variantId, 2));
    expect(sold).toEqual({ numbers: [1, 2], editionSize: 50 });
    expect(
      await db.transaction((tx) =>
        returnToVariant(tx, { productId, soldVariantId: l.variantId, editionNumbers: [2] }),
      ),
    ).toEqual({
      sizeRefilled: false,
      productRefilled: false,
    });
    expect(sizeOf(await sizes(productId), 'L')).toMatchObject({ left: 23, held: 0, sold: 1 });
    // Returning more than was sold is refused, and moves nothing.
    expect(
      await db.transaction((tx) =>
        returnToVariant(tx, { productId, soldVariantId: l.variantId, editionNumbers: [1, 3, 4, 5, 6] }),
      ),
    ).toBeNull();
    expect(await expectLevel(productId)).toMatchObject({ stock: 49, held: 0, sold: 1 });
    // Giving back more than is held is a bug: the CHECK fails the transaction, nothing moves.
    await expect(db.transaction((tx) => releaseVariant(tx, productId, l.variantId, 1))).rejects.toThrow();
    await expectLevel(productId);
  });

  test('an old one-run sale returned as an M: sold leaves the one run, the piece is on the M shelf', async () => {
    // Mid-drop before sizes: 27 sold, 23 left, one pool.
    const productId = await makeProduct({ stock: 23, sold: 27 });
    const split = await db.transaction((tx) =>
      replaceSizeRun(tx, productId, [
        { size: 'S', pieces: 8 },
        { size: 'M', pieces: 10 },
        { size: 'L', pieces: 5 },
      ]),
    );
    expect(split.ok).toBe(true);
    const oneRun = await findOneRun(db, productId);
    expect(oneRun).not.toBeNull();
    const run = await sizes(productId);
    expect(run.map((s) => [s.size, s.left, s.sold])).toEqual([
      [null, 0, 27],
      ['S', 8, 0],
      ['M', 10, 0],
      ['L', 5, 0],
    ]);
    const mId = await findVariantForLine(db, productId, { size: ' m ', colour: 'Black' });
    expect(mId).toBe(sizeOf(run, 'M').variantId);
    expect(await findVariantForLine(db, productId, { size: 'XXL' })).toBeNull();
    await db.transaction((tx) =>
      returnToVariant(tx, { productId, soldVariantId: oneRun!, shelfVariantId: mId!, editionNumbers: [27] }),
    );
    const after = await sizes(productId);
    expect(after[0]).toMatchObject({ size: null, sold: 26, pieces: 26 });
    expect(sizeOf(after, 'M')).toMatchObject({ left: 11, pieces: 11 });
    expect(await expectLevel(productId)).toMatchObject({ stock: 24, sold: 26, held: 0 });
  });
});

describe('replaceSizeRun', () => {
  test('refuses a run not adding up, a size below its held + sold, removing a size with sales; nothing written', async () => {
    const productId = await makeProduct({ stock: 50 });
    expect(await db.transaction((tx) => replaceSizeRun(tx, productId, [{ size: 'M', pieces: 45 }]))).toEqual({
      ok: false,
      message: 'Sizes add up to 45 of 50 pieces.',
    });
    await db.transaction((tx) => replaceSizeRun(tx, productId, lastM));
    const l = sizeOf(await sizes(productId), 'L');
    await db.transaction(async (tx) => {
      await holdVariant(tx, productId, l.variantId, 3);
      await sellVariant(tx, productId, l.variantId, 2);
    });
    const lowerL = lastM.map((e) =>
      e.size === 'L' ? { ...e, pieces: 2 } : e.size === 'XS' ? { ...e, pieces: 27 } : e,
    );
    expect(await db.transaction((tx) => replaceSizeRun(tx, productId, lowerL))).toEqual({
      ok: false,
      message: 'L has 3 pieces held or sold: it cannot have fewer.',
    });
    const withoutL = lastM
      .filter((e) => e.size !== 'L')
      .map((e) => (e.size === 'XS' ? { ...e, pieces: 29 } : e));
    expect(await db.transaction((tx) => replaceSizeRun(tx, productId, withoutL))).toEqual({
      ok: false,
      message: 'L has pieces held or sold: it stays in the run.',
    });
    // Re-spelt, re-ordered, one size dropped (nothing sold there), one added: L keeps its held and sold pieces.
    const edited = await db.transaction((tx) =>
      replaceSizeRun(tx, productId, [
        { size: 'l', pieces: 20 },
        { size: 'm', pieces: 10 },
        { size: 'S', pieces: 10 },
        { size: 'XXXL', pieces: 10 },
      ]),
    );
    expect(edited.ok).toBe(true);
    const run = await sizes(productId);
    expect(run.map((s) => [s.size, s.left, s.held, s.sold])).toEqual([
      ['l', 17, 1, 2],
      ['m', 10, 0, 0],
      ['S', 10, 0, 0],
      ['XXXL', 10, 0, 0],
    ]);
    expect(run[0]!.variantId).toBe(l.variantId);
    expect(await expectLevel(productId)).toMatchObject({ stock: 47, held: 1, sold: 2, edition: 50 });
  });

  test('a one-run product moved through the product row alone is brought level before a split', async () => {
    const productId = await makeProduct({ stock: 50 });
    // The old path: the product row alone (as the flows do until they hold per size).
    await db.execute(
      sql`update products set stock = stock - 4, sold_count = sold_count + 4 where id = ${productId}`,
    );
    expect(await db.transaction((tx) => syncOneRunVariants(tx, [productId]))).toBe(1);
    expect(await expectLevel(productId)).toMatchObject({ stock: 46, sold: 4 });
    await db.execute(
      sql`update products set stock = stock - 1, sold_count = sold_count + 1 where id = ${productId}`,
    );
    const split = await db.transaction((tx) =>
      replaceSizeRun(tx, productId, [{ size: 'One Size', pieces: 45 }]),
    );
    expect(split.ok).toBe(true);
    expect(await expectLevel(productId)).toMatchObject({ stock: 45, sold: 5 });
    // A split product is never overwritten from its row.
    expect(await db.transaction((tx) => syncOneRunVariants(tx, [productId]))).toBe(0);
  });
});
