import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { products } from '../catalog/catalog.tables';

/** Pieces a shopper saved for later, per session (kept as long as the session cookie is). */
export const wishlistItems = pgTable(
  'wishlist_items',
  {
    sessionId: text('session_id').notNull(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.productId], name: 'wishlist_items_pk' }),
    index('wishlist_items_product_idx').on(t.productId),
  ],
);
