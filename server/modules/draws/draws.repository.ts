import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import {
  NO_FAIRNESS,
  pastOutcomeOf,
  type DrawFairness,
  type DrawFairnessRule,
  type PastOutcome,
} from '../../../common/domain/draw-fairness';
import {
  AUTHORISATION_HELD,
  DRAW_HAS_RUN,
  DRAW_OWNS_SALE,
  drawSourcesOf,
  ENTRY_IN_PLAY,
  ENTRY_RELEASED,
  FINAL_ENTRY_RESULTS,
  LIVE_ENTRY,
  WINNING_ENTRY,
  type DrawEntryStatus,
  type DrawStatus,
} from '../../../common/domain/draw-lifecycle';
import { drawEntries, drawFairness, draws } from './draws.tables';

export type DrawRow = typeof draws.$inferSelect;
export type DrawEntryRow = typeof drawEntries.$inferSelect;
export type NewDrawEntry = typeof drawEntries.$inferInsert;
export type NewDraw = typeof draws.$inferInsert;

/** A list of statuses as SQL (`status in (${inList(...)})`). */
const inList = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

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

export async function setAuthorisationState(
  db: DbOrTx,
  id: string,
  state: 'captured' | 'voided' | 'failed',
): Promise<void> {
  await db
    .update(drawEntries)
    .set({ authorisationState: state, updatedAt: new Date() })
    // A prepared card (never sent to the bank) is released like a held one.
    .where(and(eq(drawEntries.id, id), inArray(drawEntries.authorisationState, [...AUTHORISATION_HELD])));
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
const EARLIER_DRAWS = sql`${draws.status} in (${inList(DRAW_HAS_RUN)}) and ${draws.drawnAt} is not null`;

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
    .where(and(inArray(drawEntries.drawId, lastDraws), inArray(drawEntries.status, [...WINNING_ENTRY])));
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

// ---- the owner ---------------------------------------------------------------------------------------

/** The latest draws, by draw time (the owner's list). */
export function latestDraws(db: DbOrTx, limit: number): Promise<DrawRow[]> {
  return db.select().from(draws).orderBy(sql`${draws.drawAt} desc`).limit(limit);
}

export async function insertDraw(db: DbOrTx, values: NewDraw): Promise<DrawRow> {
  const [row] = await db.insert(draws).values(values).returning();
  return row!;
}

/** The schedule (and pieces) changed only while the draw is scheduled and its window not yet open by `now`. */
export async function updateScheduledDraw(
  db: DbOrTx,
  id: string,
  set: Partial<NewDraw>,
  now: ReturnType<typeof sql>,
): Promise<DrawRow | null> {
  const [row] = await db
    .update(draws)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(draws.id, id), eq(draws.status, 'scheduled'), sql`${draws.opensAt} > ${now}`))
    .returning();
  return row ?? null;
}

/** A draw's entries for the owner: ranked ones in rank order, then the rest by entry time. */
export function entriesForOwner(db: DbOrTx, drawId: string): Promise<DrawEntryRow[]> {
  return db
    .select()
    .from(drawEntries)
    .where(eq(drawEntries.drawId, drawId))
    .orderBy(sql`${drawEntries.rank} asc nulls last`, drawEntries.createdAt);
}

/** A cancelled draw stamped settled once (its cards released, nothing else to do). */
export async function stampCancelledSettled(db: DbOrTx, drawId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(draws)
    .set({ settledAt: at, updatedAt: new Date() })
    .where(and(eq(draws.id, drawId), eq(draws.status, 'cancelled'), isNull(draws.settledAt)))
    .returning({ id: draws.id });
  return rows.length > 0;
}

// ---- the public -------------------------------------------------------------------------------------

/** Every product that ever had a draw. */
export async function productsWithDraws(db: DbOrTx): Promise<Set<string>> {
  const rows = await db.selectDistinct({ productId: draws.productId }).from(draws);
  return new Set(rows.map((r) => r.productId));
}

/** The draws that own their product's sale now (DRAW_OWNS_SALE), by product. */
export function drawsOwningSales(db: DbOrTx): Promise<DrawRow[]> {
  return db.select().from(draws).where(inArray(draws.status, [...DRAW_OWNS_SALE])).orderBy(draws.productId);
}

