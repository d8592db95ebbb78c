import { and, eq, gte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { products } from '../catalog/catalog.tables';

/**
 * The one conditional update that guards a drop: takes `take` units (after giving back `release`)
 * only when that many are there and the product is on sale. The CHECK (stock >= 0) backs it up.
 * Taken units move to held_count (released ones back), so CHECK products_within_edition sees them.
 */
export async function moveStock(
  tx: DbOrTx,
  productId: string,
  release: number,
  take: number,
): Promise<boolean> {
  const delta = release - take;
  if (take === 0) {
    if (delta !== 0)
      await tx
        .update(products)
        .set({ stock: sql`${products.stock} + ${delta}`, heldCount: sql`${products.heldCount} - ${delta}` })
        .where(eq(products.id, productId));
    return true;
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
    .returning({ id: products.id });
  return rows.length > 0;
}

/** Held units become sold units; returns the new sold count (edition numbers end there). */
export async function addSoldUnits(
  tx: DbOrTx,
  productId: string,
  quantity: number,
): Promise<{ soldCount: number; editionSize: number } | null> {
  const [row] = await tx
    .update(products)
    .set({
      soldCount: sql`${products.soldCount} + ${quantity}`,
      heldCount: sql`${products.heldCount} - ${quantity}`,
      updatedAt: new Date(),
    })
    .where(eq(products.id, productId))
    .returning({ soldCount: products.soldCount, editionSize: products.editionSize });
  return row ?? null;
}
