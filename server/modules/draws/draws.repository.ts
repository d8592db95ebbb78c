import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { drawSourcesOf, type DrawEntryStatus, type DrawStatus } from '../../../common/domain/draw-lifecycle';
import { drawEntries, draws } from './draws.tables';

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
    .where(and(eq(drawEntries.id, id), eq(drawEntries.authorisationState, 'authorised')));
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
