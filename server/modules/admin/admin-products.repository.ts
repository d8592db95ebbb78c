import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { ProductPayload } from '../../../common/contracts/admin';
import { products } from '../catalog/catalog.tables';

export type ProductRow = typeof products.$inferSelect;

/** Every product, sold out and paused included, fresh from the database. */
export function listAllProductRows(db: DbOrTx): Promise<ProductRow[]> {
  return db.select().from(products).orderBy(asc(products.createdAt), asc(products.name));
}

export async function insertProductRow(db: DbOrTx, payload: ProductPayload): Promise<ProductRow> {
  const [row] = await db.insert(products).values(payload).returning();
  return row;
}

export async function updateProductRow(
  db: DbOrTx,
  id: string,
  payload: ProductPayload,
): Promise<ProductRow | null> {
  const [row] = await db
    .update(products)
    .set({ ...payload, updatedAt: sql`now()` })
    // Every piece is accounted for: sold + held in open checkouts + left never exceeds the edition.
    .where(
      and(
        eq(products.id, id),
        sql`${products.soldCount} + ${products.heldCount} + ${payload.stock} <= ${payload.editionSize ?? products.editionSize}`,
      ),
    )
    .returning();
  return row ?? null;
}

/** How many more units the product could be given: edition size less sold and held units. */
export async function findEditionRoom(
  db: DbOrTx,
  id: string,
): Promise<{ editionSize: number; sold: number; held: number } | null> {
  const [row] = await db
    .select({
      editionSize: products.editionSize,
      sold: products.soldCount,
      held: products.heldCount,
    })
    .from(products)
    .where(eq(products.id, id));
  return row ?? null;
}

/** Orders keep their snapshot (order_items.product_id is set null); cart lines go with the product. */
export async function deleteProductRow(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.delete(products).where(eq(products.id, id)).returning({ id: products.id });
  return rows.length > 0;
}
