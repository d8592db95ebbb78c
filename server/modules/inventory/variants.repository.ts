import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { editionNumbersFor } from '../../../common/domain/stock';
import {
  sizeKey,
  normaliseSizeLabel,
  validateSizeRun,
  type SizeRunEntry,
} from '../../../common/domain/size-run';
// The stock columns of catalog's products row are inventory's (inventory.tables.ts): the only writer.
import { products } from '../catalog/catalog.tables';
import { sellFromProductRow } from './inventory.repository';
import { productVariants } from './variants.tables';

// Per-size stock (ADR 015). Every statement here runs inside the caller's transaction and keeps the
// product row's stock / held_count / sold_count equal to the SUM over its variants. Lock order: the
// product row first (products in product-id order, common/domain/stock.ts), then its variant rows in
// variant-id order; a caller moving several sizes of one product calls these in variant-id order.

/**
 * Takes the product row's lock for the rest of the transaction; false when there is no such product. FOR NO
 * KEY UPDATE (as the stock UPDATEs themselves): it orders every writer of the product's stock, and leaves the
 * foreign-key checks of rows that name the product (holds, claims, cart and order lines) free, so they
 * cannot close a deadlock with it (ADR 015, lock order).
 */
async function lockProduct(tx: DbOrTx, productId: string): Promise<boolean> {
  const { rows } = await tx.execute(
    sql`select 1 from ${products} where ${products.id} = ${productId} for no key update`,
  );
  return rows.length > 0;
}

/**
 * Holds `qty` pieces of one size: all-or-nothing on the variant AND the product totals. False when that
 * size (or the product) has fewer left, or the product is paused; nothing moved then. The product is
 * locked first, so the one conditional statement after it judges the latest rows (a statement that
 * waited for the lock would otherwise read the variant as it was before the wait; ADR 015).
 */
export async function holdVariant(
  tx: DbOrTx,
  productId: string,
  variantId: string,
  qty: number,
): Promise<boolean> {
  if (!Number.isInteger(qty) || qty <= 0)
    throw new Error(`holdVariant: quantity must be a positive integer, not ${qty}`);
  if (!(await lockProduct(tx, productId))) return false;
  const { rows } = await tx.execute(sql`
    with v as (
      update product_variants
         set stock = stock - ${qty}, held_count = held_count + ${qty}, updated_at = now()
       where id = ${variantId} and product_id = ${productId} and stock >= ${qty}
         and exists (select 1 from products where id = ${productId} and in_stock and stock >= ${qty})
      returning product_id
    )
    update products set stock = products.stock - ${qty}, held_count = products.held_count + ${qty}
      from v where products.id = v.product_id
    returning products.id`);
  return rows.length === 1;
}

/**
 * Held pieces go back on the shelf of their size (an expired, cancelled or failed checkout). Returns
 * whether the size, and the product, had none left before (restock alerts), or null without a product.
 * Giving back more than is held is a bug: the CHECKs (held_count >= 0) fail the caller's transaction.
 */
export async function releaseVariant(
  tx: DbOrTx,
  productId: string,
  variantId: string,
  qty: number,
): Promise<{ sizeRefilled: boolean; productRefilled: boolean } | null> {
  if (qty === 0) return { sizeRefilled: false, productRefilled: false };
  // Product first (this UPDATE takes its lock), then the variant; both change the row they target, so
  // both act on its latest version.
  const { rows } = await tx.execute<{ product_stock: number; variant_stock: number | null }>(sql`
    with p as (
      update products set stock = stock + ${qty}, held_count = held_count - ${qty}
       where id = ${productId}
      returning id, stock
    ), v as (
      update product_variants set stock = stock + ${qty}, held_count = held_count - ${qty}, updated_at = now()
       where id = ${variantId} and product_id in (select id from p)
      returning stock
    )
    select p.stock as product_stock, (select stock from v) as variant_stock from p`);
  const row = rows[0];
  if (!row) return null;
  if (row.variant_stock === null)
    throw new Error(`releaseVariant: no variant ${variantId} of product ${productId}`);
  return { sizeRefilled: row.variant_stock === qty, productRefilled: row.product_stock === qty };
}

/**
 * Held pieces of one size become sold: the variant's and the product's held → sold, and the pieces get
 * the design's next edition numbers (No. 17 of 50 whatever the size): returned pieces' numbers first, then
 * new ones from products.sold_count (editionNumbersFor, sellFromProductRow). The
 * sale of a size's last piece stamps its sold_out_at, the edition's last the product's. Null when the
 * product is gone (its order keeps no numbers, as before).
 */
