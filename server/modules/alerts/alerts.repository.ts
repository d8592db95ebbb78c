import { and, asc, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { AlertKind } from '../../../common/domain/product-alerts';
import { productAlerts } from './alerts.tables';

export type AlertRow = typeof productAlerts.$inferSelect;
export type MailableAlert = Pick<
  AlertRow,
  'id' | 'productId' | 'email' | 'token' | 'claimToken' | 'kind' | 'reservedUntil' | 'reservedVariantId'
>;

const mailable = {
  id: productAlerts.id,
  productId: productAlerts.productId,
  email: productAlerts.email,
  token: productAlerts.token,
  claimToken: productAlerts.claimToken,
  kind: productAlerts.kind,
  reservedUntil: productAlerts.reservedUntil,
  reservedVariantId: productAlerts.reservedVariantId,
};

/**
 * A signup; false when this address, or another spelling of its mailbox (the same `mailboxKey`), already
 * asked for this alert (it is switched back on if it had unsubscribed). One signup per mailbox and product:
 * asking again for another size changes the size it waits for, unless it was already mailed or reserved.
 */
export async function insertAlert(
  db: DbOrTx,
  row: { productId: string; email: string; mailboxKey: string; kind: AlertKind; token: string; variantId?: string | null },
): Promise<boolean> {
  const inserted = await db
    .insert(productAlerts)
    .values({ ...row, variantId: row.variantId ?? null })
    .onConflictDoNothing()
    .returning({ id: productAlerts.id });
  if (inserted.length > 0) return true;
  const same = and(
    eq(productAlerts.productId, row.productId),
    or(eq(productAlerts.email, row.email), eq(productAlerts.mailboxKey, row.mailboxKey)),
    eq(productAlerts.kind, row.kind),
  );
  await db
    .update(productAlerts)
    .set({ variantId: row.variantId ?? null })
    .where(and(same, isNull(productAlerts.notifiedAt), isNull(productAlerts.reservedUntil)));
  await db
    .update(productAlerts)
    .set({ unsubscribedAt: null })
    .where(
      and(
        eq(productAlerts.productId, row.productId),
        or(eq(productAlerts.email, row.email), eq(productAlerts.mailboxKey, row.mailboxKey)),
        eq(productAlerts.kind, row.kind),
        isNotNull(productAlerts.unsubscribedAt),
      ),
    );
  return false;
}

const pending = (kind: AlertKind) =>
  and(eq(productAlerts.kind, kind), isNull(productAlerts.notifiedAt), isNull(productAlerts.unsubscribedAt));

/** Products with someone waiting for this kind of mail. */
export async function listPendingProducts(db: DbOrTx, kind: AlertKind): Promise<string[]> {
  const rows = await db
    .selectDistinct({ productId: productAlerts.productId })
    .from(productAlerts)
    .where(and(pending(kind), kind === 'restock' ? isNull(productAlerts.reservedUntil) : undefined));
  return rows.map((r) => r.productId);
}

/**
 * Takes up to `limit` release alerts of these products to mail: marked notified in the same statement,
 * rows locked by another instance skipped, so each subscriber is mailed once however many instances run.
 */
export async function claimReleaseAlerts(db: DbOrTx, productIds: readonly string[], limit: number): Promise<MailableAlert[]> {
  if (productIds.length === 0) return [];
  const ids = db
    .select({ id: productAlerts.id })
    .from(productAlerts)
    .where(and(pending('release'), inArray(productAlerts.productId, [...productIds])))
    .orderBy(asc(productAlerts.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(productAlerts)
    .set({ notifiedAt: sql`now()` })
    .where(and(inArray(productAlerts.id, ids), isNull(productAlerts.notifiedAt)))
    .returning(mailable);
}

export interface Reservation {
  claimToken: string;
  reservedUntil: Date;
  /** The size of the piece kept; null: any piece of the edition. */
  variantId: string | null;
}

/** Live reservations of a product's returned pieces (mailed or about to be), with their claim tokens. */
export async function findReservations(db: DbOrTx, productId: string): Promise<Reservation[]> {
  const rows = await db
    .select({
      claimToken: productAlerts.claimToken,
      reservedUntil: productAlerts.reservedUntil,
      variantId: productAlerts.reservedVariantId,
    })
    .from(productAlerts)
    .where(
      and(
        eq(productAlerts.productId, productId),
        eq(productAlerts.kind, 'restock'),
        gt(productAlerts.reservedUntil, sql`now()`),
        isNull(productAlerts.unsubscribedAt),
      ),
    );
  // A reservation always has its claim token (reserveNext sets both); '' never matches a cookie.
  return rows.map((r) => ({ claimToken: r.claimToken ?? '', reservedUntil: r.reservedUntil!, variantId: r.variantId }));
}

/**
 * The next `count` restock subscribers of a product, first come first served, get a reservation (mailed
 * next). With `variantId` the pieces are of that size: the subscribers waiting for it or for any size, and
 * the reservation names it; without, pieces of an unsplit edition: every subscriber in line.
 */
export async function reserveNext(
  tx: DbOrTx,
  productId: string,
  count: number,
  minutes: number,
  variantId: string | null = null,
): Promise<number> {
  if (count <= 0) return 0;
  const ids = tx
    .select({ id: productAlerts.id })
    .from(productAlerts)
    .where(
      and(
        pending('restock'),
        isNull(productAlerts.reservedUntil),
        eq(productAlerts.productId, productId),
        variantId === null ? undefined : or(eq(productAlerts.variantId, variantId), isNull(productAlerts.variantId)),
      ),
    )
    .orderBy(asc(productAlerts.createdAt), asc(productAlerts.id))
    .limit(count)
    .for('update', { skipLocked: true });
  const rows = await tx
    .update(productAlerts)
    .set({
      reservedUntil: sql`now() + make_interval(secs => ${minutes * 60})`,
      // A claim token of its own for this reservation (two v4 UUIDs from PostgreSQL's strong random: 244 bits).
      claimToken: sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`,
      claimedAt: null,
      reservedVariantId: variantId,
    })
    .where(inArray(productAlerts.id, ids))
    .returning({ id: productAlerts.id });
  return rows.length;
}

/** Reserved but not yet mailed: marked mailed, and the window starts now (the mail says until when). */
export async function claimReservedMails(db: DbOrTx, minutes: number, limit: number): Promise<MailableAlert[]> {
  const ids = db
    .select({ id: productAlerts.id })
    .from(productAlerts)
    .where(and(pending('restock'), isNotNull(productAlerts.reservedUntil)))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(productAlerts)
    .set({ notifiedAt: sql`now()`, reservedUntil: sql`now() + make_interval(secs => ${minutes * 60})` })
    .where(and(inArray(productAlerts.id, ids), isNull(productAlerts.notifiedAt)))
    .returning(mailable);
}

/** A mail that could not be sent is tried again by the next run. */
export async function unmarkNotified(db: DbOrTx, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.update(productAlerts).set({ notifiedAt: null }).where(inArray(productAlerts.id, [...ids]));
}

export async function findByClaimToken(db: DbOrTx, claimToken: string): Promise<AlertRow | null> {
  const [row] = await db.select().from(productAlerts).where(eq(productAlerts.claimToken, claimToken)).limit(1);
  return row ?? null;
}

/** The first use of a claim link binds it to that browser: true for the one request that set claimed_at. */
export async function markClaimed(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .update(productAlerts)
    .set({ claimedAt: sql`now()` })
    .where(and(eq(productAlerts.id, id), isNull(productAlerts.claimedAt)))
    .returning({ id: productAlerts.id });
  return rows.length > 0;
}

export async function findByToken(db: DbOrTx, token: string): Promise<AlertRow | null> {
  const [row] = await db.select().from(productAlerts).where(eq(productAlerts.token, token)).limit(1);
  return row ?? null;
}

/** Unsubscribes (idempotent); a live reservation ends with it. */
export async function unsubscribeByToken(db: DbOrTx, token: string): Promise<AlertRow | null> {
  const [row] = await db
    .update(productAlerts)
    .set({ unsubscribedAt: sql`coalesce(${productAlerts.unsubscribedAt}, now())`, reservedUntil: sql`least(${productAlerts.reservedUntil}, now())` })
    .where(eq(productAlerts.token, token))
    .returning();
  return row ?? null;
}

/** A product's signups from before folding (no mailbox key yet), oldest first. */
export async function listUnkeyedAlerts(db: DbOrTx, productId: string): Promise<Array<{ id: string; email: string }>> {
  return db
    .select({ id: productAlerts.id, email: productAlerts.email })
    .from(productAlerts)
    .where(and(eq(productAlerts.productId, productId), isNull(productAlerts.mailboxKey)))
    .orderBy(asc(productAlerts.createdAt), asc(productAlerts.id));
}

/** Gives an old signup its mailbox key unless an older spelling of the mailbox holds it for that alert. */
export async function setAlertMailboxKey(db: DbOrTx, id: string, mailboxKey: string): Promise<void> {
  await db.execute(sql`
    update ${productAlerts} a set mailbox_key = ${mailboxKey}
     where a.id = ${id}
       and not exists (select 1 from ${productAlerts} held
                        where held.product_id = a.product_id and held.kind = a.kind and held.mailbox_key = ${mailboxKey})`);
}
