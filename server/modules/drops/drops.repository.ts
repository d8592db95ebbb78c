import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { lockClass } from '../../lib/advisory-locks';
import { dropQueue, drops } from './drops.tables';

export type DropRow = typeof drops.$inferSelect;
export type TicketRow = typeof dropQueue.$inferSelect;

/**
 * The queue order: raffle entries (joined before the release) by their secret lottery key, then later
 * arrivals first come, first served. Arrivals after the release only ever go to the end, so once the
 * drop is open every place's rank is fixed, and places 1..admitted_count are the ones let in.
 */
const QUEUE_ORDER = sql.raw(`order by raffle desc, case when raffle then lottery_key else 0 end, seq`);

/** The drop row of a product with a release time (created on first use). */
export async function ensureDropRows(db: DbOrTx, productIds: readonly string[]): Promise<void> {
  if (productIds.length === 0) return;
  await db
    .insert(drops)
    .values(productIds.map((productId) => ({ productId })))
    .onConflictDoNothing();
}

export async function findDropRows(db: DbOrTx, productIds: readonly string[]): Promise<DropRow[]> {
  if (productIds.length === 0) return [];
  return db.select().from(drops).where(inArray(drops.productId, [...productIds]));
}

export async function findTicket(db: DbOrTx, productId: string, sessionId: string): Promise<TicketRow | null> {
  const [row] = await db
    .select()
    .from(dropQueue)
    .where(and(eq(dropQueue.productId, productId), eq(dropQueue.sessionId, sessionId)))
    .limit(1);
  return row ?? null;
}

/** Serialises joins from one network address to one drop (the per-address cap is counted, then kept). */
export async function lockAddress(tx: Tx, productId: string, addressKey: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${lockClass('dropJoinAddress')}, hashtext(${productId} || ':' || ${addressKey}))`);
}

export async function countAddressPlaces(db: DbOrTx, productId: string, addressKey: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(dropQueue)
    .where(and(eq(dropQueue.productId, productId), eq(dropQueue.addressKey, addressKey)));
  return row?.n ?? 0;
}

/**
 * A new place; `raffle` is decided by the database clock (joined before the release). Returns null when
 * the session already has one (a concurrent join won).
 */
export async function insertTicket(
  tx: Tx,
  ticket: { productId: string; sessionId: string; addressKey: string; lotteryKey: number; releaseAt: Date; now: SQL },
): Promise<TicketRow | null> {
  const [row] = await tx
    .insert(dropQueue)
    .values({
      productId: ticket.productId,
      sessionId: ticket.sessionId,
      addressKey: ticket.addressKey,
      lotteryKey: ticket.lotteryKey,
      raffle: sql`${ticket.now} < ${ticket.releaseAt.toISOString()}::timestamptz`,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/**
 * Pacing and the admission cap, one statement, safe on any number of instances (ADR 010):
 * - pace: the credit is the time since the pacing clock `admitted_at`, at the current rate; each place let
 *   in moves the clock on by exactly 60/rate s, so fractions of a place carry across ticks (1 a minute lets
 *   one in every 60 s). The clock never banks more than max(2 s, one place's time): no burst after a
 *   pause, an empty queue, a full room or an outage.
 * - cap: live promises (admitted, pass not lapsed, not holding or bought: admitted_count minus the lapsed
 *   and `engaged` ones) never exceed floor(free pieces × (1 + overbooking)); lapsed passes and released
 *   holds make room again.
 * The drops row is re-read under its lock (READ COMMITTED), so a second instance racing for it finds
 * the count raised and less than one place of time left: nothing is let in twice. The lapsed/engaged count
 * comes from the statement's snapshot; a concurrent admission it misses only makes the cap stricter.
 * Every instant is `now` (the database's clock: SQL now(), or a test's clock). Returns the places let in.
 */
export async function advanceAdmissions(
  db: Db,
  productId: string,
  opts: {
    releaseAt: Date;
    now: SQL;
    /** Free pieces (not held, not sold) as the inventory counts them. */
    stock: number;
    /** DROP_OVERBOOKING: the share of admitted shoppers expected never to buy. */
    overbooking: number;
    passMs: number;
    /** Sessions among the live admissions that already hold or bought the product. */
    engagedSessions: readonly string[];
  },
): Promise<number> {
  const now = opts.now;
  const placeSeconds = sql`(60.0 / d.admit_per_minute)`;
  const base = sql`greatest(coalesce(d.admitted_at, ${opts.releaseAt.toISOString()}::timestamptz), ${now} - greatest(2.0, ${placeSeconds}) * interval '1 second')`;
  const paced = sql`floor(extract(epoch from (${now} - ${base})) * d.admit_per_minute / 60.0)::int`;
  const total = sql`(select count(*)::int from drop_queue t where t.product_id = ${productId} and t.status <> 'left')`;
  const engaged =
    opts.engagedSessions.length > 0
      ? sql`t.session_id in (${sql.join(opts.engagedSessions.map((s) => sql`${s}`), sql`, `)})`
      : sql`false`;
  const settled = sql`(select count(*)::int from drop_queue t where t.product_id = ${productId} and t.status = 'admitted'
    and (t.admitted_at <= ${now} - ${`${Math.round(opts.passMs)} milliseconds`}::interval or ${engaged}))`;
  const capacity = Math.floor(Math.max(0, opts.stock) * (1 + opts.overbooking) + 1e-9);
  const room = sql`(${capacity} - (d.admitted_count - ${settled}))`;
  const n = sql`least(${paced}, ${room}, ${total} - d.admitted_count)`;
  // The drop row is locked by a statement of its own first: the ranking below then reads a snapshot taken
  // after any rejoin or leave that held the lock (requeueTicket, leaveTicket) has committed. In one statement
  // the snapshot would predate the wait, rank a rejoined place at its old spot and let it in a second time.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from drops where product_id = ${productId} for update`);
    const result = await tx.execute<{ id: string }>(sql`
      with adv as (
        update drops d set
          admitted_count = d.admitted_count + ${n},
          admitted_at = case
            when d.admitted_count + ${n} >= ${total} then ${now}
            else ${base} + (${n} * ${placeSeconds}) * interval '1 second'
          end,
          updated_at = ${now}
        where d.product_id = ${productId} and not d.paused and d.sold_out_at is null
          and d.admitted_count < ${total} and ${n} >= 1
        returning d.admitted_count
      ), ranked as (
        select q.id, row_number() over (${QUEUE_ORDER}) as place
        from drop_queue q where q.product_id = ${productId} and q.status <> 'left'
      )
      update drop_queue q set status = 'admitted', admitted_at = ${now}
      from ranked r, adv
      where q.id = r.id and q.status = 'waiting' and r.place <= adv.admitted_count
      returning q.id`);
    return result.rowCount ?? 0;
  });
}

