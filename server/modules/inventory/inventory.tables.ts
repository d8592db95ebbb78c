import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { STOCK_HOLD_STATUSES } from '../../../common/domain/checkout-lifecycle';
import { products } from '../catalog/catalog.tables';
import { checkouts } from '../checkout/checkout.tables';
import { productVariants } from './variants.tables';

// Inventory also owns the stock columns of catalog's `products` row (stock, held_count, sold_count,
// returned_numbers, edition_size): they stay there so one CHECK can keep every edition whole; only
// inventory writes them.

/** Units taken out of products.stock for an open checkout; released on expiry or failure. */
export const stockHolds = pgTable(
  'stock_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    checkoutId: uuid('checkout_id')
      .notNull()
      .references(() => checkouts.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The size (variant) the units were taken from (ADR 015); null: held through the product alone, or a variant since removed. */
    variantId: uuid('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    quantity: integer('quantity').notNull(),
    /** held → consumed (became an order) | released (returned to stock). */
    status: text('status').notNull().default('held'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('stock_holds_checkout_idx').on(t.checkoutId),
    index('stock_holds_variant_idx').on(t.variantId),
    check('stock_holds_qty', sql`${t.quantity} > 0`),
    check('stock_holds_status_valid', sql`${t.status} in (${sql.raw(STOCK_HOLD_STATUSES.map((s) => `'${s}'`).join(', '))})`),
  ],
);
