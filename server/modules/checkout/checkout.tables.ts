import { sql } from 'drizzle-orm';
import { CHECKOUT_STATUSES } from '../../../common/domain/checkout-lifecycle';
import {
  bigint,
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

export const customerInfo = pgTable('customer_info', {
  id: uuid('id').primaryKey().defaultRandom(),
  sessionId: text('session_id').notNull().unique(),
  email: text('email').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  phone: text('phone'),
  shippingAddress: text('shipping_address').notNull(),
  shippingCity: text('shipping_city').notNull(),
  shippingState: text('shipping_state').notNull(),
  shippingZip: text('shipping_zip').notNull(),
  shippingCountry: text('shipping_country').notNull().default('US'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export interface CheckoutLine {
  productId: string;
  name: string;
  unitPriceCents: number;
  quantity: number;
  selectedSize: string | null;
  selectedColor: string | null;
  image: string | null;
}

export interface CheckoutCustomer {
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  shippingAddress: string;
  shippingCity: string;
  shippingState: string;
  shippingZip: string;
  shippingCountry: string;
}

/**
 * One payment attempt of a session: the priced snapshot the intent was created for.
 * status: open (holding stock) → fulfilled | expired | cancelled | refunded; the edges are the
 * lifecycle table in common/domain/checkout-lifecycle.ts (checkout.repository's transitionCheckout).
 */
const MONEY = { mode: 'number' } as const;

export const checkouts = pgTable(
  'checkouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: text('session_id').notNull(),
    paymentIntentId: text('payment_intent_id').unique(),
    status: text('status').notNull().default('open'),
    lines: jsonb('lines').$type<CheckoutLine[]>().notNull(),
    customer: jsonb('customer').$type<CheckoutCustomer>().notNull(),
    shippingMethod: text('shipping_method').notNull(),
    /** Money is integer cents (docs/decisions/016-money-minor-units.md). */
    subtotalCents: bigint('subtotal_cents', MONEY).notNull(),
    discountCode: text('discount_code'),
    discountAmountCents: bigint('discount_amount_cents', MONEY).notNull().default(0),
    shippingCents: bigint('shipping_cents', MONEY).notNull().default(0),
    taxCents: bigint('tax_cents', MONEY).notNull().default(0),
    totalCents: bigint('total_cents', MONEY).notNull(),
    amountCents: bigint('amount_cents', MONEY).notNull(),
    /** Whether this checkout holds a claim on a usage of its discount code. */
    discountClaimed: boolean('discount_claimed').notNull().default(false),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }).notNull(),
    /**
     * When reconciliation should next ask the gateway about this checkout's intent; null once its payment
     * is settled (an order, a refund, or an intent that can never be paid). Indexed while set, so finding
     * every paid-without-order payment never depends on how many abandoned checkouts there are.
     */
    paymentCheckAt: timestamp('payment_check_at', { withTimezone: true }).defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...(['subtotal', 'discount_amount', 'shipping', 'tax', 'total', 'amount'] as const).map((c) =>
      check(`checkouts_${c}_cents_non_negative`, sql`${sql.identifier(`${c}_cents`)} >= 0`),
    ),
    check('checkouts_status_valid', sql`${t.status} in (${sql.raw(CHECKOUT_STATUSES.map((s) => `'${s}'`).join(', '))})`),
    index('checkouts_session_idx').on(t.sessionId),
    index('checkouts_status_hold_idx').on(t.status, t.holdExpiresAt),
    index('checkouts_payment_check_idx')
      .on(t.paymentCheckAt)
      .where(sql`${t.paymentCheckAt} is not null and ${t.paymentIntentId} is not null`),
  ],
);