export async function sellVariant(
  tx: DbOrTx,
  productId: string,
  variantId: string,
  qty: number,
): Promise<{ numbers: number[]; editionSize: number } | null> {
  const { rows } = await tx.execute<{ sold_count: number; edition_size: number; reused: number[]; variants: number }>(sql`
    with ${sellFromProductRow(productId, qty)}, v as (
      update product_variants
         set sold_count = sold_count + ${qty}, held_count = held_count - ${qty},
             sold_out_at = case when stock = 0 and held_count - ${qty} = 0 then coalesce(sold_out_at, now()) else sold_out_at end,
             updated_at = now()
       where id = ${variantId} and product_id in (select id from p)
      returning id
    )
    select p.sold_count, p.edition_size, p.reused, (select count(*)::int from v) as variants from p`);
  const row = rows[0];
  if (!row) return null;
  if (row.variants !== 1) throw new Error(`sellVariant: no variant ${variantId} of product ${productId}`);
  return { numbers: editionNumbersFor(row.sold_count, qty, row.reused), editionSize: row.edition_size };
}

/**
 * A sold piece comes back (a refund, a returned piece): it leaves the sold count of the variant that sold
 * it and goes on the shelf of `shelfVariantId` (the size on its order line; the same variant by default),
 * so an old one-run sale returned as an M becomes an M on the shelf. Its edition number waits in
 * products.returned_numbers for the next sale. The edition and the size are no longer sold out. Null when
 * the product has not sold that many, a number was never given or is already back (or it is gone).
 */
export async function returnToVariant(
  tx: DbOrTx,
  args: {
    productId: string;
    soldVariantId: string;
    shelfVariantId?: string;
    /** The returned pieces' edition numbers: distinct whole numbers from 1 (the caller checks). */
    editionNumbers: readonly number[];
  },
): Promise<{ sizeRefilled: boolean; productRefilled: boolean } | null> {
  const { productId, soldVariantId, editionNumbers } = args;
  const qty = editionNumbers.length;
  // An array literal of checked integers, sent as one parameter (drizzle spreads a JS array into a list).
  const numbers = `{${editionNumbers.join(',')}}`;
  const highest = Math.max(...editionNumbers);
  const shelf = args.shelfVariantId ?? soldVariantId;
  const { rows } = await tx.execute<{
    product_stock: number;
    shelf_stock: number | null;
    variants: number;
  }>(sql`
    with p as (
      update products
         set sold_count = sold_count - ${qty}, stock = stock + ${qty}, sold_out_at = null, updated_at = now(),
             returned_numbers = array(select n from unnest(returned_numbers || ${numbers}::integer[]) n order by n)
       where id = ${productId} and sold_count >= ${qty}
         -- Only numbers given out and not back yet: 1 … the highest given (sold + waiting), none waiting.
         and ${highest}::int <= sold_count + cardinality(returned_numbers)
         and not (returned_numbers && ${numbers}::integer[])
      returning id, stock
    ), v as (
      update product_variants
         set sold_count = sold_count - case when id = ${soldVariantId} then ${qty} else 0 end,
             stock = stock + case when id = ${shelf} then ${qty} else 0 end,
             sold_out_at = case when id = ${shelf} then null else sold_out_at end,
             updated_at = now()
       where id in (${soldVariantId}, ${shelf}) and product_id in (select id from p)
      returning id, stock
    )
    select p.stock as product_stock, (select stock from v where id = ${shelf}) as shelf_stock,
           (select count(*)::int from v) as variants
      from p`);
  const row = rows[0];
  if (!row) return null;
  if (row.variants !== (shelf === soldVariantId ? 1 : 2) || row.shelf_stock === null)
    throw new Error(
      `returnToVariant: variants ${soldVariantId}/${shelf} are not both of product ${productId}`,
    );
  return { sizeRefilled: row.shelf_stock === qty, productRefilled: row.product_stock === qty };
}

export interface SizeStock {
  variantId: string;
  /** null: the one run (any listed size). */
  size: string | null;
  colour: string | null;
  position: number;
  /** Pieces a shopper can take now (held ones are already out). */
  left: number;
  held: number;
  sold: number;
  /** stock + held + sold: the pieces of this size in the edition. */
  pieces: number;
  soldOutAt: Date | null;
}

/**
 * Per-size stock of these products (live stock: per size left), in run order. A product without
 * variant rows (created since migration 0021 and not split yet) is absent: one pool, products.stock.
 */
