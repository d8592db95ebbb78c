import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { products } from '../catalog/catalog.tables';

/**
 * A product's size run (ADR 015): stock, held and sold pieces per size, or per size and colour where
 * colours are stocked apart. The product row keeps each count's SUM over its variants, so its edition
 * CHECK caps the edition across sizes. `size` null is the "one run" (any listed size) every product had
 * before sizes were stocked apart; only inventory writes these rows (variants.repository.ts).
 */
export const productVariants = pgTable(
  'product_variants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The size label as the shopper reads it ('M', '8.25"'); null: the one run, any listed size. */
    size: text('size'),
    /** Set only where colours are stocked apart; null: colour is an attribute of the order line. */
    colour: text('colour'),
    /** Display order within the run. */
    position: integer('position').notNull().default(0),
    /** Pieces of this size left to buy (held ones are already out). */
    stock: integer('stock').notNull().default(0),
    heldCount: integer('held_count').notNull().default(0),
    soldCount: integer('sold_count').notNull().default(0),
    /** When this size's last piece was sold ('— M first, in 41 s'); cleared when a piece comes back to it. */
    soldOutAt: timestamp('sold_out_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One row per size (and colour), however it is spelt: 'xl' and 'XL' are one size.
    uniqueIndex('product_variants_label_once').on(
      t.productId,
      sql`lower(coalesce(${t.size}, ''))`,
      sql`lower(coalesce(${t.colour}, ''))`,
    ),
    check('product_variants_stock_non_negative', sql`${t.stock} >= 0`),
    check('product_variants_held_non_negative', sql`${t.heldCount} >= 0`),
    check('product_variants_sold_non_negative', sql`${t.soldCount} >= 0`),
    check('product_variants_size_length', sql`${t.size} is null or char_length(${t.size}) between 1 and 20`),
  ],
);

export type ProductVariantRow = typeof productVariants.$inferSelect;
