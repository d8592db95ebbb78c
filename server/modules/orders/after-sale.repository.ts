import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { afterSaleSourcesOf, type DisputeStatus, type RefundDestination, type RefundReason } from '../../../common/domain/after-sale';
import { orderDisputes, orderItems, orderRefunds, orders, type RefundedPiece } from './orders.tables';
import { orderReturns } from './returns.tables';

export type RefundRow = typeof orderRefunds.$inferSelect;
export type DisputeRow = typeof orderDisputes.$inferSelect;

/** The order row locked for a cancellation or refund: a status change waits for it (and it for a status change). */
export async function lockOrder(tx: DbOrTx, orderId: string) {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row ?? null;
}

export function listRefundsOf(db: DbOrTx, orderIds: readonly string[]): Promise<RefundRow[]> {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db.select().from(orderRefunds).where(inArray(orderRefunds.orderId, [...orderIds])).orderBy(asc(orderRefunds.createdAt));
}

/**
 * Everything given back on an order so far, in the shape refundableCents reads: its refunds (a failed one gave
 * nothing) and the store credit of its accepted returns, so a goodwill refund or a cancellation never pays for
 * a line a return already credited, nor a return for money already refunded.
 */
export async function givenBackOf(db: DbOrTx, orderId: string): Promise<Array<{ amountCents: number; status: string }>> {
  const [refunds, returned] = await Promise.all([
    listRefundsOf(db, [orderId]),
    db
      .select({ amountCents: orderReturns.creditCents })
      .from(orderReturns)
      .where(and(eq(orderReturns.orderId, orderId), eq(orderReturns.status, 'accepted'))),
  ]);
  return [...refunds, ...returned.map((r) => ({ amountCents: r.amountCents, status: 'succeeded' }))];
}

export function listDisputesOf(db: DbOrTx, orderIds: readonly string[]): Promise<DisputeRow[]> {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db.select().from(orderDisputes).where(inArray(orderDisputes.orderId, [...orderIds])).orderBy(asc(orderDisputes.openedAt));
}

export async function findRefundByKey(db: DbOrTx, orderId: string, requestKey: string): Promise<RefundRow | null> {
  const [row] = await db
    .select()
    .from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, orderId), eq(orderRefunds.requestKey, requestKey)))
    .limit(1);
  return row ?? null;
}

export async function findRefund(db: DbOrTx, id: string): Promise<RefundRow | null> {
  const [row] = await db.select().from(orderRefunds).where(eq(orderRefunds.id, id)).limit(1);
  return row ?? null;
}

export async function insertRefund(
  tx: DbOrTx,
  refund: { orderId: string; amountCents: number; reason: RefundReason; pieces: RefundedPiece[]; requestKey: string | null; destination?: RefundDestination },
): Promise<RefundRow> {
  const [row] = await tx.insert(orderRefunds).values({ ...refund, status: 'requested', destination: refund.destination ?? 'card' }).returning();
  return row!;
}

/** requested → succeeded, once: null when it was settled already (by the flow, reconciliation or a webhook). */
export async function markRefundSucceeded(tx: DbOrTx, id: string, gatewayRefundId: string | null): Promise<RefundRow | null> {
  const [row] = await tx
    .update(orderRefunds)
    .set({ status: 'succeeded', gatewayRefundId, settledAt: sql`now()` })
    .where(and(eq(orderRefunds.id, id), inArray(orderRefunds.status, afterSaleSourcesOf('refund', 'succeeded'))))
    .returning();
  return row ?? null;
}

export async function markRefundFailed(tx: DbOrTx, id: string): Promise<RefundRow | null> {
  const [row] = await tx
    .update(orderRefunds)
    .set({ status: 'failed', settledAt: sql`now()` })
    .where(and(eq(orderRefunds.id, id), inArray(orderRefunds.status, afterSaleSourcesOf('refund', 'failed'))))
    .returning();
  return row ?? null;
}

/** A refund made at the provider (its dashboard): recorded once by the provider's id. */
export async function insertProviderRefund(
  tx: DbOrTx,
  refund: { orderId: string; amountCents: number; gatewayRefundId: string },
): Promise<RefundRow | null> {
  const [row] = await tx
    .insert(orderRefunds)
    .values({ ...refund, reason: 'provider', status: 'succeeded', destination: 'card', settledAt: sql`now()` })
    .onConflictDoNothing({ target: orderRefunds.gatewayRefundId })
    .returning();
  return row ?? null;
}

/** Requested refunds older than `before`, oldest first, with their order's payment: reconciliation's work. */
export function listStaleRefunds(db: DbOrTx, before: Date, limit: number) {
  return db
    .select({ refund: orderRefunds, intentId: orders.stripePaymentIntentId })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .where(and(eq(orderRefunds.status, 'requested'), lt(orderRefunds.createdAt, before)))
    .orderBy(asc(orderRefunds.createdAt))
    .limit(limit);
}

/** Marks lines cancelled (those not cancelled yet); returns the rows it changed. */
export function cancelItems(tx: DbOrTx, orderId: string, itemIds: readonly string[]) {
  if (itemIds.length === 0) return Promise.resolve([]);
  return tx
    .update(orderItems)
    .set({ cancelledAt: sql`now()` })
    .where(and(eq(orderItems.orderId, orderId), inArray(orderItems.id, [...itemIds]), isNull(orderItems.cancelledAt)))
    .returning();
}

export async function setCancelled(tx: DbOrTx, orderId: string): Promise<void> {
  await tx.update(orders).set({ status: 'cancelled', updatedAt: new Date() }).where(eq(orders.id, orderId));
}

export async function insertDispute(
  tx: DbOrTx,
  dispute: { id: string; orderId: string; amountCents: number; reason: string },
): Promise<boolean> {
  const rows = await tx.insert(orderDisputes).values({ ...dispute, status: 'open' }).onConflictDoNothing().returning({ id: orderDisputes.id });
  return rows.length > 0;
}

/** open → won | lost, once. */
export async function closeDispute(tx: DbOrTx, id: string, status: Exclude<DisputeStatus, 'open'>): Promise<boolean> {
  const rows = await tx
    .update(orderDisputes)
    .set({ status, closedAt: sql`now()` })
    .where(and(eq(orderDisputes.id, id), inArray(orderDisputes.status, afterSaleSourcesOf('dispute', status))))
    .returning({ id: orderDisputes.id });
  return rows.length > 0;
}

/** Of these orders, those whose every line the owner cancelled (a late "shipped" loses the race to it). */
export async function fullyCancelled(tx: DbOrTx, orderIds: readonly string[]): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set();
  const rows = await tx
    .select({ orderId: orderItems.orderId })
    .from(orderItems)
    .where(inArray(orderItems.orderId, [...orderIds]))
    .groupBy(orderItems.orderId)
    .having(sql`bool_and(${orderItems.cancelledAt} is not null)`);
  return new Set(rows.map((r) => r.orderId));
}
