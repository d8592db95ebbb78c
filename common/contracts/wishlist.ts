import { z } from 'zod';
import { safeString } from './safe-string';
import { productSchema } from './catalog';

/** Most pieces one shopper's wishlist keeps: enough for any real list, a bound on what a script can store. */
export const WISHLIST_MAX = 100;

export const wishlistBody = z.object({ productId: safeString().uuid({ message: 'Invalid product id' }) });
export type WishlistBody = z.infer<typeof wishlistBody>;

export const wishlistItemParams = z.object({ productId: safeString().uuid({ message: 'Invalid product id' }) });

/** One saved piece, with the product as the catalogue shows it now. */
export const wishlistItemSchema = z.object({
  productId: safeString().uuid(),
  /** When it was saved (ISO 8601). */
  savedAt: safeString(),
  product: productSchema,
});
export type WishlistItem = z.infer<typeof wishlistItemSchema>;

/** GET /api/wishlist: newest saved first. */
export const wishlistSchema = z.object({ items: z.array(wishlistItemSchema) });
export type Wishlist = z.infer<typeof wishlistSchema>;

/** POST /api/wishlist and DELETE /api/wishlist/:productId: whether the piece is saved now. */
export const wishlistChangeSchema = z.object({ productId: safeString().uuid(), saved: z.boolean() });
export type WishlistChange = z.infer<typeof wishlistChangeSchema>;
