import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { sourcesOf } from '../../../common/domain/checkout-lifecycle';
// The stock columns of catalog's products row are inventory's (see inventory.tables.ts): the only writer.
import { products } from '../catalog/catalog.tables';
import { stockHolds } from './inventory.tables';

/**
 * The one conditional update that guards a drop: takes `take` units (after giving back `release`)
 * only when that many are there and the product is on sale. The CHECK (stock >= 0) backs it up.
 * Taken units move to held_count (released ones back), so CHECK products_within_edition sees them.
 * `refilled`: the move gave units back to a product that had none left (restock alerts).
 */
export async function moveStock(
  tx: DbOrTx,
  productId: string,
  release: number,
  take: number,
): Promise<{ moved: boolean; refilled: boolean }> {
  const delta = release - take;
  if (take === 0) {
    if (delta === 0) return { moved: true, refilled: false };
    const [row] = await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${delta}`, heldCount: sql`${products.heldCount} - ${delta}` })
      .where(eq(products.id, productId))
      .returning({ stock: products.stock });
    return { moved: true, refilled: Boolean(row && delta > 0 && row.stock === delta) };
  }
  const rows = await tx
    .update(products)
    .set({ stock: sql`${products.stock} + ${delta}`, heldCount: sql`${products.heldCount} - ${delta}` })
    .where(
      and(
        eq(products.id, productId),
        eq(products.inStock, true),
        gte(sql`${products.stock} + ${release}`, take),
      ),
    )
    .returning({ id: products.id, stock: products.stock });
  const row = rows[0];
  return { moved: Boolean(row), refilled: Boolean(row && delta > 0 && row.stock === delta) };
}

/**
 * The product row's part of a sale of `qty` held units, as the CTEs `r` and `p` of one statement: `p`
 * returns the row's id, its new sold_count and edition_size, and `reused`, the returned edition numbers
 * the sale took (editionNumbersFor puts the pieces' numbers together from them). The sale of the
 * edition's last piece stamps sold_out_at ('All 50 sold in 3 min 12 s').
 * `r` reads the returned numbers under the row's lock, not from the statement's snapshot, so two sales
 * never take the same number; `p` keeps what the sale leaves (`[qty + 1:]`) and hands back what it took
 * (`[1:qty]`), in the one statement (a SELECT of its own would cost the drop's hot path a round trip).
 * `for no key update` is the lock the UPDATE takes anyway; `for update` would also wait for every open
 * transaction whose foreign key names the product (a hold, an order line): fifty payments at once
 * (purchase-limits.test.ts) stalled past a minute with it, and take under 2 s without.
 */
export function sellFromProductRow(productId: string, qty: number) {
  return sql`r as (select id, returned_numbers from products where id = ${productId} for no key update),
    p as (
      update products
         set sold_count = sold_count + ${qty}, held_count = held_count - ${qty},
             returned_numbers = r.returned_numbers[(${qty}::int + 1):],
             sold_out_at = case when sold_count + ${qty} >= edition_size then coalesce(sold_out_at, now()) else null end,
             updated_at = now()
        from r
       where products.id = r.id
      returning products.id, products.sold_count, products.edition_size, r.returned_numbers[1:${qty}::int] as reused
    )`;
}

/** Held units of a product (no size run) become sold units; null when the product is gone. */
export async function addSoldUnits(
  tx: DbOrTx,
  productId: string,
  quantity: number,
): Promise<{ soldCount: number; editionSize: number; reused: number[] } | null> {
  const { rows } = await tx.execute<{ sold_count: number; edition_size: number; reused: number[] }>(
    sql`with ${sellFromProductRow(productId, quantity)} select sold_count, edition_size, reused from p`,
  );
  const row = rows[0];
  return row ? { soldCount: row.sold_count, editionSize: row.edition_size, reused: row.reused } : null;
}

// ---- stock holds ------------------------------------------------------------------------------

export async function insertHolds(
  tx: DbOrTx,
  checkoutId: string,
  holds: ReadonlyArray<{ productId: string; variantId: string | null; quantity: number }>,
): Promise<void> {
  if (holds.length === 0) return;
  await tx
    .insert(stockHolds)
    .values(holds.map(({ productId, variantId, quantity }) => ({ checkoutId, productId, variantId, quantity })));
}

/** Marks a checkout's held units `to` and returns what they were (product, size variant, units). */
export async function finishHolds(
  tx: DbOrTx,
  checkoutIds: readonly string[],
  to: 'released' | 'consumed',
): Promise<Array<{ productId: string; variantId: string | null; quantity: number }>> {
  if (checkoutIds.length === 0) return [];
  return tx
    .update(stockHolds)
    .set({ status: to })
    .where(and(inArray(stockHolds.checkoutId, [...checkoutIds]), inArray(stockHolds.status, sourcesOf('stockHold', to))))
    .returning({ productId: stockHolds.productId, variantId: stockHolds.variantId, quantity: stockHolds.quantity });
}

/** The units a checkout's consumed holds took, per product and size variant (the sale moves exactly these). */
export async function sumConsumedHolds(
  db: DbOrTx,
  checkoutId: string,
): Promise<Array<{ productId: string; variantId: string | null; quantity: number }>> {
  return db
    .select({
      productId: stockHolds.productId,
      variantId: stockHolds.variantId,
      quantity: sql<number>`sum(${stockHolds.quantity})::int`,
    })
    .from(stockHolds)
    .where(and(eq(stockHolds.checkoutId, checkoutId), eq(stockHolds.status, 'consumed')))
    .groupBy(stockHolds.productId, stockHolds.variantId);
}

/** Units still held for these checkouts, per product. */
export async function sumHeldUnits(
  db: DbOrTx,
  checkoutIds: readonly string[],
): Promise<Array<{ productId: string; quantity: number }>> {
  if (checkoutIds.length === 0) return [];
  return db
    .select({ productId: stockHolds.productId, quantity: sql<number>`sum(${stockHolds.quantity})::int` })
    .from(stockHolds)
    .where(and(inArray(stockHolds.checkoutId, [...checkoutIds]), eq(stockHolds.status, 'held')))
    .groupBy(stockHolds.productId);
}

// ---- stock levels -----------------------------------------------------------------------------

/** The live stock of a product (not the catalogue snapshot); null when there is no such product. */
export async function findStock(
  db: DbOrTx,
  productId: string,
  opts: { lock?: boolean } = {},
): Promise<{ stock: number; inStock: boolean } | null> {
  const query = db
    .select({ stock: products.stock, inStock: products.inStock })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  // `lock`: the row's lock for the rest of the transaction (a per-size move takes the product first, ADR 015).
  // FOR NO KEY UPDATE, the lock the conditional UPDATEs take: it queues every stock writer as FOR UPDATE would,
  // but not the foreign-key checks of rows that point at the product (cart lines, holds, claims, order lines),
  // which FOR UPDATE blocks — a cart add waiting on a hold that waits on the cart add's own locks deadlocked.
  const [row] = opts.lock ? await query.for('no key update') : await query;
  return row ?? null;
}

/**
 * The owner sets stock and edition size; refused (null) when sold + held + stock would exceed the
 * edition, or when there is no such product.
 */
export async function setStockLevels(
  db: DbOrTx,
  id: string,
  levels: { stock: number; editionSize?: number },
): Promise<{ stock: number; editionSize: number } | null> {
  const [row] = await db
    .update(products)
    .set({ stock: levels.stock, ...(levels.editionSize === undefined ? {} : { editionSize: levels.editionSize }) })
    // Every piece is accounted for: sold + held in open checkouts + left never exceeds the edition.
    .where(
      and(
        eq(products.id, id),
        sql`${products.soldCount} + ${products.heldCount} + ${levels.stock} <= ${levels.editionSize ?? products.editionSize}`,
      ),
    )
    .returning({ stock: products.stock, editionSize: products.editionSize });
  return row ?? null;
}

/** How many more units the product could be given: edition size less sold and held units. */
export async function findEditionRoom(
  db: DbOrTx,
  id: string,
): Promise<{ editionSize: number; stock: number; sold: number; held: number } | null> {
  const [row] = await db
    .select({
      editionSize: products.editionSize,
      stock: products.stock,
      sold: products.soldCount,
      held: products.heldCount,
    })
    .from(products)
    .where(eq(products.id, id));
  return row ?? null;
}

/** findEditionRoom of several products, one query (the owner's drops list). */
export async function findEditionRooms(
  db: DbOrTx,
  ids: readonly string[],
): Promise<Array<{ id: string; editionSize: number; stock: number; sold: number; held: number }>> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: products.id,
      editionSize: products.editionSize,
      stock: products.stock,
      sold: products.soldCount,
      held: products.heldCount,
    })
    .from(products)
    .where(inArray(products.id, [...ids]));
}

/** What the live stock of these products shows (GET /api/products/:id/stock and its event stream). */
export async function findLiveStock(
  db: DbOrTx,
  ids: readonly string[],
): Promise<
  Array<{
    id: string;
    stock: number;
    inStock: boolean;
    editionSize: number;
    heldCount: number;
    soldOutAt: Date | null;
    releaseAt: Date | null;
    createdAt: Date;
  }>
> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: products.id,
      stock: products.stock,
      inStock: products.inStock,
      editionSize: products.editionSize,
      heldCount: products.heldCount,
      soldOutAt: products.soldOutAt,
      releaseAt: products.releaseAt,
      createdAt: products.createdAt,
    })
    .from(products)
    .where(inArray(products.id, [...ids]));
}
