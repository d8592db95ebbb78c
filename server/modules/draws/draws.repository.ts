import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  NO_FAIRNESS,
  pastOutcomeOf,
  type DrawFairness,
  type DrawFairnessRule,
  type PastOutcome,
} from '../../../common/domain/draw-fairness';
import { drawSourcesOf, type DrawEntryStatus, type DrawStatus } from '../../../common/domain/draw-lifecycle';
import { drawEntries, drawFairness, draws } from './draws.tables';

export type DrawRow = typeof draws.$inferSelect;
export type DrawEntryRow = typeof drawEntries.$inferSelect;
export type NewDrawEntry = typeof drawEntries.$inferInsert;

// Every status change is one conditional UPDATE along an edge of common/domain/draw-lifecycle.ts: the row
// moves only from a status that may move there, so a repeated or concurrent step changes nothing twice.

export async function findDraw(db: DbOrTx, id: string, opts: { lock?: boolean } = {}): Promise<DrawRow | null> {
  const q = db.select().from(draws).where(eq(draws.id, id)).limit(1);
  const [row] = opts.lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function moveDraw(
  db: DbOrTx,
  id: string,
  to: DrawStatus,
  set: Partial<typeof draws.$inferInsert> = {},
): Promise<DrawRow | null> {
  const [row] = await db
    .update(draws)
    .set({ ...set, status: to, updatedAt: new Date() })
    .where(and(eq(draws.id, id), inArray(draws.status, drawSourcesOf('draw', to))))
    .returning();
  return row ?? null;
}

export async function moveEntries(
  db: DbOrTx,
  where: { drawId?: string; ids?: readonly string[] },
  to: DrawEntryStatus,
  set: Partial<typeof drawEntries.$inferInsert> = {},
): Promise<DrawEntryRow[]> {
  if (where.ids && where.ids.length === 0) return [];
  return db
    .update(drawEntries)
    .set({ ...set, status: to, updatedAt: new Date() })
    .where(
      and(
        where.drawId ? eq(drawEntries.drawId, where.drawId) : undefined,
        where.ids ? inArray(drawEntries.id, [...where.ids]) : undefined,
        inArray(drawEntries.status, drawSourcesOf('entry', to)),
      ),
    )
    .returning();
}

export async function entriesOf(
  db: DbOrTx,
  drawId: string,
  statuses?: readonly DrawEntryStatus[],
): Promise<DrawEntryRow[]> {
  return db
    .select()
    .from(drawEntries)
    .where(and(eq(drawEntries.drawId, drawId), statuses ? inArray(drawEntries.status, [...statuses]) : undefined))
    .orderBy(asc(drawEntries.rank), asc(drawEntries.confirmedAt), asc(drawEntries.createdAt), asc(drawEntries.id));
}

export async function countEntries(db: DbOrTx, drawIds: readonly string[]): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>();
  if (drawIds.length === 0) return out;
  const rows = await db
    .select({ drawId: drawEntries.drawId, status: drawEntries.status, n: sql<number>`count(*)::int` })
    .from(drawEntries)
    .where(inArray(drawEntries.drawId, [...drawIds]))
    .groupBy(drawEntries.drawId, drawEntries.status);
  for (const r of rows) out.set(r.drawId, { ...(out.get(r.drawId) ?? {}), [r.status]: r.n });
  return out;
}

export async function findEntryByTokenHash(db: DbOrTx, tokenHash: string): Promise<DrawEntryRow | null> {
  const [row] = await db.select().from(drawEntries).where(eq(drawEntries.manageTokenHash, tokenHash)).limit(1);
  return row ?? null;
}

/** The entry a settle step works on, locked; skipped while another instance holds it (null then). */
export async function lockEntry(tx: DbOrTx, id: string, status: DrawEntryStatus): Promise<DrawEntryRow | null> {
  const [row] = await tx
    .select()
    .from(drawEntries)
    .where(and(eq(drawEntries.id, id), eq(drawEntries.status, status)))
    .for('update', { skipLocked: true });
  return row ?? null;
}

export async function setAuthorisationState(
  db: DbOrTx,
  id: string,
  state: 'captured' | 'voided' | 'failed',
): Promise<void> {
  await db
    .update(drawEntries)
    .set({ authorisationState: state, updatedAt: new Date() })
    // A prepared card (never sent to the bank) is released like a held one.
    .where(and(eq(drawEntries.id, id), inArray(drawEntries.authorisationState, ['authorised', 'prepared'])));
}

