import { asc, eq } from 'drizzle-orm';
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

export function listCategoryRows(db: DbOrTx): Promise<CategoryRow[]> {
  return db.select().from(categories).orderBy(asc(categories.name));
}

export async function findCategoryRow(db: DbOrTx, slug: string): Promise<CategoryRow | null> {
  const [row] = await db.select().from(categories).where(eq(categories.slug, slug)).limit(1);
  return row ?? null;
}
