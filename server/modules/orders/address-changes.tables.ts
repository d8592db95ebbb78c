import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { AddressSnapshot } from '../../../common/contracts/order-address';
import { orders } from './orders.tables';

/**
 * Every change of an order's delivery address (docs/product.md "Order page"): the address before and after
 * and who made it. Written in the transaction that changes the order, so the order never says one thing and
 * its history another.
 */
export const orderAddressChanges = pgTable(
  'order_address_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    changedBy: text('changed_by').notNull(),
    oldAddress: jsonb('old_address').$type<AddressSnapshot>().notNull(),
    newAddress: jsonb('new_address').$type<AddressSnapshot>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('order_address_changes_by_valid', sql`${t.changedBy} in ('buyer', 'owner')`),
    index('order_address_changes_order_idx').on(t.orderId),
  ],
);
