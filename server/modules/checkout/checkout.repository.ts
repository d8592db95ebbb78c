import { and, asc, eq, inArray, isNotNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { lockClass } from '../../lib/advisory-locks';
import type { CustomerInfoBody } from '../../../common/contracts/checkout';
import { assertTransition, sourcesOf, type CheckoutStatus } from '../../../common/domain/checkout-lifecycle';
import {
  checkouts,
  customerInfo,
  type CheckoutCustomer,
  type CheckoutLine,
} from './checkout.tables';

export type CustomerInfoRow = typeof customerInfo.$inferSelect;
export type CheckoutRow = typeof checkouts.$inferSelect;

// ---- customer info ----------------------------------------------------------------------------

export async function findCustomerInfo(db: DbOrTx, sessionId: string): Promise<CustomerInfoRow | null> {
  const [row] = await db.select().from(customerInfo).where(eq(customerInfo.sessionId, sessionId)).limit(1);
  return row ?? null;
}

export async function upsertCustomerInfo(
  db: DbOrTx,
  sessionId: string,
  body: CustomerInfoBody,
): Promise<CustomerInfoRow> {
  const values = { ...body, phone: body.phone || null };
  const [row] = await db
    .insert(customerInfo)
    .values({ sessionId, ...values })
    .onConflictDoUpdate({ target: customerInfo.sessionId, set: { ...values, updatedAt: new Date() } })
    .returning();
  return row!;
}

/** The session id changed (admin login): the saved details follow it. */
export async function moveCustomerInfo(db: DbOrTx, fromSid: string, toSid: string): Promise<void> {
  await db.update(customerInfo).set({ sessionId: toSid }).where(eq(customerInfo.sessionId, fromSid));
}

// ---- checkouts --------------------------------------------------------------------------------

/** Usages of `code` this session already holds through its open checkouts. */
export async function countOwnClaims(db: DbOrTx, sessionId: string, code: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(checkouts)
    .where(
      and(
        eq(checkouts.sessionId, sessionId),
        eq(checkouts.status, 'open'),
        eq(checkouts.discountClaimed, true),
        eq(checkouts.discountCode, code),
      ),
    );
  return row?.n ?? 0;
}

/** Ids of the session's open checkouts (what it may hold). */
export async function listOpenCheckoutIds(db: DbOrTx, sessionId: string): Promise<string[]> {
  const rows = await db
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(and(eq(checkouts.sessionId, sessionId), eq(checkouts.status, 'open')));
  return rows.map((r) => r.id);
}

export async function lockOpenCheckouts(tx: DbOrTx, sessionId: string): Promise<CheckoutRow[]> {
  return tx
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.sessionId, sessionId), eq(checkouts.status, 'open')))
    .orderBy(asc(checkouts.createdAt))
    .for('update');
}

export async function insertCheckout(
  tx: DbOrTx,
  values: {
    sessionId: string;
    lines: CheckoutLine[];
    customer: CheckoutCustomer;
    shippingMethod: string;
    /** Money in cents, like every money column (docs/decisions/016-money-minor-units.md). */
    subtotalCents: number;
    discountCode: string | null;
    discountAmountCents: number;
    shippingCents: number;
    taxCents: number;
    totalCents: number;
    amountCents: number;
    discountClaimed: boolean;
    holdExpiresAt: Date;
  },
): Promise<CheckoutRow> {
  const [row] = await tx.insert(checkouts).values(values).returning();
  return row!;
}

export async function setCheckoutIntent(db: DbOrTx, id: string, paymentIntentId: string): Promise<void> {
  await db.update(checkouts).set({ paymentIntentId, updatedAt: new Date() }).where(eq(checkouts.id, id));
}

/** What is left for the card once store credit was held (the order's total stays as priced). */
export async function setCheckoutAmount(db: DbOrTx, id: string, amountCents: number): Promise<CheckoutRow> {
  const [row] = await db.update(checkouts).set({ amountCents, updatedAt: new Date() }).where(eq(checkouts.id, id)).returning();
  return row!;
}

export async function findCheckoutByIntent(db: DbOrTx, paymentIntentId: string): Promise<CheckoutRow | null> {
  const [row] = await db
    .select()
    .from(checkouts)
    .where(eq(checkouts.paymentIntentId, paymentIntentId))
    .limit(1);
  return row ?? null;
}

export async function lockCheckout(tx: DbOrTx, id: string): Promise<CheckoutRow | null> {
  const [row] = await tx.select().from(checkouts).where(eq(checkouts.id, id)).for('update');
  return row ?? null;
}

/**
 * The one way a checkout's status changes: along an edge of the lifecycle table
 * (common/domain/checkout-lifecycle.ts), `WHERE status = ANY(the statuses that may move to `to`)`.
 * `from`, when given, narrows the sources and must be legal (else IllegalTransitionError); false when
 * the row is in no allowed source any more (another writer got there first).
 */
export async function transitionCheckout(
  tx: DbOrTx,
  id: string,
  to: CheckoutStatus,
  opts: { from?: readonly CheckoutStatus[]; set?: Partial<Pick<CheckoutRow, 'discountClaimed' | 'paymentCheckAt'>> } = {},
): Promise<boolean> {
  for (const from of opts.from ?? []) assertTransition('checkout', from, to);
  const rows = await tx
    .update(checkouts)
    .set({ status: to, updatedAt: new Date(), ...opts.set })
    .where(and(eq(checkouts.id, id), inArray(checkouts.status, [...(opts.from ?? sourcesOf('checkout', to))])))
    .returning({ id: checkouts.id });
  return rows.length > 0;
}

