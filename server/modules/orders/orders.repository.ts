import { and, count, desc, eq, ilike, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { OrderStatus } from '../../../common/contracts/checkout';
import { sourcesOf } from '../../../common/domain/checkout-lifecycle';
import { UNSHIPPED_STATUSES } from '../../../common/domain/ship-by';
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

/** `lateOn`: the shop's today; only orders not yet shipped whose ship-by date is before it (isShipLate). */
export type OrderRowFilter = { status?: string; q?: string; lateOn?: string };

function filterOf(filter: OrderRowFilter): SQL | undefined {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(orders.status, filter.status));
  if (filter.lateOn) where.push(inArray(orders.status, [...UNSHIPPED_STATUSES]), lt(orders.shipBy, filter.lateOn));
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
  return where.length ? and(...where) : undefined;
}

export async function listOrderRows(
  db: DbOrTx,
  filter: OrderRowFilter,
  page?: { limit: number; offset: number },
): Promise<OrderRow[]> {
  const query = db.select().from(orders).where(filterOf(filter)).orderBy(desc(orders.createdAt), orders.id);
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

export async function countOrderRows(db: DbOrTx, filter: OrderRowFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(orders).where(filterOf(filter));
  return row?.n ?? 0;
}

/** Locks the orders for a status change (their current status decides which get the "shipped" mail). */
export async function lockOrders(
  tx: DbOrTx,
  ids: readonly string[],
): Promise<Array<{ id: string; status: string; orderNumber: string; trackingNumber: string | null }>> {
  if (ids.length === 0) return [];
  return tx
    .select({ id: orders.id, status: orders.status, orderNumber: orders.orderNumber, trackingNumber: orders.trackingNumber })
    .from(orders)
    .where(inArray(orders.id, [...ids]))
    .orderBy(orders.id)
    .for('update');
}

/** Tracking number and carrier (undefined: unchanged). */
export async function setOrderTracking(
  db: DbOrTx,
  id: string,
  tracking: { trackingNumber?: string | null; carrier?: string | null },
): Promise<void> {
  if (tracking.trackingNumber === undefined && tracking.carrier === undefined) return;
  await db
    .update(orders)
    .set({
      ...(tracking.trackingNumber === undefined ? {} : { trackingNumber: tracking.trackingNumber }),
      ...(tracking.carrier === undefined ? {} : { carrier: tracking.carrier }),
      updatedAt: new Date(),
    })
    .where(eq(orders.id, id));
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

/** One status for many orders (the owner's bulk change); the rows changed. */
export async function setOrdersStatus(db: DbOrTx, ids: readonly string[], status: OrderStatus): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return db
    .update(orders)
    .set({ status, updatedAt: new Date() })
    .where(and(inArray(orders.id, [...ids]), inArray(orders.status, sourcesOf('order', status))))
    .returning();
}

export async function findOrderByNumber(db: DbOrTx, orderNumber: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.orderNumber, orderNumber)).limit(1);
  return row ?? null;
}

/** One order line with its order's status and time (a piece's certificate). */
export async function findItemWithOrder(
  db: DbOrTx,
  itemId: string,
): Promise<{ item: OrderItemRow; status: string; createdAt: Date } | null> {
  const [row] = await db
    .select({ item: orderItems, status: orders.status, createdAt: orders.createdAt })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(eq(orderItems.id, itemId))
    .limit(1);
  return row ?? null;
}

/** Writes the ship-by date of an order just made (its creation time is the database's). */
export async function setOrderShipBy(db: DbOrTx, id: string, shipBy: string): Promise<void> {
  await db.update(orders).set({ shipBy }).where(eq(orders.id, id));
}
