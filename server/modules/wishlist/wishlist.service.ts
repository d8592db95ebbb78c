import { WISHLIST_MAX, type Wishlist, type WishlistChange } from '../../../common/contracts/wishlist';
import type { Db } from '../../db/client';
import { conflict, notFound } from '../../lib/http-error';
import type { Product } from '../../../common/contracts/catalog';
import { listWishlistRows, removeWishlistRow, saveWishlistRow } from './wishlist.repository';

/** What the wishlist reads of the catalogue: a product from its snapshot (the catalog service fits it). */
export interface WishlistCatalog {
  getProduct(id: string): Promise<Product | null>;
}

/**
 * A shopper's saved pieces, per session (the session cookie keeps them across visits). Products come
 * from the catalogue's snapshot, so a list read costs one small query; a deleted product leaves the
 * list with its row (ON DELETE CASCADE).
 */
export function createWishlistService(deps: { db: Db; catalog: WishlistCatalog; max?: number }) {
  const { db, catalog } = deps;
  const max = deps.max ?? WISHLIST_MAX;
  return {
    async list(sessionId: string | null): Promise<Wishlist> {
      if (!sessionId) return { items: [] };
      const rows = await listWishlistRows(db, sessionId);
      const items = [];
      for (const row of rows) {
        const product = await catalog.getProduct(row.productId);
        if (product) items.push({ productId: row.productId, savedAt: row.createdAt.toISOString(), product });
      }
      return { items };
    },

    /** `sessionFor` creates the session only when there is something to keep. */
    async save(sessionFor: () => Promise<string>, productId: string): Promise<WishlistChange> {
      const product = await catalog.getProduct(productId);
      if (!product) throw notFound('Product not found');
      const outcome = await saveWishlistRow(db, await sessionFor(), productId, max);
      if (outcome === 'full') {
        throw conflict(`Your wishlist is full (${max} pieces). Remove one to save another.`);
      }
      return { productId, saved: true };
    },

    async remove(sessionId: string | null, productId: string): Promise<WishlistChange> {
      if (sessionId) await removeWishlistRow(db, sessionId, productId);
      return { productId, saved: false };
    },
  };
}

export type WishlistService = ReturnType<typeof createWishlistService>;