/** Expired open checkouts, oldest first, after `cursor` (keyset: a kept hold never blocks the rest). */
export async function listExpiredOpenCheckouts(
  db: DbOrTx,
  now: Date | SQL,
  limit: number,
  cursor: { holdExpiresAt: Date; id: string } | null,
): Promise<Array<{ id: string; paymentIntentId: string | null; holdExpiresAt: Date }>> {
  return db
    .select({ id: checkouts.id, paymentIntentId: checkouts.paymentIntentId, holdExpiresAt: checkouts.holdExpiresAt })
    .from(checkouts)
    .where(
      and(
        eq(checkouts.status, 'open'),
        now instanceof Date ? lt(checkouts.holdExpiresAt, now) : sql`${checkouts.holdExpiresAt} < ${now}`,
        cursor
          ? sql`(${checkouts.holdExpiresAt}, ${checkouts.id}) > (${cursor.holdExpiresAt.toISOString()}::timestamptz, ${cursor.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(checkouts.holdExpiresAt), asc(checkouts.id))
    .limit(limit);
}

export interface PaymentCheck {
  id: string;
  intentId: string;
  status: string;
  holdExpiresAt: Date;
}

/**
 * Checkouts whose intent may be paid without an order and are due for a look at the gateway, by
 * payment state (partial index checkouts_payment_check_idx): abandoned checkouts cannot push a paid one
 * out of a window, and each one checked moves on (deferPaymentChecks) or leaves the set (settled).
 */
export async function listDuePaymentChecks(
  db: DbOrTx,
  opts: { now: Date; createdBefore: Date; limit: number },
): Promise<PaymentCheck[]> {
  const rows = await db
    .select({
      id: checkouts.id,
      intentId: checkouts.paymentIntentId,
      status: checkouts.status,
      holdExpiresAt: checkouts.holdExpiresAt,
    })
    .from(checkouts)
    .where(
      and(
        isNotNull(checkouts.paymentCheckAt),
        isNotNull(checkouts.paymentIntentId),
        lte(checkouts.paymentCheckAt, opts.now),
        lt(checkouts.createdAt, opts.createdBefore),
        // Still able to become an order.
        inArray(checkouts.status, sourcesOf('checkout', 'fulfilled')),
      ),
    )
    .orderBy(asc(checkouts.paymentCheckAt), asc(checkouts.id))
    .limit(opts.limit);
  return rows.map((r) => ({ ...r, intentId: r.intentId! }));
}

/**
 * The next look at an unpaid intent comes after a quarter of the checkout's age (30 s to 30 min):
 * a fresh attempt is asked about every 30 s, a day-old abandoned one a few times an hour.
 */
export async function deferPaymentChecks(db: DbOrTx, ids: readonly string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(checkouts)
    .set({
      paymentCheckAt: sql`now() + least(interval '30 minutes', greatest(interval '30 seconds', (now() - ${checkouts.createdAt}) / 4))`,
    })
    .where(and(inArray(checkouts.id, [...ids]), lte(checkouts.paymentCheckAt, now)));
}

/** Sets (at = a date: due then) or clears (at = null: settled, never asked about again) the next payment check. */
export async function setPaymentCheck(db: DbOrTx, id: string, at: Date | null): Promise<void> {
  await db.update(checkouts).set({ paymentCheckAt: at }).where(eq(checkouts.id, id));
}

/**
 * The sessions among `sessionIds` that hold (an open checkout) or bought (a fulfilled one) the product, or
 * whose payment for it was refunded (over the per-shopper limit, or paid after its hold was lost): the drops
 * module counts them out of its live promises (ADR 010, admission that matches what can be bought). A refunded
 * session has had its turn: counting it as a promise kept the piece its refund gave back from the next in line.
 */
export async function findSessionsHoldingOrBought(db: DbOrTx, productId: string, sessionIds: readonly string[]): Promise<string[]> {
  if (sessionIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ sessionId: checkouts.sessionId })
    .from(checkouts)
    .where(
      and(
        inArray(checkouts.sessionId, [...sessionIds]),
        inArray(checkouts.status, ['open', 'fulfilled', 'refunded']),
        sql`${checkouts.lines} @> ${JSON.stringify([{ productId }])}::jsonb`,
      ),
    );
  return rows.map((r) => r.sessionId);
}

/** One payment attempt at a time per shopper (double clicks, two tabs): held until the transaction ends. */
export async function lockShopperAttempts(tx: DbOrTx, sessionId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${lockClass('checkoutSession')}, hashtext(${sessionId}))`);
}

/** The clock's instant as the database sees it (`now()` in production), rounded up to the millisecond. */
export async function readDatabaseNow(db: DbOrTx, now: SQL): Promise<Date> {
  const { rows } = await db.execute<{ ms: number }>(sql`select extract(epoch from ${now})::float8 * 1000 as ms`);
  return new Date(Math.ceil(Number(rows[0]!.ms)));
}