export async function readSizeStock(
  db: DbOrTx,
  productIds: readonly string[],
): Promise<Map<string, SizeStock[]>> {
  const out = new Map<string, SizeStock[]>();
  if (productIds.length === 0) return out;
  const rows = await db
    .select()
    .from(productVariants)
    .where(inArray(productVariants.productId, [...productIds]))
    .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id));
  for (const r of rows) {
    const list = out.get(r.productId) ?? [];
    list.push({
      variantId: r.id,
      size: r.size,
      colour: r.colour,
      position: r.position,
      left: r.stock,
      held: r.heldCount,
      sold: r.soldCount,
      pieces: r.stock + r.heldCount + r.soldCount,
      soldOutAt: r.soldOutAt,
    });
    out.set(r.productId, list);
  }
  return out;
}

/**
 * The variant an order line names (size, and colour where colours are stocked apart), matched as the
 * shopper's cart does (case-insensitive, trimmed); null when the run has no such size.
 */
export async function findVariantForLine(
  db: DbOrTx,
  productId: string,
  line: { size: string | null; colour?: string | null },
): Promise<string | null> {
  if (!line.size) return null;
  const rows = await db
    .select({ id: productVariants.id, colour: productVariants.colour })
    .from(productVariants)
    .where(
      and(
        eq(productVariants.productId, productId),
        sql`lower(${productVariants.size}) = ${sizeKey(line.size)}`,
      ),
    );
  const colour = (line.colour ?? '').trim().toLowerCase();
  const match = rows.find((r) => r.colour === null || r.colour.toLowerCase() === colour);
  return match?.id ?? null;
}

/**
 * Gives a product without variant rows its "one run" (size null) carrying the product's counts, so the
 * per-size statements can hold it. Idempotent (the unique index makes a second one a no-op).
 */
export async function ensureOneRun(tx: DbOrTx, productId: string): Promise<void> {
  await tx.execute(sql`
    insert into product_variants (product_id, size, colour, position, stock, held_count, sold_count)
    select p.id, null, null, 0, p.stock, p.held_count, p.sold_count from products p
     where p.id = ${productId} and not exists (select 1 from product_variants v where v.product_id = p.id)
    on conflict do nothing`);
}

/**
 * Copies the product's counts onto products whose only variant is the one run: the paths that still move
 * stock through the product row alone (before the flows call the per-size statements) leave that row
 * behind; a split product is never touched. Returns how many rows were brought level.
 */
