import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ORDER_STATUSES } from '../../../common/domain/order-status';
import { DISPUTE_STATUSES, REFUND_DESTINATIONS, REFUND_REASONS, REFUND_STATUSES } from '../../../common/domain/after-sale';
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
    /** What the buyer's store credit paid of the total (docs/product.md §2.15); the card paid the rest. */
    storeCreditCents: bigint('store_credit_cents', MONEY).notNull().default(0),
    status: text('status').notNull().default('pending'),
    /** Paid through the offline test gateway: no money was taken (marked in the admin, CSV and e-mail). */
    isTest: boolean('is_test').notNull().default(false),
    /** Set by the owner when shipping; the "shipped" e-mail links to the carrier's tracking page. */
    trackingNumber: text('tracking_number'),
    carrier: text('carrier'),
    /**
     * The shop's calendar date the order must ship by (common/domain/ship-by.ts), written once when the order is
     * made: the promise the buyer read stays put when the rule, the shop's time zone or a product's drop changes
     * later, and the admin can sort and flag late orders in SQL. Null for orders made before it was kept.
     */
    shipBy: date('ship_by', { mode: 'string' }),
    /** When the owner first marked it delivered (the database's clock): the buyer's 2-day return window starts here. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
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
    /** The owner cancelled this line before shipping (its pieces went back through the one return step). */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    index('order_items_order_idx').on(t.orderId),
    check('order_items_product_price_cents_non_negative', sql`${t.productPriceCents} >= 0`),
  ],
);

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/** A piece a cancellation gives back: its order line and edition numbers (returned when the refund succeeds). */
export interface RefundedPiece {
  orderItemId: string;
  editionNumbers: number[];
}

/**
 * Refunds of an order (ADR 021): a record of its own beside the six order statuses, along the refund
 * lifecycle of common/domain/after-sale.ts. Written `requested` before the gateway is asked; the gateway's
 * idempotency key is derived from its id, so a retry or reconciliation never refunds twice.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amountCents: bigint('amount_cents', MONEY).notNull(),
    status: text('status').notNull().default('requested'),
    /** Where the money goes: the card only, for now (store credit is the next one). */
    destination: text('destination').notNull().default('card'),
    reason: text('reason').notNull(),
    /** Pieces this refund gives back to stock once it succeeds (a cancellation); empty for goodwill. */
    pieces: jsonb('pieces').$type<RefundedPiece[]>().notNull().default([]),
    /** The provider's refund id, once known; a refund made at the provider is recorded once by it. */
    gatewayRefundId: text('gateway_refund_id').unique(),
    /** The owner's request key: a retried request finds its refund instead of making another. */
    requestKey: text('request_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    check('order_refunds_amount_positive', sql`${t.amountCents} > 0`),
    check('order_refunds_status_valid', sql`${t.status} in (${inList(REFUND_STATUSES)})`),
    check('order_refunds_destination_valid', sql`${t.destination} in (${inList(REFUND_DESTINATIONS)})`),
    check('order_refunds_reason_valid', sql`${t.reason} in (${inList(REFUND_REASONS)})`),
    index('order_refunds_order_idx').on(t.orderId),
    uniqueIndex('order_refunds_request_key_idx').on(t.orderId, t.requestKey),
    // Reconciliation looks for refunds the gateway may have made without the shop hearing back.
    index('order_refunds_requested_idx').on(t.createdAt).where(sql`${t.status} = 'requested'`),
  ],
);

/** Card disputes (chargebacks) of an order as the provider reports them (ADR 021); open ones hold it from the pick list. */
export const orderDisputes = pgTable(
  'order_disputes',
  {
    /** The provider's dispute id. */
    id: text('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amountCents: bigint('amount_cents', MONEY).notNull(),
    reason: text('reason').notNull(),
    status: text('status').notNull().default('open'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    check('order_disputes_status_valid', sql`${t.status} in (${inList(DISPUTE_STATUSES)})`),
    index('order_disputes_order_idx').on(t.orderId),
  ],
);
