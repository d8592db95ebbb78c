import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { products } from '../catalog/catalog.tables';
import { productVariants } from '../inventory/variants.tables';

/**
 * Per-product 'Notify me' (ADR 011): 'release' is mailed when the drop opens; 'restock' when a
 * refund or an expired hold returns a unit of a sold-out edition, first come first served, and the first
 * person mailed gets a short reserved window (reserved_until) in which only their claim link can buy it.
 * Per size (ADR 015; migration 0022): a signup may wait for one size (variant_id; null: any size), and a
 * reservation keeps a piece of one size (reserved_variant_id; null: of the whole edition, an unsplit product).
 */
export const productAlerts = pgTable(
  'product_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** Keyed hash of the folded mailbox (ADR 013): one signup per inbox and product, however it is spelt. */
    mailboxKey: text('mailbox_key'),
    kind: text('kind').notNull(),
    /** Secret of the unsubscribe link (one click, RFC 8058): it claims nothing. */
    token: text('token').notNull().unique(),
    /**
     * Secret of the claim link of a reserved piece, new with each reservation and never the unsubscribe token
     * (ADR 011, amended); only the browser that used it first (claimed_at, the claim cookie) may use it again.
     */
    claimToken: text('claim_token').unique(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    reservedUntil: timestamp('reserved_until', { withTimezone: true }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
    /** The size this signup waits for ("tell me if an M comes back"); null: any size. */
    variantId: uuid('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    /** The size of the piece a live reservation keeps (the mail names it); null: any piece of the edition. */
    reservedVariantId: uuid('reserved_variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
  },
  (t) => [
    unique('product_alerts_once').on(t.productId, t.email, t.kind),
    uniqueIndex('product_alerts_mailbox_once').on(t.productId, t.mailboxKey, t.kind),
    index('product_alerts_pending_idx').on(t.productId, t.kind, t.createdAt),
    index('product_alerts_variant_idx').on(t.variantId).where(sql`${t.variantId} is not null`),
    index('product_alerts_reserved_variant_idx').on(t.reservedVariantId).where(sql`${t.reservedVariantId} is not null`),
    check('product_alerts_kind_valid', sql`${t.kind} in ('release', 'restock')`),
  ],
);
