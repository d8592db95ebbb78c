import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** The offline test gateway's own intents (Stripe keeps these on its side). */
export const offlineIntents = pgTable('offline_payment_intents', {
  id: text('id').primaryKey(),
  clientSecret: text('client_secret').notNull().unique(),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull().default('usd'),
  status: text('status').notNull().default('requires_payment_method'),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
  lastError: text('last_error'),
  refundedAmount: integer('refunded_amount').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Webhook/gateway events already handled: each event id is processed once. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    paymentIntentId: text('payment_intent_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_events_intent_idx').on(t.paymentIntentId)],
);

/** The offline test gateway's refunds (Stripe keeps these on its side): one per idempotency key. */
export const offlineRefunds = pgTable(
  'offline_refunds',
  {
    id: text('id').primaryKey(),
    intentId: text('intent_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    amount: integer('amount').notNull(),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('offline_refunds_key_idx').on(t.idempotencyKey), index('offline_refunds_intent_idx').on(t.intentId)],
);
