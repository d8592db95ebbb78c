import { asc, sql } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { products } from '../../server/modules/catalog/catalog.tables';

/**
 * Grows the catalogue to `total` products by copying the existing ones (same copy, images,
 * sizes and colours; numbered names), so size and speed tests see a realistic big shop.
 * New products sort after the existing ones (later creation time).
 */
export async function growCatalogue(db: Db, total: number): Promise<number> {
  const existing = await db.select().from(products).orderBy(asc(products.createdAt), asc(products.name));
  if (existing.length === 0) throw new Error('growCatalogue needs at least one product to copy');
  const missing = total - existing.length;
  const base = Date.now();
  const rows = Array.from({ length: Math.max(0, missing) }, (_, i) => {
    const { id: _id, createdAt: _c, updatedAt: _u, soldCount: _s, ...src } = existing[i % existing.length]!;
    return {
      ...src,
      name: `${src.name} No. ${existing.length + i + 1}`,
      stock: 1 + ((i * 7) % 50),
      inStock: true,
      createdAt: new Date(base + i),
      updatedAt: new Date(base + i),
    };
  });
  for (let i = 0; i < rows.length; i += 250) await db.insert(products).values(rows.slice(i, i + 250));
  const [{ n }] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from products`)).rows as [{ n: number }];
  return n;
}
