import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { ORDER_STATUSES } from '../../../common/domain/order-status';
import { products } from '../catalog/catalog.tables';

const MONEY = { mode: 'number' } as const;

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderNumber: text('order_number').notNull().unique(),
    sessionId: text('session_id').notNull(),
    checkoutId: uuid('checkout_id'),
    stripePaymentIntentId: text('stripe_payment_intent_id').notNull().unique(),
    customerEmail: text('customer_email').notNull(),
    customerFirstName: text('customer_first_name').notNull(),
    customerLastName: text('customer_last_name').notNull(),
    customerPhone: text('customer_phone'),
    shippingAddress: text('shipping_address').notNull(),
    shippingCity: text('shipping_city').notNull(),
    shippingState: text('shipping_state').notNull(),
    shippingZip: text('shipping_zip').notNull(),
    shippingCountry: text('shipping_country').notNull().default('US'),
    shippingMethod: text('shipping_method'),
    /** Money is integer cents (docs/decisions/016-money-minor-units.md). */
    subtotalCents: bigint('subtotal_cents', MONEY).notNull(),
    discountCode: text('discount_code'),
    discountAmountCents: bigint('discount_amount_cents', MONEY).notNull().default(0),
    taxCents: bigint('tax_cents', MONEY).notNull().default(0),
    shippingCents: bigint('shipping_cents', MONEY).notNull().default(0),
    totalCents: bigint('total_cents', MONEY).notNull(),
    status: text('status').notNull().default('pending'),
    /** Paid through the offline test gateway: no money was taken (marked in the admin, CSV and e-mail). */
    isTest: boolean('is_test').notNull().default(false),
    /** Set by the owner when shipping; the "shipped" e-mail links to the carrier's tracking page. */
    trackingNumber: text('tracking_number'),
    carrier: text('carrier'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Fulfilment status: the order lifecycle of common/domain/checkout-lifecycle.ts.
    ...(['subtotal', 'discount_amount', 'tax', 'shipping', 'total'] as const).map((c) =>
      check(`orders_${c}_cents_non_negative`, sql`${sql.identifier(`${c}_cents`)} >= 0`),
    ),
    check('orders_status_valid', sql`${t.status} in (${sql.raw(ORDER_STATUSES.map((s) => `'${s}'`).join(', '))})`),
    index('orders_session_idx').on(t.sessionId, t.createdAt),
    index('orders_status_idx').on(t.status),
    index('orders_email_idx').on(t.customerEmail),
    // The admin's paged list: newest first, id as the tie-break (migration 0018).
    index('orders_created_idx').on(t.createdAt.desc(), t.id),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** Kept for reference only; deleting a product never touches the snapshot below. */
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    productName: text('product_name').notNull(),
    productPriceCents: bigint('product_price_cents', MONEY).notNull(),
    quantity: integer('quantity').notNull(),
    selectedSize: text('selected_size'),
    selectedColor: text('selected_color'),
    productImage: text('product_image'),
    editionNumbers: jsonb('edition_numbers').$type<number[]>().notNull().default([]),
    editionSize: integer('edition_size').notNull().default(50),
  },
  (t) => [
    index('order_items_order_idx').on(t.orderId),
    check('order_items_product_price_cents_non_negative', sql`${t.productPriceCents} >= 0`),
  ],
);
