import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { categories, products } from './catalog.tables';

export type ProductRow = typeof products.$inferSelect;
export type CategoryRow = typeof categories.$inferSelect;

export function listProductRows(db: DbOrTx): Promise<ProductRow[]> {
  return db.select().from(products).orderBy(asc(products.createdAt), asc(products.name));
}

export async function findProductRow(db: DbOrTx, id: string): Promise<ProductRow | null> {
  const [row] = await db.select().from(products).where(eq(products.id, id)).limit(1);
  return row ?? null;
}

export function findProductRows(db: DbOrTx, ids: readonly string[]): Promise<ProductRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(products)
    .where(inArray(products.id, [...ids]));
}

export function listCategoryRows(db: DbOrTx): Promise<CategoryRow[]> {
  return db.select().from(categories).orderBy(asc(categories.name));
}

export async function findCategoryRow(db: DbOrTx, slug: string): Promise<CategoryRow | null> {
  const [row] = await db.select().from(categories).where(eq(categories.slug, slug)).limit(1);
  return row ?? null;
}

/** A product's own fields: the stock columns (stock, edition size, held and sold) are inventory's. */
export type ProductDetails = Omit<typeof products.$inferInsert, 'id' | 'stock' | 'editionSize' | 'soldCount' | 'heldCount' | 'createdAt' | 'updatedAt'>;

/** A new product starts with no stock; inventory sets its stock and edition size in the same transaction. */
export async function insertProductRow(db: DbOrTx, details: ProductDetails): Promise<ProductRow> {
  const [row] = await db.insert(products).values(details).returning();
  return row!;
}

export async function updateProductRow(db: DbOrTx, id: string, details: ProductDetails): Promise<ProductRow | null> {
  const [row] = await db
    .update(products)
    .set({ ...details, updatedAt: sql`now()` })
    .where(eq(products.id, id))
    .returning();
  return row ?? null;
}

/** Orders keep their snapshot (order_items.product_id is set null); cart lines go with the product. */
export async function deleteProductRow(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.delete(products).where(eq(products.id, id)).returning({ id: products.id });
  return rows.length > 0;
}
