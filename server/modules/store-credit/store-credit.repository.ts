import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { redemptionSourcesOf, type CreditGrantSource, type GrantLeft } from '../../../common/domain/store-credit';
import { storeCreditAccounts, storeCreditEntries, storeCreditExpiryNotices, storeCreditRedemptions } from './store-credit.tables';

export type EntryRow = typeof storeCreditEntries.$inferSelect;
export type RedemptionRow = typeof storeCreditRedemptions.$inferSelect;

/** The account of a mailbox, made on first use; the address last typed is kept (the credit mails go there). */
export async function upsertAccount(tx: DbOrTx, ownerKey: string, email: string): Promise<void> {
  await tx
    .insert(storeCreditAccounts)
    .values({ ownerKey, email })
    .onConflictDoUpdate({ target: storeCreditAccounts.ownerKey, set: { email, updatedAt: sql`now()` } });
}

/**
 * The ledger owner's row locked: every spend of one balance waits for the one before it. NO KEY UPDATE, so the
 * entries a release or grant inserts (their foreign key takes KEY SHARE on this row) never wait on it or deadlock.
 */
export async function lockAccount(tx: DbOrTx, ownerKey: string): Promise<boolean> {
  const rows = await tx.select({ k: storeCreditAccounts.ownerKey }).from(storeCreditAccounts).where(eq(storeCreditAccounts.ownerKey, ownerKey)).for('no key update');
  return rows.length > 0;
}

export async function findAccount(db: DbOrTx, ownerKey: string) {
  const [row] = await db.select().from(storeCreditAccounts).where(eq(storeCreditAccounts.ownerKey, ownerKey)).limit(1);
  return row ?? null;
}

/** What is left of each grant of these owners: amount − redemptions + releases − expiries. */
export async function grantsLeft(db: DbOrTx, ownerKeys: readonly string[]): Promise<Array<GrantLeft & { ownerKey: string; amountCents: number; source: string; reason: string | null; orderId: string | null; createdAt: Date }>> {
  if (ownerKeys.length === 0) return [];
  const moved = db
    .select({
      grantId: storeCreditEntries.grantId,
      net: sql<string>`sum(case ${storeCreditEntries.kind} when 'release' then -${storeCreditEntries.amountCents} else ${storeCreditEntries.amountCents} end)`.as('net'),
    })
    .from(storeCreditEntries)
    .where(and(inArray(storeCreditEntries.ownerKey, [...ownerKeys]), sql`${storeCreditEntries.grantId} is not null`))
    .groupBy(storeCreditEntries.grantId)
    .as('moved');
  const rows = await db
    .select({
      id: storeCreditEntries.id,
      ownerKey: storeCreditEntries.ownerKey,
      amountCents: storeCreditEntries.amountCents,
      net: moved.net,
      expiresAt: storeCreditEntries.expiresAt,
      source: storeCreditEntries.source,
      reason: storeCreditEntries.reason,
      orderId: storeCreditEntries.orderId,
      createdAt: storeCreditEntries.createdAt,
    })
    .from(storeCreditEntries)
    .leftJoin(moved, eq(moved.grantId, storeCreditEntries.id))
    .where(and(inArray(storeCreditEntries.ownerKey, [...ownerKeys]), eq(storeCreditEntries.kind, 'grant')))
    .orderBy(asc(storeCreditEntries.expiresAt), asc(storeCreditEntries.id));
  return rows.map((r) => ({
    id: r.id,
    ownerKey: r.ownerKey,
    amountCents: r.amountCents,
    leftCents: r.amountCents - Number(r.net ?? 0),
    expiresAtMs: r.expiresAt!.getTime(),
    source: r.source!,
    reason: r.reason,
    orderId: r.orderId,
    createdAt: r.createdAt,
  }));
}

/** A grant; null when one with this `sourceRef` exists already (a retried refund grants once). */
export async function insertGrant(
  tx: DbOrTx,
  g: { ownerKey: string; amountCents: number; source: CreditGrantSource; reason: string | null; orderId: string | null; sourceRef: string | null; expiresAt: Date },
): Promise<EntryRow | null> {
  const [row] = await tx
    .insert(storeCreditEntries)
    .values({ ...g, kind: 'grant' })
    .onConflictDoNothing({ target: storeCreditEntries.sourceRef, where: sql`${storeCreditEntries.sourceRef} is not null` })
    .returning();
  return row ?? null;
}

export async function findGrantByRef(db: DbOrTx, sourceRef: string): Promise<EntryRow | null> {
  const [row] = await db.select().from(storeCreditEntries).where(and(eq(storeCreditEntries.sourceRef, sourceRef), eq(storeCreditEntries.kind, 'grant'))).limit(1);
  return row ?? null;
}