/** Marks the results of these entries mailed, once: only rows not yet marked come back (they get the mail). */
export async function claimResultMails(db: DbOrTx, drawId: string, statuses: readonly DrawEntryStatus[]): Promise<DrawEntryRow[]> {
  return db
    .update(drawEntries)
    .set({ resultMailedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(drawEntries.drawId, drawId),
        inArray(drawEntries.status, [...statuses]),
        isNull(drawEntries.resultMailedAt),
      ),
    )
    .returning();
}

// ---- fair over time (common/domain/draw-fairness.ts) ------------------------------------------------

/** The fair-over-time rule of each draw; a draw without a row is off. */
export async function fairnessOf(db: DbOrTx, drawIds: readonly string[]): Promise<Map<string, DrawFairness>> {
  const out = new Map<string, DrawFairness>(drawIds.map((id) => [id, NO_FAIRNESS]));
  if (drawIds.length === 0) return out;
  const rows = await db.select().from(drawFairness).where(inArray(drawFairness.drawId, [...drawIds]));
  for (const r of rows) out.set(r.drawId, { rule: r.rule as DrawFairnessRule, lookback: r.lookback });
  return out;
}

export async function saveFairness(db: DbOrTx, drawId: string, f: DrawFairness): Promise<void> {
  await db
    .insert(drawFairness)
    .values({ drawId, rule: f.rule, lookback: f.lookback })
    .onConflictDoUpdate({ target: drawFairness.drawId, set: { rule: f.rule, lookback: f.lookback } });
}

/** Draws that have run (drawn or settled), other than `drawId`, most recently drawn first: SQL for a filter. */
const EARLIER_DRAWS = sql`${draws.status} in ('drawn', 'settled') and ${draws.drawnAt} is not null`;

/**
 * For each confirmed entry of `drawId`, by folded mailbox: how its entrant's most recent `lookback` draws
 * here ended (only draws they were ranked in, most recent first). Entrants with no earlier draw are absent.
 */
export async function pastOutcomes(
  db: DbOrTx,
  drawId: string,
  lookback: number,
): Promise<Map<string, PastOutcome[]>> {
  const earlier = db
    .select({
      mailboxKey: drawEntries.mailboxKey,
      status: drawEntries.status,
      n: sql<number>`row_number() over (partition by ${drawEntries.mailboxKey} order by ${draws.drawnAt} desc, ${draws.id} desc)`.as('n'),
    })
    .from(drawEntries)
    .innerJoin(draws, eq(draws.id, drawEntries.drawId))
    .where(
      and(
        sql`${drawEntries.rank} is not null`,
        sql`${draws.id} <> ${drawId}`,
        EARLIER_DRAWS,
        sql`${drawEntries.mailboxKey} in (select c.mailbox_key from draw_entries c where c.draw_id = ${drawId} and c.status = 'confirmed')`,
      ),
    )
    .as('earlier');
  const rows = await db
    .select({ mailboxKey: earlier.mailboxKey, status: earlier.status })
    .from(earlier)
    .where(sql`${earlier.n} <= ${lookback}`)
    .orderBy(earlier.mailboxKey, earlier.n);
  const out = new Map<string, PastOutcome[]>();
  for (const r of rows) out.set(r.mailboxKey, [...(out.get(r.mailboxKey) ?? []), pastOutcomeOf(r.status)]);
  return out;
}

/** Confirmed entries of `drawId` whose mailbox won (or is being charged in) one of the shop's last `lookback` draws. */
export async function entriesOfRecentWinners(db: DbOrTx, drawId: string, lookback: number): Promise<DrawEntryRow[]> {
  const lastDraws = db
    .select({ id: draws.id })
    .from(draws)
    .where(and(sql`${draws.id} <> ${drawId}`, EARLIER_DRAWS))
    .orderBy(sql`${draws.drawnAt} desc`, sql`${draws.id} desc`)
    .limit(lookback);
  const winners = db
    .select({ mailboxKey: drawEntries.mailboxKey })
    .from(drawEntries)
    .where(and(inArray(drawEntries.drawId, lastDraws), inArray(drawEntries.status, ['won', 'selected'])));
  return db
    .select()
    .from(drawEntries)
    .where(
      and(
        eq(drawEntries.drawId, drawId),
        eq(drawEntries.status, 'confirmed'),
        inArray(drawEntries.mailboxKey, winners),
      ),
    );
}