export async function syncOneRunVariants(tx: DbOrTx, productIds?: readonly string[]): Promise<number> {
  const only = productIds
    ? sql`and p.id in (${sql.join(
        productIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  if (productIds && productIds.length === 0) return 0;
  const { rowCount } = await tx.execute(sql`
    update product_variants v
       set stock = p.stock, held_count = p.held_count, sold_count = p.sold_count, updated_at = now()
      from products p
     where v.product_id = p.id and v.size is null and v.colour is null
       and (v.stock, v.held_count, v.sold_count) is distinct from (p.stock, p.held_count, p.sold_count)
       and not exists (select 1 from product_variants o where o.product_id = p.id and o.id <> v.id)
       ${only}`);
  return rowCount ?? 0;
}

export type ReplaceSizeRunResult = { ok: true; sizes: SizeStock[] } | { ok: false; message: string };

export const replaceSizeRunMessages = {
  noProduct: 'Product not found.',
  belowTaken: (size: string, taken: number) =>
    `${size} has ${taken} ${taken === 1 ? 'piece' : 'pieces'} held or sold: it cannot have fewer.`,
  removeTaken: (size: string) => `${size} has pieces held or sold: it stays in the run.`,
} as const;

/**
 * The owner splits or edits the size run. The run's pieces (plus the pieces kept on the old one-run row,
 * held or sold before the split) must add up to the edition; a size never goes below its own held + sold
 * pieces, and a size with any of them stays. Each size's stock becomes its pieces less held and sold; the
 * product's stock becomes their sum. The one-run row keeps only its held and sold pieces and goes once it
 * has none. Refusals say why in the owner's words; nothing is written then.
 */
export async function replaceSizeRun(
  tx: DbOrTx,
  productId: string,
  run: readonly SizeRunEntry[],
): Promise<ReplaceSizeRunResult> {
  const [product] = await tx
    .select({ editionSize: products.editionSize })
    .from(products)
    .where(eq(products.id, productId))
    .for('no key update');
  if (!product) return { ok: false, message: replaceSizeRunMessages.noProduct };
  // An unsplit product's row is the truth until the flows move stock per size: bring its one run level first.
  await ensureOneRun(tx, productId);
  await syncOneRunVariants(tx, [productId]);
  const existing = await tx
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.id))
    .for('update');
  const oneRun = existing.find((v) => v.size === null && v.colour === null);
  const kept = oneRun ? oneRun.heldCount + oneRun.soldCount : 0;
  const check = validateSizeRun(run, product.editionSize, kept);
  if (!check.ok) return { ok: false, message: check.issues[0]!.message };

  const keyOf = (size: string | null, colour: string | null | undefined) =>
    `${size === null ? '' : sizeKey(size)}\u0000${(colour ?? '').trim().toLowerCase()}`;
  const byKey = new Map(existing.filter((v) => v !== oneRun).map((v) => [keyOf(v.size, v.colour), v]));
  const plan = run.map((entry, i) => {
    const size = normaliseSizeLabel(entry.size);
    const colour = (entry.colour ?? '').trim() || null;
    const current = byKey.get(keyOf(size, colour));
    if (current) byKey.delete(keyOf(size, colour));
    const taken = current ? current.heldCount + current.soldCount : 0;
    return { size, colour, position: i + 1, pieces: entry.pieces, current, taken };
  });
  for (const p of plan)
    if (p.pieces < p.taken) return { ok: false, message: replaceSizeRunMessages.belowTaken(p.size, p.taken) };
  for (const gone of byKey.values())
    if (gone.heldCount + gone.soldCount > 0)
      return { ok: false, message: replaceSizeRunMessages.removeTaken(gone.size ?? '') };

  // Sizes left out have nothing held or sold: removed first, so a re-spelt label never meets its old row.
  const removed = [...byKey.values()].map((v) => v.id);
  if (oneRun && kept === 0) removed.push(oneRun.id);
  if (removed.length > 0) await tx.delete(productVariants).where(inArray(productVariants.id, removed));
  if (oneRun && kept > 0)
    await tx
      .update(productVariants)
      .set({ stock: 0, position: 0, updatedAt: new Date() })
      .where(eq(productVariants.id, oneRun.id));
  for (const p of plan) {
    const stock = p.pieces - p.taken;
    if (p.current)
      await tx
        .update(productVariants)
        .set({
          size: p.size,
          colour: p.colour,
          position: p.position,
          stock,
          soldOutAt: stock + p.current.heldCount > 0 ? null : p.current.soldOutAt,
          updatedAt: new Date(),
        })
        .where(eq(productVariants.id, p.current.id));
    else
      await tx
        .insert(productVariants)
        .values({ productId, size: p.size, colour: p.colour, position: p.position, stock });
  }
  // The product's stock is the sum of its sizes'; held and sold did not move.
  await tx
    .update(products)
    .set({ stock: plan.reduce((a, p) => a + p.pieces - p.taken, 0), updatedAt: new Date() })
    .where(eq(products.id, productId));
  const sizes = (await readSizeStock(tx, [productId])).get(productId) ?? [];
  return { ok: true, sizes };
}

/** The one-run row of a product, if it still has one (holds of unsplit products go there). */
export async function findOneRun(db: DbOrTx, productId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(
      and(
        eq(productVariants.productId, productId),
        isNull(productVariants.size),
        isNull(productVariants.colour),
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

/** A product's variants as the buying path maps an order line to one (after the product's lock). */
export async function listVariantKeys(
  tx: DbOrTx,
  productId: string,
): Promise<Array<{ id: string; size: string | null; colour: string | null }>> {
  return tx
    .select({ id: productVariants.id, size: productVariants.size, colour: productVariants.colour })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.id));
}

/**
 * Moves `delta` pieces of one variant between its shelf and its held pieces (negative: taken into a hold,
 * positive: given back), only when its shelf stays >= 0. The caller holds the product's lock and moves
 * the product's totals by the sum in the same transaction. False: that size has too few left.
 */
export async function moveVariantHeld(tx: DbOrTx, variantId: string, delta: number): Promise<boolean> {
  if (delta === 0) return true;
  const rows = await tx
    .update(productVariants)
    .set({
      stock: sql`${productVariants.stock} + ${delta}`,
      heldCount: sql`${productVariants.heldCount} - ${delta}`,
      updatedAt: new Date(),
    })
    .where(and(eq(productVariants.id, variantId), sql`${productVariants.stock} + ${delta} >= 0`))
    .returning({ id: productVariants.id });
  return rows.length === 1;
}
