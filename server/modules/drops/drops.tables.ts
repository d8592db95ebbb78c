import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { products } from '../catalog/catalog.tables';

/**
 * The waiting room of a scheduled drop (docs/decisions/010-fair-waiting-room.md).
 * One row per product with a release time; created on first use. Admission is paced by raising
 * admitted_count (how many queue places have been let in), whichever instance gets there first.
 */
export const drops = pgTable(
  'drops',
  {
    productId: uuid('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** Shoppers let in per minute (owner-set). */
    admitPerMinute: integer('admit_per_minute').notNull().default(300),
    paused: boolean('paused').notNull().default(false),
    /** Queue places admitted so far (places are 1-based ranks in the queue order). */
    admittedCount: integer('admitted_count').notNull().default(0),
    /** Last time admitted_count was advanced (pacing clock). */
    admittedAt: timestamp('admitted_at', { withTimezone: true }),
    /** When everyone still waiting was told the edition sold out. */
    soldOutAt: timestamp('sold_out_at', { withTimezone: true }),
    /** The owner's word to everyone waiting ("Payment provider hiccup — your place is safe"); null: none. */
    message: text('message'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('drops_admit_rate_range', sql`${t.admitPerMinute} between 1 and 100000`),
    check('drops_admitted_non_negative', sql`${t.admittedCount} >= 0`),
  ],
);

/** One shopper's place in a drop's waiting room. */
export const dropQueue = pgTable(
  'drop_queue',
  {
    /** The ticket the shopper holds (also what the admission pass names). */
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sessionId: text('session_id').notNull(),
    /** Hash of the network address (IPv6 by /64): caps how many places one address takes. */
    addressKey: text('address_key').notNull(),
    /** Arrival order for FIFO (after the release). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    /** Arrived in the raffle window before the release: admitted in lottery order, ahead of later arrivals. */
    raffle: boolean('raffle').notNull(),
    /** Random draw, secret until admission (refreshing early gives no edge). */
    lotteryKey: doublePrecision('lottery_key').notNull(),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }).notNull().defaultNow(),
    admittedAt: timestamp('admitted_at', { withTimezone: true }),
    /** waiting → admitted | sold_out | left */
    status: text('status').notNull().default('waiting'),
    /** "E-mail me when it's my turn": given by the ticket's holder in the room (turn-mail.ts). */
    email: text('email'),
    /** The page's last visibility heartbeat (when, and whether the tab was visible). */
    seenAt: timestamp('seen_at', { withTimezone: true }),
    visible: boolean('visible'),
    /** When the "your turn" mail went out (once per ticket). */
    turnMailedAt: timestamp('turn_mailed_at', { withTimezone: true }),
  },
  (t) => [
    unique('drop_queue_session_unique').on(t.productId, t.sessionId),
    index('drop_queue_order_idx').on(t.productId, t.raffle, t.lotteryKey, t.seq),
    index('drop_queue_address_idx').on(t.productId, t.addressKey),
    // Live admissions per drop (admitted, pass not lapsed): counted by every admission tick (ADR 010).
    index('drop_queue_admitted_idx').on(t.productId, t.admittedAt).where(sql`${t.status} = 'admitted'`),
    index('drop_queue_turn_mail_idx').on(t.productId).where(sql`${t.email} is not null and ${t.turnMailedAt} is null`),
    check('drop_queue_status_valid', sql`${t.status} in ('waiting', 'admitted', 'sold_out', 'left')`),
  ],
);