/** The admitted places of a drop whose pass is still live at `now`, earliest admission first. */
export async function listLiveAdmissions(
  db: DbOrTx,
  productId: string,
  opts: { now: SQL; passMs: number },
): Promise<Array<{ sessionId: string; admittedAt: Date }>> {
  const result = await db.execute<{ session_id: string; admitted_at: Date | string }>(sql`
    select session_id, admitted_at from drop_queue
    where product_id = ${productId} and status = 'admitted'
      and admitted_at > ${opts.now} - ${`${Math.round(opts.passMs)} milliseconds`}::interval
    order by admitted_at, id`);
  return result.rows.map((r) => ({ sessionId: r.session_id, admittedAt: new Date(r.admitted_at) }));
}

/** Everyone still waiting is told the edition sold out, at once (stamped `now`); false when it was already done. */
export async function markSoldOut(db: Db, productId: string, now: SQL): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(drops)
      .set({ soldOutAt: now, updatedAt: now })
      .where(and(eq(drops.productId, productId), sql`${drops.soldOutAt} is null`))
      .returning({ productId: drops.productId });
    if (!row) return false;
    await tx
      .update(dropQueue)
      .set({ status: 'sold_out' })
      .where(and(eq(dropQueue.productId, productId), eq(dropQueue.status, 'waiting')));
    return true;
  });
}

/**
 * A piece came back after the sell-out was stamped (an owner's cancellation inside the window, or any path the
 * stamp did not foresee): the drop is open again and everyone who was told "sold out" is back in line at their
 * old place (ranks count every place that did not leave, so nobody moves). Only when someone was told: a drop
 * that sold out with nobody waiting stays sold out (its returned piece goes to Notify me). False: nothing done.
 */
export async function reopenSoldOut(db: Db, productId: string, now: SQL): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(drops)
      .set({ soldOutAt: null, updatedAt: now })
      .where(
        and(
          eq(drops.productId, productId),
          sql`${drops.soldOutAt} is not null`,
          sql`exists (select 1 from drop_queue t where t.product_id = ${productId} and t.status = 'sold_out')`,
        ),
      )
      .returning({ productId: drops.productId });
    if (!row) return false;
    await tx
      .update(dropQueue)
      .set({ status: 'waiting' })
      .where(and(eq(dropQueue.productId, productId), eq(dropQueue.status, 'sold_out')));
    return true;
  });
}

