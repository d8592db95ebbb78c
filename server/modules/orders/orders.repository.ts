import { and, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { OrderStatus } from '../../../common/contracts/checkout';
import { sourcesOf } from '../../../common/domain/checkout-lifecycle';
import { orderItems, orders } from './orders.tables';

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type NewOrderItem = typeof orderItems.$inferInsert;

export async function findOrderByIntent(db: DbOrTx, intentId: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.stripePaymentIntentId, intentId)).limit(1);
  return row ?? null;
}

export async function findOrderNumberByIntent(db: DbOrTx, intentId: string): Promise<string | null> {
  const [row] = await db
    .select({ orderNumber: orders.orderNumber })
    .from(orders)
    .where(eq(orders.stripePaymentIntentId, intentId))
    .limit(1);
  return row?.orderNumber ?? null;
}

export async function findOrderById(db: DbOrTx, id: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row ?? null;
}

export async function findLatestOrderForSession(db: DbOrTx, sessionId: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(eq(orders.sessionId, sessionId))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return row ?? null;
}

/** Inserts the order unless one already exists for its intent (then returns null). */
export async function insertOrder(tx: DbOrTx, order: NewOrder): Promise<OrderRow | null> {
  const [row] = await tx
    .insert(orders)
    .values(order)
    .onConflictDoNothing({ target: orders.stripePaymentIntentId })
    .returning();
  return row ?? null;
}

export async function insertOrderItems(tx: DbOrTx, items: NewOrderItem[]): Promise<OrderItemRow[]> {
  if (items.length === 0) return [];
  return tx.insert(orderItems).values(items).returning();
}

export async function listOrderRows(
  db: DbOrTx,
  filter: { status?: string; q?: string },
): Promise<OrderRow[]> {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(orders.status, filter.status));
  if (filter.q) {
    const like = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      or(
        ilike(orders.orderNumber, like),
        ilike(orders.customerEmail, like),
        ilike(orders.customerFirstName, like),
        ilike(orders.customerLastName, like),
      )!,
    );
  }
  return db
    .select()
    .from(orders)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(orders.createdAt));
}

export function listItemsOf(db: DbOrTx, orderIds: readonly string[]): Promise<OrderItemRow[]> {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, [...orderIds]));
}

/** Along the order lifecycle (the owner may set any status: every status is a source). */
export async function setOrderStatus(db: DbOrTx, id: string, status: OrderStatus): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(orders.id, id), inArray(orders.status, sourcesOf('order', status))))
    .returning();
  return row ?? null;
}