export async function insertMoves(
  tx: DbOrTx,
  ownerKey: string,
  kind: 'redemption' | 'release' | 'expiry',
  moves: ReadonlyArray<{ grantId: string; cents: number }>,
  redemptionId: string | null,
): Promise<void> {
  const rows = moves.filter((m) => m.cents > 0).map((m) => ({ ownerKey, kind, amountCents: m.cents, grantId: m.grantId, redemptionId }));
  if (rows.length > 0) await tx.insert(storeCreditEntries).values(rows);
}

/** The grants a redemption took from, and how much from each: what its release gives back. */
export function redemptionMoves(db: DbOrTx, redemptionId: string) {
  return db
    .select({ grantId: storeCreditEntries.grantId, cents: storeCreditEntries.amountCents })
    .from(storeCreditEntries)
    .where(and(eq(storeCreditEntries.redemptionId, redemptionId), eq(storeCreditEntries.kind, 'redemption')));
}

export async function insertRedemption(tx: DbOrTx, r: { ownerKey: string; checkoutId: string; amountCents: number }): Promise<RedemptionRow> {
  const [row] = await tx.insert(storeCreditRedemptions).values({ ...r, status: 'held' }).returning();
  return row!;
}

/** The checkout's live redemption (held or spent), if any. */
export async function liveRedemptionOf(db: DbOrTx, checkoutId: string): Promise<RedemptionRow | null> {
  const [row] = await db
    .select()
    .from(storeCreditRedemptions)
    .where(and(eq(storeCreditRedemptions.checkoutId, checkoutId), inArray(storeCreditRedemptions.status, ['held', 'spent'])))
    .limit(1);
  return row ?? null;
}

/** held → spent | released, once (a conditional UPDATE along the lifecycle's edge); null when it had moved already. */
export async function moveRedemption(tx: DbOrTx, checkoutId: string, to: 'spent' | 'released', orderId: string | null): Promise<RedemptionRow | null> {
  const [row] = await tx
    .update(storeCreditRedemptions)
    .set({ status: to, settledAt: sql`now()`, ...(orderId ? { orderId } : {}) })
    .where(and(eq(storeCreditRedemptions.checkoutId, checkoutId), inArray(storeCreditRedemptions.status, redemptionSourcesOf(to))))
    .returning();
  return row ?? null;
}

export function listAccounts(db: DbOrTx, limit: number) {
  return db.select().from(storeCreditAccounts).orderBy(desc(storeCreditAccounts.updatedAt)).limit(limit);
}

/** Owners with a grant that ran out with something possibly left: the expiry job's work. */
export async function ownersWithExpiredGrants(db: DbOrTx, nowSql: ReturnType<typeof sql>, limit: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ ownerKey: storeCreditEntries.ownerKey })
    .from(storeCreditEntries)
    .where(
      and(
        eq(storeCreditEntries.kind, 'grant'),
        sql`${storeCreditEntries.expiresAt} <= ${nowSql}`,
        // Something left: the grant's amount above what its entries moved (an expiry entry closes it).
        sql`${storeCreditEntries.amountCents} > coalesce((select sum(case x.kind when 'release' then -x.amount_cents else x.amount_cents end) from store_credit_entries x where x.grant_id = ${storeCreditEntries.id}), 0)`,
      ),
    )
    .limit(limit);
  return rows.map((r) => r.ownerKey);
}

/**
 * Grants that run out within `withinDays` and whose buyer was not told yet (the "expires in 30 days" mail), with
 * something possibly left; the caller checks what is left under the owner's ledger.
 */
export async function grantsExpiringUntold(db: DbOrTx, nowSql: ReturnType<typeof sql>, withinDays: number, limit: number) {
  return db
    .select({ id: storeCreditEntries.id, ownerKey: storeCreditEntries.ownerKey })
    .from(storeCreditEntries)
    .where(
      and(
        eq(storeCreditEntries.kind, 'grant'),
        sql`${storeCreditEntries.expiresAt} > ${nowSql}`,
        sql`${storeCreditEntries.expiresAt} <= ${nowSql} + make_interval(days => ${withinDays})`,
        sql`not exists (select 1 from store_credit_expiry_notices n where n.grant_id = ${storeCreditEntries.id})`,
      ),
    )
    .limit(limit);
}

/** Marks grants told; returns the ones this call marked (another instance's job may have marked some first). */
export async function markExpiryNotices(tx: DbOrTx, grantIds: readonly string[]): Promise<string[]> {
  if (grantIds.length === 0) return [];
  const rows = await tx
    .insert(storeCreditExpiryNotices)
    .values(grantIds.map((grantId) => ({ grantId })))
    .onConflictDoNothing()
    .returning({ grantId: storeCreditExpiryNotices.grantId });
  return rows.map((r) => r.grantId);
}