/** Places of a drop that were told "sold out" (they get a returned piece first: reopenSoldOut). */
export async function countToldSoldOut(db: DbOrTx, productId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(dropQueue)
    .where(and(eq(dropQueue.productId, productId), eq(dropQueue.status, 'sold_out')));
  return row?.n ?? 0;
}

export interface PolledTicket {
  id: string;
  sessionId: string;
  status: string;
  raffle: boolean;
  admittedAt: Date | null;
  /** 1-based rank among the places still waiting; null when not waiting. */
  position: number | null;
}

/**
 * A drop's waiting room as one read: the drop row, and every place still in play (waiting, in queue
 * order, then admitted or told sold out) keyed by session. Built once per tick per drop on each
 * instance (room-snapshot.ts); status reads and streams are answered from it.
 */
export interface RoomRead {
  drop: DropRow;
  waiting: number;
  tickets: Map<string, PolledTicket>;
}

/**
 * The one query of a drop per tick that ranks its queue. The places come back as two JSON arrays (one
 * row, parsed by JSON.parse, not as 10,000 result rows): waiting ones in queue order, so a place's
 * position is its index + 1; then the admitted and sold-out ones. Places that left are not in it.
 */
export async function readRoom(db: DbOrTx, productId: string): Promise<RoomRead | null> {
  const result = await db.execute<{
    product_id: string;
    admit_per_minute: number;
    paused: boolean;
    admitted_count: number;
    admitted_at: Date | string | null;
    sold_out_at: Date | string | null;
    message: string | null;
    updated_at: Date | string;
    waiting: Array<[string, string, boolean]> | null;
    others: Array<[string, string, string, boolean, string | null]> | null;
  }>(sql`
    select d.product_id, d.admit_per_minute, d.paused, d.admitted_count, d.admitted_at, d.sold_out_at, d.message, d.updated_at,
      (select json_agg(json_build_array(q.session_id, q.id, q.raffle) ${QUEUE_ORDER})
         from drop_queue q where q.product_id = d.product_id and q.status = 'waiting') as waiting,
      (select json_agg(json_build_array(q.session_id, q.id, q.status, q.raffle, q.admitted_at))
         from drop_queue q where q.product_id = d.product_id and q.status in ('admitted', 'sold_out', 'left')) as others
    from drops d
    where d.product_id = ${productId}`);
  const row = result.rows[0];
  if (!row) return null;
  const date = (v: Date | string | null) => (v === null ? null : new Date(v));
  const tickets = new Map<string, PolledTicket>();
  const waiting = row.waiting ?? [];
  for (let i = 0; i < waiting.length; i++) {
    const [sessionId, id, raffle] = waiting[i]!;
    tickets.set(sessionId, { id, sessionId, status: 'waiting', raffle, admittedAt: null, position: i + 1 });
  }
  for (const [sessionId, id, status, raffle, admittedAt] of row.others ?? [])
    tickets.set(sessionId, { id, sessionId, status, raffle, admittedAt: date(admittedAt), position: null });
  return {
    drop: {
      productId: row.product_id,
      admitPerMinute: row.admit_per_minute,
      paused: row.paused,
      admittedCount: row.admitted_count,
      admittedAt: date(row.admitted_at),
      soldOutAt: date(row.sold_out_at),
      message: row.message,
      updatedAt: date(row.updated_at)!,
    },
    waiting: waiting.length,
    tickets,
  };
}

/** The owner's change; a resume restarts the pacing clock at `now` (the database's clock, or a test's). */
export async function updateDropSettings(
  db: DbOrTx,
  productId: string,
  change: { admitPerMinute?: number; paused?: boolean; message?: string | null },
  now: SQL,
): Promise<DropRow | null> {
  const [row] = await db
    .update(drops)
    .set({
      ...(change.admitPerMinute === undefined ? {} : { admitPerMinute: change.admitPerMinute }),
      ...(change.paused === undefined ? {} : { paused: change.paused }),
      ...(change.message === undefined ? {} : { message: change.message }),
      // Resuming restarts the pacing clock: a pause banks no admissions.
      ...(change.paused === false ? { admittedAt: sql`case when ${drops.paused} then ${now} else ${drops.admittedAt} end` } : {}),
      // Resuming clears the word said for the pause ("Back in 5 minutes" would stay up over a moving line),
      // unless the same change says something new.
      ...(change.paused === false && change.message === undefined
        ? { message: sql`case when ${drops.paused} then null else ${drops.message} end` }
        : {}),
      updatedAt: now,
    })
    .where(eq(drops.productId, productId))
    .returning();
  return row ?? null;
}

