import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { products } from '../catalog/catalog.tables';
import { checkouts } from '../checkout/checkout.tables';

/**
 * Units a shopper has claimed of a product (docs/product.md §9). One row per identity a checkout was made
 * under: the session, the folded e-mail and shipping address and, once paid, the card. A shopper's count for a
 * product is the sum of its held and consumed rows over any of its identities; released rows are kept
 * (with released_at) so a session that let a hold go cannot take it again ahead of others waiting.
 */
export const purchaseClaims = pgTable(
  'purchase_claims',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    checkoutId: uuid('checkout_id')
      .notNull()
      .references(() => checkouts.id, { onDelete: 'cascade' }),
    /**
     * 'session:<id>', 'mailbox:<hmac>' and 'delivery:<hmac>' of the folded e-mail and address (ADR 013), or
     * 'card:<fingerprint>'; rows from before folding hold 'email:<hmac>' / 'address:<hmac>' (still counted).
     * Never personal data in clear.
     */
    identity: text('identity').notNull(),
    quantity: integer('quantity').notNull(),
    /** held (checkout open) → consumed (became an order) | released (hold expired, cancelled or refunded). */
    status: text('status').notNull().default('held'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    index('purchase_claims_product_identity_idx').on(t.productId, t.identity),
    index('purchase_claims_checkout_idx').on(t.checkoutId),
    check('purchase_claims_qty', sql`${t.quantity} > 0`),
    check('purchase_claims_status_valid', sql`${t.status} in ('held', 'consumed', 'released')`),
  ],
);
