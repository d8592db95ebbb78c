import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { RETURN_STATUSES } from '../../../common/domain/returns';
import { orders } from './orders.tables';

/** One line of a return: which order line, and which of its pieces (their edition numbers) come back. */
export interface ReturnedLine {
  orderItemId: string;
  quantity: number;
  editionNumbers: number[];
}

/**
 * A return (docs/product.md "Returns"; migration 0034): a record beside the order's status, moved along
 * common/domain/returns.ts in conditional UPDATEs. `creditCents` is what acceptance granted as store credit.
 */
export const orderReturns = pgTable(
  'order_returns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('requested'),
    reason: text('reason').notNull(),
    lines: jsonb('lines').$type<ReturnedLine[]>().notNull(),
    creditCents: bigint('credit_cents', { mode: 'number' }).notNull().default(0),
    note: text('note'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    shipBackBy: timestamp('ship_back_by', { withTimezone: true }),
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('order_returns_status_valid', sql`${t.status} in (${sql.raw(RETURN_STATUSES.map((s) => `'${s}'`).join(', '))})`),
    check('order_returns_credit_non_negative', sql`${t.creditCents} >= 0`),
    index('order_returns_order_idx').on(t.orderId),
    index('order_returns_open_idx').on(t.status, t.shipBackBy).where(sql`${t.status} = 'approved'`),
  ],
);
