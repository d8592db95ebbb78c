import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DRAW_FAIRNESS_RULES, FAIRNESS_LOOKBACK_MAX, FAIRNESS_LOOKBACK_MIN } from '../../../common/domain/draw-fairness';
import { DRAW_PIECES_MAX } from '../../../common/domain/draw-allocation';
import { AUTHORISATION_STATES, DRAW_ENTRY_STATUSES, DRAW_STATUSES } from '../../../common/domain/draw-lifecycle';
import { products } from '../catalog/catalog.tables';

const MONEY = { mode: 'number' } as const;
const oneOf = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * A product sold by draw (docs/draw.md, ADR 018): its entry window, its draw time, the commitment published
 * from the start and the seed behind it, kept secret until the draw (never served before `drawn`).
 * Status moves along common/domain/draw-lifecycle.ts; at most one draw of a product is under way at a time.
 */
export const draws = pgTable(
  'draws',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('scheduled'),
    opensAt: timestamp('opens_at', { withTimezone: true }).notNull(),
    closesAt: timestamp('closes_at', { withTimezone: true }).notNull(),
    drawAt: timestamp('draw_at', { withTimezone: true }).notNull(),
    /** How many pieces the draw gives out; null: every piece. The rest go on sale after the draw (docs/draw.md, Pieces). */
    pieces: integer('pieces'),
    /** The price every entry is authorised for, fixed when the draw is made (cents, ADR 016). */
    priceCents: bigint('price_cents', MONEY).notNull(),
    /** SHA-256 (hex) of the seed's bytes: public from the start. */
    commitment: text('commitment').notNull(),
    /** 32 random bytes (hex): secret until the draw, then published with the results. */
    seed: text('seed').notNull(),
    drawnAt: timestamp('drawn_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('draws_status_valid', sql`${t.status} in (${oneOf(DRAW_STATUSES)})`),
    check('draws_window_order', sql`${t.closesAt} > ${t.opensAt} and ${t.drawAt} >= ${t.closesAt}`),
    // A card authorisation lasts 7 days: the draw (the captures) must come within 7 days of the first entry.
    check('draws_within_authorisation', sql`${t.drawAt} - ${t.opensAt} <= interval '7 days'`),
    check('draws_price_non_negative', sql`${t.priceCents} >= 0`),
    check('draws_pieces_range', sql`${t.pieces} is null or ${t.pieces} between 1 and ${sql.raw(String(DRAW_PIECES_MAX))}`),
    uniqueIndex('draws_one_live_per_product')
      .on(t.productId)
      .where(sql`${t.status} in ('scheduled', 'open', 'closed', 'drawn')`),
    index('draws_due_idx').on(t.status, t.drawAt),
  ],
);

/**
 * One entry of a draw. The public id is what the published results name (random, nothing personal in
 * it); the identity keys are keyed hashes of the folded mailbox, delivery address and card (ADR 013), so
 * duplicates are found without comparing personal data; the e-mail and address are kept in clear because
 * the winner's piece ships there. The manage token is mailed; only its SHA-256 is stored.
 */
export const drawEntries = pgTable(
  'draw_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    drawId: uuid('draw_id')
      .notNull()
      .references(() => draws.id, { onDelete: 'cascade' }),
    publicId: text('public_id').notNull().unique(),
    manageTokenHash: text('manage_token_hash').notNull().unique(),
    status: text('status').notNull().default('pending'),
    mailboxKey: text('mailbox_key').notNull(),
    deliveryKey: text('delivery_key').notNull(),
    cardKey: text('card_key'),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone'),
    shippingAddress: text('shipping_address').notNull(),
    shippingCity: text('shipping_city').notNull(),
    shippingState: text('shipping_state').notNull(),
    shippingZip: text('shipping_zip').notNull(),
    shippingCountry: text('shipping_country').notNull(),
    shippingMethod: text('shipping_method').notNull(),
    size: text('size'),
    secondSize: text('second_size'),
    weight: integer('weight').notNull().default(1),
    /** What the card is authorised for: the piece, shipping and tax (cents). */
    amountCents: bigint('amount_cents', MONEY).notNull(),
    subtotalCents: bigint('subtotal_cents', MONEY).notNull(),
    shippingCents: bigint('shipping_cents', MONEY).notNull(),
    taxCents: bigint('tax_cents', MONEY).notNull(),
    authorisationId: text('authorisation_id').notNull().unique(),
    authorisationState: text('authorisation_state').notNull().default('authorised'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    rank: integer('rank'),
    /** The size it was given and the inventory variant the piece is held on, while selected or won. */
    allocatedSize: text('allocated_size'),
    variantId: uuid('variant_id'),
    /** Why a confirmed entry was removed before the draw (a duplicate of `duplicateOf`). */
    removedReason: text('removed_reason'),
    duplicateOf: uuid('duplicate_of'),
    captureError: text('capture_error'),
    orderNumber: text('order_number'),
    resultMailedAt: timestamp('result_mailed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('draw_entries_status_valid', sql`${t.status} in (${oneOf(DRAW_ENTRY_STATUSES)})`),
    check('draw_entries_authorisation_valid', sql`${t.authorisationState} in (${oneOf(AUTHORISATION_STATES)})`),
    check('draw_entries_weight', sql`${t.weight} >= 1`),
    check('draw_entries_amount_non_negative', sql`${t.amountCents} >= 0`),
    // One live entry per mailbox and draw; a withdrawn entrant may enter again.
    uniqueIndex('draw_entries_one_per_mailbox')
      .on(t.drawId, t.mailboxKey)
      .where(sql`${t.status} in ('pending', 'confirmed')`),
    index('draw_entries_draw_status_idx').on(t.drawId, t.status, t.rank),
    // An entrant's earlier draws (by folded mailbox) for the fair-over-time rules.
    index('draw_entries_mailbox_idx').on(t.mailboxKey),
  ],
);

/**
 * The owner's fair-over-time rule of a draw (common/domain/draw-fairness.ts): off, loyalty or sit_out, and
 * the look-back K (null when off). One row per draw, written with the draw in one transaction; a draw
 * without a row is off; deleted with its draw.
 */
export const drawFairness = pgTable(
  'draw_fairness',
  {
    drawId: uuid('draw_id')
      .primaryKey()
      .references(() => draws.id, { onDelete: 'cascade' }),
    rule: text('rule').notNull().default('off'),
    lookback: smallint('lookback'),
  },
  (t) => [
    check('draw_fairness_rule_valid', sql`${t.rule} in (${oneOf(DRAW_FAIRNESS_RULES)})`),
    check(
      'draw_fairness_lookback',
      sql`(${t.rule} = 'off' and ${t.lookback} is null) or (${t.rule} <> 'off' and ${t.lookback} between ${sql.raw(String(FAIRNESS_LOOKBACK_MIN))} and ${sql.raw(String(FAIRNESS_LOOKBACK_MAX))})`,
    ),
  ],
);
