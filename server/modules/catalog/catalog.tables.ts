import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const categories = pgTable('categories', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  image: text('image'),
});

export interface ProductColor {
  name: string;
  value: string;
}

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Money is integer cents (docs/decisions/016-money-minor-units.md); bigint: 99999999.99 is beyond integer. */
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    salePriceCents: bigint('sale_price_cents', { mode: 'number' }),
    category: text('category')
      .notNull()
      .references(() => categories.slug, { onUpdate: 'cascade' }),
    subcategory: text('subcategory'),
    materials: text('materials').notNull().default(''),
    sustainabilityInfo: text('sustainability_info').notNull().default(''),
    /** Units available to sell now (held units are already subtracted). */
    stock: integer('stock').notNull().default(0),
    inStock: boolean('in_stock').notNull().default(true),
    isNew: boolean('is_new').notNull().default(false),
    isOnSale: boolean('is_on_sale').notNull().default(false),
    images: jsonb('images').$type<string[]>().notNull().default([]),
    sizes: jsonb('sizes').$type<string[]>().notNull().default([]),
    colors: jsonb('colors').$type<ProductColor[]>().notNull().default([]),
    /** The edition cap printed on every piece ("No. 17 of 50"). */
    editionSize: integer('edition_size').notNull().default(50),
    /** Units sold and not returned; with no returned number waiting, the next edition number is soldCount + 1. */
    soldCount: integer('sold_count').notNull().default(0),
    /**
     * Edition numbers of returned pieces, ascending: each is back on the shelf and goes to the next sale
     * before any new number (editionNumbersFor in common/domain/stock.ts).
     */
    returnedNumbers: integer('returned_numbers').array().notNull().default(sql`'{}'::integer[]`),
    /** Units held by open checkouts (taken out of stock, not sold yet): kept here so a CHECK can count them. */
    heldCount: integer('held_count').notNull().default(0),
    /** Scheduled release (docs/product.md §9): before it the product is shown but cannot be bought; null: on sale now. */
    releaseAt: timestamp('release_at', { withTimezone: true }),
    /** Most units one shopper may buy of this product, across sessions (docs/product.md §9, Per-shopper limits; common/domain/purchase-limit.ts). */
    maxPerShopper: integer('max_per_shopper').notNull().default(2),
    /** A final sale, marked at listing (the refund policy): this piece cannot be returned. */
    nonReturnable: boolean('non_returnable').notNull().default(false),
    /** When the last unit of the edition was sold ('All 50 sold in 3 min 12 s'); null while any is left or held. */
    soldOutAt: timestamp('sold_out_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('products_stock_non_negative', sql`${t.stock} >= 0`),
    check('products_sold_non_negative', sql`${t.soldCount} >= 0`),
    check('products_held_non_negative', sql`${t.heldCount} >= 0`),
    check('products_price_cents_non_negative', sql`${t.priceCents} >= 0`),
    check('products_sale_price_cents_non_negative', sql`${t.salePriceCents} >= 0`),
    // Never reproduced once sold out: every piece of the edition is sold, held or on the shelf, never more.
    check('products_max_per_shopper_range', sql`${t.maxPerShopper} between 1 and 50`),
    check('products_within_edition', sql`${t.stock} + ${t.heldCount} + ${t.soldCount} <= ${t.editionSize}`),
  ],
);
