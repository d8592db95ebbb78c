import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { lockSeed } from '../../lib/advisory-locks';
import { wishlistItems } from './wishlist.tables';

export type WishlistRow = typeof wishlistItems.$inferSelect;

export function listWishlistRows(db: DbOrTx, sessionId: string): Promise<WishlistRow[]> {
  return db
    .select()
    .from(wishlistItems)
    .where(eq(wishlistItems.sessionId, sessionId))
    .orderBy(desc(wishlistItems.createdAt), desc(wishlistItems.productId));
}

/**
 * Saves a piece unless the list already holds `max` others. The count and the insert run under the
 * session's advisory lock in one transaction, so two tabs saving at once cannot pass the cap together.
 * 'saved' also when it was already there.
 */
export async function saveWishlistRow(
  db: DbOrTx,
  sessionId: string,
  productId: string,
  max: number,
): Promise<'saved' | 'full'> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`wishlist:${sessionId}`}, ${lockSeed('wishlist')}))`);
    const [existing] = await tx
      .select({ productId: wishlistItems.productId })
      .from(wishlistItems)
      .where(and(eq(wishlistItems.sessionId, sessionId), eq(wishlistItems.productId, productId)));
    if (existing) return 'saved';
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(wishlistItems)
      .where(eq(wishlistItems.sessionId, sessionId));
    if (n >= max) return 'full';
    await tx.insert(wishlistItems).values({ sessionId, productId }).onConflictDoNothing();
    return 'saved';
  });
}

export async function removeWishlistRow(db: DbOrTx, sessionId: string, productId: string): Promise<void> {
  await db
    .delete(wishlistItems)
    .where(and(eq(wishlistItems.sessionId, sessionId), eq(wishlistItems.productId, productId)));
}
