import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * One ledger owner per folded mailbox (ADR 013): `owner_key` is a keyed hash of the folded address, so every
 * spelling of one mailbox shares one balance. `email` is the address last typed (where the credit mails go).
 * The row is what a redemption locks: two checkouts spending one balance take turns.
 */
export const storeCreditAccounts = pgTable('store_credit_accounts', {
  ownerKey: text('owner_key').primaryKey(),
  email: text('email').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A checkout's use of credit: held while its payment is open → spent (an order) | released (failed, abandoned). */
export const storeCreditRedemptions = pgTable(
  'store_credit_redemptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerKey: text('owner_key')
      .notNull()
      .references(() => storeCreditAccounts.ownerKey, { onDelete: 'cascade' }),
    checkoutId: uuid('checkout_id').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    status: text('status').notNull().default('held'),
    orderId: uuid('order_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('store_credit_redemptions_checkout_idx').on(t.checkoutId).where(sql`${t.status} <> 'released'`),
    index('store_credit_redemptions_held_idx').on(t.createdAt).where(sql`${t.status} = 'held'`),
    check('store_credit_redemptions_amount_positive', sql`${t.amountCents} > 0`),
    check('store_credit_redemptions_status_valid', sql`${t.status} in ('held', 'spent', 'released')`),
  ],
);

/**
 * The ledger, append-only. A grant carries its source, reason and expiry; every other entry names the grant it
 * moves (a redemption takes from it, a release gives back what a redemption took, an expiry closes what was left).
 * What is left of a grant = its amount − redemptions + releases − expiries.
 */
export const storeCreditEntries = pgTable(
  'store_credit_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerKey: text('owner_key')
      .notNull()
      .references(() => storeCreditAccounts.ownerKey, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    grantId: uuid('grant_id').references((): AnyPgColumn => storeCreditEntries.id),
    redemptionId: uuid('redemption_id').references(() => storeCreditRedemptions.id),
    source: text('source'),
    reason: text('reason'),
    orderId: uuid('order_id'),
    /** What the grant pays for (a refund record's id): one grant per refund, however often it is retried. */
    sourceRef: text('source_ref'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('store_credit_entries_owner_idx').on(t.ownerKey),
    index('store_credit_entries_grant_idx').on(t.grantId),
    uniqueIndex('store_credit_entries_source_ref_idx').on(t.sourceRef).where(sql`${t.sourceRef} is not null`),
    check('store_credit_entries_amount_positive', sql`${t.amountCents} > 0`),
    check('store_credit_entries_kind_valid', sql`${t.kind} in ('grant', 'redemption', 'expiry', 'release')`),
    check(
      'store_credit_entries_source_valid',
      sql`${t.source} is null or ${t.source} in ('return', 'cancellation', 'refund', 'manual')`,
    ),
    check(
      'store_credit_entries_grant_shape',
      sql`(${t.kind} = 'grant') = (${t.expiresAt} is not null and ${t.source} is not null and ${t.grantId} is null)`,
    ),
  ],
);

/** A grant whose buyer was mailed that it runs out within 30 days: one notice per grant, never two. */
export const storeCreditExpiryNotices = pgTable('store_credit_expiry_notices', {
  grantId: uuid('grant_id')
    .primaryKey()
    .references(() => storeCreditEntries.id, { onDelete: 'cascade' }),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});