export interface QueueCounts {
  productId: string;
  waiting: number;
  admitted: number;
  /** Let in over the last 10 seconds. */
  admittedRecently: number;
  /** Let in over the last minute (the owner's "0 admitted in the last minute" warning). */
  admittedLastMinute: number;
}

/** The owner's numbers of these drops at `now`, one query. */
export async function countQueues(db: DbOrTx, productIds: readonly string[], now: SQL): Promise<QueueCounts[]> {
  if (productIds.length === 0) return [];
  return db
    .select({
      productId: dropQueue.productId,
      waiting: sql<number>`(count(*) filter (where ${dropQueue.status} = 'waiting'))::int`,
      admitted: sql<number>`(count(*) filter (where ${dropQueue.admittedAt} is not null))::int`,
      admittedRecently: sql<number>`(count(*) filter (where ${dropQueue.admittedAt} > ${now} - interval '10 seconds'))::int`,
      admittedLastMinute: sql<number>`(count(*) filter (where ${dropQueue.admittedAt} > ${now} - interval '1 minute'))::int`,
    })
    .from(dropQueue)
    .where(inArray(dropQueue.productId, [...productIds]))
    .groupBy(dropQueue.productId);
}

/**
 * "Rejoin the line" (ADR 010): a place whose pass lapsed unused (or that left the line) becomes a new
 * first-come place at the back: the same ticket, raffle off, a fresh seq. An admitted one also lowers
 * admitted_count by one under the drop row's lock, so places 1..admitted_count stay exactly the ones let
 * in (the ranks behind it move up by one as the count does). Returns null when the ticket is not lapsed or
 * left at `now` (its pass is still live, it is waiting, or it was told sold out).
 */
export async function requeueTicket(
  db: Db,
  productId: string,
  sessionId: string,
  opts: { now: SQL; passMs: number; releaseAt: Date },
): Promise<TicketRow | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from drops where product_id = ${productId} for update`);
    const lapsed = sql`${dropQueue.admittedAt} <= ${opts.now} - ${`${Math.round(opts.passMs)} milliseconds`}::interval`;
    const [before] = await tx
      .select({ status: dropQueue.status })
      .from(dropQueue)
      .where(
        and(
          eq(dropQueue.productId, productId),
          eq(dropQueue.sessionId, sessionId),
          sql`(${dropQueue.status} = 'left' or (${dropQueue.status} = 'admitted' and ${lapsed}))`,
        ),
      )
      .for('update');
    if (!before) return null;
    const [row] = await tx
      .update(dropQueue)
      .set({
        status: 'waiting',
        raffle: sql`${opts.now} < ${opts.releaseAt.toISOString()}::timestamptz`,
        admittedAt: null,
        turnMailedAt: null,
        arrivedAt: opts.now,
        seq: sql`nextval(pg_get_serial_sequence('drop_queue', 'seq'))`,
      })
      .where(and(eq(dropQueue.productId, productId), eq(dropQueue.sessionId, sessionId)))
      .returning();
    if (before.status === 'admitted')
      await tx
        .update(drops)
        .set({ admittedCount: sql`greatest(0, ${drops.admittedCount} - 1)`, updatedAt: opts.now })
        .where(eq(drops.productId, productId));
    return row ?? null;
  });
}

/**
 * "Leave the line" (ADR 010): the session's waiting or admitted place becomes 'left', under the drop row's
 * lock as requeueTicket. A left place is out of the queue order, so an admitted one also lowers
 * admitted_count by one: places 1..admitted_count stay exactly the ones let in, and the place stops
 * counting as a live promise at once (the next shopper in line gets it at the next admission). Without
 * this, a left admitted place would hold a promise for ever: it is neither live nor lapsed. Returns false
 * when the session has no waiting or admitted place.
 */
export async function leaveTicket(db: Db, productId: string, sessionId: string, now: SQL): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from drops where product_id = ${productId} for update`);
    const [before] = await tx
      .select({ status: dropQueue.status })
      .from(dropQueue)
      .where(
        and(eq(dropQueue.productId, productId), eq(dropQueue.sessionId, sessionId), inArray(dropQueue.status, ['waiting', 'admitted'])),
      )
      .for('update');
    if (!before) return false;
    await tx
      .update(dropQueue)
      .set({ status: 'left' })
      .where(and(eq(dropQueue.productId, productId), eq(dropQueue.sessionId, sessionId)));
    if (before.status === 'admitted')
      await tx
        .update(drops)
        .set({ admittedCount: sql`greatest(0, ${drops.admittedCount} - 1)`, updatedAt: now })
        .where(eq(drops.productId, productId));
    return true;
  });
}