/** The products among these whose sale a draw owns now. */
export async function productsSoldByDraw(db: DbOrTx, productIds: readonly string[]): Promise<Set<string>> {
  if (productIds.length === 0) return new Set();
  const rows = await db
    .select({ productId: draws.productId })
    .from(draws)
    .where(and(inArray(draws.productId, [...productIds]), inArray(draws.status, [...DRAW_OWNS_SALE])));
  return new Set(rows.map((r) => r.productId));
}

/** The draw a product page shows: the one under way, else the latest. */
export async function productDraw(db: DbOrTx, productId: string): Promise<DrawRow | null> {
  const [row] = await db
    .select()
    .from(draws)
    .where(eq(draws.productId, productId))
    .orderBy(sql`(${draws.status} in (${inList(DRAW_OWNS_SALE)})) desc`, sql`${draws.drawAt} desc`)
    .limit(1);
  return row ?? null;
}

// ---- entering ---------------------------------------------------------------------------------------

/** The live (pending or confirmed) entry of a folded mailbox in a draw. */
export async function liveEntryOf(db: DbOrTx, drawId: string, mailbox: string): Promise<DrawEntryRow | null> {
  const [row] = await db
    .select()
    .from(drawEntries)
    .where(
      and(
        eq(drawEntries.drawId, drawId),
        eq(drawEntries.mailboxKey, mailbox),
        inArray(drawEntries.status, [...LIVE_ENTRY]),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function insertEntry(db: DbOrTx, values: NewDrawEntry): Promise<DrawEntryRow> {
  const [row] = await db.insert(drawEntries).values(values).returning();
  return row!;
}

export async function authorisationInUse(db: DbOrTx, authorisationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: drawEntries.id })
    .from(drawEntries)
    .where(eq(drawEntries.authorisationId, authorisationId))
    .limit(1);
  return Boolean(row);
}

/** A pending entry's row changed (its card, its confirmation), only while still pending with that card. */
export async function updatePending(
  db: DbOrTx,
  id: string,
  set: Partial<NewDrawEntry>,
  authorisationId?: string,
): Promise<DrawEntryRow | null> {
  const [row] = await db
    .update(drawEntries)
    .set({ ...set, updatedAt: new Date() })
    .where(
      and(
        eq(drawEntries.id, id),
        eq(drawEntries.status, 'pending'),
        authorisationId === undefined ? undefined : eq(drawEntries.authorisationId, authorisationId),
      ),
    )
    .returning();
  return row ?? null;
}

/** A live entry's sizes changed; null once it is no longer live. */
export async function changeLiveSizes(
  db: DbOrTx,
  id: string,
  sizes: { size: string | null; secondSize: string | null },
): Promise<DrawEntryRow | null> {
  const [row] = await db
    .update(drawEntries)
    .set({ ...sizes, updatedAt: new Date() })
    .where(and(eq(drawEntries.id, id), inArray(drawEntries.status, [...LIVE_ENTRY])))
    .returning();
  return row ?? null;
}

// ---- the run ----------------------------------------------------------------------------------------

/** Draws with work to do by `now`: due to open, to close, to draw, or drawn and not settled. */
export function dueDraws(db: DbOrTx, now: ReturnType<typeof sql>): Promise<DrawRow[]> {
  return db
    .select()
    .from(draws)
    .where(
      sql`(${draws.status} = 'scheduled' and ${draws.opensAt} <= ${now})
        or (${draws.status} = 'open' and ${draws.closesAt} <= ${now})
        or (${draws.status} = 'closed' and ${draws.drawAt} <= ${now})
        or ${draws.status} = 'drawn'
        or (${draws.status} = 'cancelled' and ${draws.settledAt} is null)`,
    );
}

/**
 * Each entry's rank and weight, one statement per 5,000 entries (a JSON batch), not one per entry: a large
 * draw ranks in a few statements inside its transaction.
 */
export async function writeRanks(
  tx: Tx,
  ranked: ReadonlyArray<{ id: string; rank: number | null; weight: number }>,
  at: Date,
): Promise<void> {
  for (let i = 0; i < ranked.length; i += 5_000) {
    const batch = ranked.slice(i, i + 5_000);
    const rows = JSON.stringify(batch.map((e) => ({ id: e.id, rank: e.rank, weight: e.weight })));
    await tx.execute(sql`
      update draw_entries as e
         set rank = b.rank, weight = b.weight, updated_at = ${at}
        from jsonb_to_recordset(${rows}::jsonb) as b(id uuid, rank int, weight int)
       where e.id = b.id`);
  }
}

/** The best-ranked entry of a draw in `status`, if any (`lock`: FOR UPDATE, every such entry). */
export async function entriesByRank(
  db: DbOrTx,
  drawId: string,
  status: DrawEntryStatus,
  opts: { limit?: number; lock?: boolean } = {},
): Promise<DrawEntryRow[]> {
  const q = db
    .select()
    .from(drawEntries)
    .where(and(eq(drawEntries.drawId, drawId), eq(drawEntries.status, status)))
    .orderBy(drawEntries.rank);
  const limited = opts.limit === undefined ? q : q.limit(opts.limit);
  return opts.lock ? limited.for('update') : limited;
}

/**
 * Claims a selected entry's capture (authorised → capturing, stamped `at`), or takes over a claim older than
 * `staleBefore` (its instance died between the gateway and the record). Null: another instance holds a fresh
 * claim, or the entry moved on.
 */
export async function claimCapture(db: DbOrTx, id: string, at: Date, staleBefore: Date): Promise<DrawEntryRow | null> {
  const [row] = await db
    .update(drawEntries)
    .set({ authorisationState: 'capturing', updatedAt: at })
    .where(
      and(
        eq(drawEntries.id, id),
        eq(drawEntries.status, 'selected'),
        or(
          inArray(drawEntries.authorisationState, drawSourcesOf('authorisation', 'capturing')),
          and(eq(drawEntries.authorisationState, 'capturing'), lte(drawEntries.updatedAt, staleBefore)),
        ),
      ),
    )
    .returning();
  return row ?? null;
}

/** A claim given back (the gateway could not be asked): the entry is captured on the next run. */
export async function releaseCaptureClaim(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(drawEntries)
    .set({ authorisationState: 'authorised', updatedAt: new Date() })
    .where(and(eq(drawEntries.id, id), eq(drawEntries.status, 'selected'), eq(drawEntries.authorisationState, 'capturing')));
}

/** The claimed entry, locked to record its capture's answer; null when another instance recorded it. */
export async function lockClaimed(tx: Tx, id: string): Promise<DrawEntryRow | null> {
  const [row] = await tx
    .select()
    .from(drawEntries)
    .where(
      and(eq(drawEntries.id, id), eq(drawEntries.status, 'selected'), eq(drawEntries.authorisationState, 'capturing')),
    )
    .for('update');
  return row ?? null;
}

/** Entries whose card is still held though the draw no longer needs it. */
export function authorisationsToRelease(db: DbOrTx, drawId: string): Promise<DrawEntryRow[]> {
  return db
    .select()
    .from(drawEntries)
    .where(
      and(
        eq(drawEntries.drawId, drawId),
        inArray(drawEntries.status, [...ENTRY_RELEASED]),
        inArray(drawEntries.authorisationState, [...AUTHORISATION_HELD]),
      ),
    );
}

/** How many entries of a draw still need something: in play, a card to release, a result to mail. */
export async function openWork(db: DbOrTx, drawId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(drawEntries)
    .where(
      and(
        eq(drawEntries.drawId, drawId),
        sql`(${drawEntries.status} in (${inList(ENTRY_IN_PLAY)})
          or (${drawEntries.status} in (${inList(ENTRY_RELEASED)})
              and ${drawEntries.authorisationState} in (${inList(AUTHORISATION_HELD)}))
          or (${drawEntries.status} in (${inList(FINAL_ENTRY_RESULTS)}) and ${drawEntries.resultMailedAt} is null))`,
      ),
    );
  return row?.n ?? 0;
}
