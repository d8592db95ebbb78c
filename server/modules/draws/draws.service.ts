import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type {
  AdminDraw,
  AdminDrawEntry,
  AdminDrawCreate,
  AdminDrawUpdate,
  DrawEntryView,
  PublicDraw,
} from '../../../common/contracts/draws';
import { DRAW_METHOD } from '../../../common/contracts/draws';
import type { CustomerInfoBody } from '../../../common/contracts/checkout';
import type { DrawSale } from '../../../common/contracts/catalog';
import { commitmentOf, rankEntries } from '../../../common/domain/draw';
import {
  fairnessProblem,
  loyaltyWeight,
  normaliseFairness,
  NO_FAIRNESS,
  type DrawFairness,
} from '../../../common/domain/draw-fairness';
import { nextAlternate } from '../../../common/domain/draw-allocation';
import {
  DRAW_OWNS_SALE,
  isEntryChangeable,
  scheduleProblem,
  type DrawEntryStatus,
} from '../../../common/domain/draw-lifecycle';
import { deliveryAddressKey, mailboxKey } from '../../../common/domain/identity';
import { formatMoney } from '../../../common/domain/money';
import { unitPriceCents } from '../../../common/domain/pricing';
import { sizeKey } from '../../../common/domain/size-run';
import { systemClock, type Clock } from '../../lib/db-clock';
import { badRequest, conflict, HttpError, notFound } from '../../plugins/http-error';
import {
  hashToken,
  identityKey,
  linkTokenOf,
  newPublicId,
  newSeed,
  nodeHmac,
  nodeSha256,
} from './draw-crypto';
import type { DrawCatalog } from './draws.ports';
import {
  claimResultMails,
  countEntries,
  entriesOf,
  entriesOfRecentWinners,
  fairnessOf,
  findDraw,
  findEntryByTokenHash,
  lockEntry,
  moveDraw,
  moveEntries,
  pastOutcomes,
  saveFairness,
  setAuthorisationState,
  type DrawEntryRow,
  type DrawRow,
  type NewDrawEntry,
} from './draws.repository';
import { drawEntries, draws } from './draws.tables';

export type { DrawEntryRow, DrawRow };
export type LiveEntry = Pick<DrawEntryRow, 'id' | 'status' | 'publicId' | 'manageTokenHash' | 'email' | 'firstName' | 'amountCents'>;

export const DRAW_MESSAGES = {
  notFound: 'Draw not found',
  entryNotFound: 'This link is not valid.',
  notOpenYet: 'Entries for this draw are not open yet.',
  closed: 'Entries for this draw are closed.',
  alreadyEntered:
    'You have already entered this draw. Use the link in your e-mail to see or change your entry.',
  linkSentAgain:
    'You have already entered this draw. We have sent the link to confirm your entry to your e-mail again.',
  notChangeable: 'Entries for this draw are closed: your entry can no longer be changed.',
  chooseSize: 'Please choose a size.',
  unknownSize: (size: string) => `This piece does not come in ${size}.`,
  sameSecondSize: 'Your second choice must be a different size.',
  onlyWhileScheduled: 'A draw can be changed only before its entry window opens.',
  oneLiveDraw: 'This product already has a draw under way.',
  tooEarlyToRun: 'The draw can run only once the entry window has closed.',
  notCancellable: 'A draw can be cancelled only before it runs.',
  recentWinner: (lookback: number) =>
    lookback === 1
      ? 'Removed before the draw: this e-mail address won the last draw here, and this draw lets recent winners sit out.'
      : `Removed before the draw: this e-mail address won one of the last ${lookback} draws here, and this draw lets recent winners sit out.`,
} as const;

/** Entry statuses whose result is mailed after the draw (withdrawn entrants left on their own). */
const MAILED_RESULTS: readonly DrawEntryStatus[] = ['won', 'lost', 'capture_failed', 'removed', 'lapsed'];
/** Entries whose authorisation must be released once the draw no longer needs it. */
const RELEASED_STATUSES: readonly DrawEntryStatus[] = [
  'withdrawn',
  'lapsed',
  'removed',
  'capture_failed',
  'lost',
  'cancelled',
];

export interface DrawsDeps {
  db: Db;
  catalog: DrawCatalog;
  /** Keys the hashes of folded identities (mailbox, delivery address, card; ADR 013). */
  secret: string;
  clock?: Clock;
  log?: FastifyBaseLogger;
}

/** The sizes an entry may ask for: a split product's run, else the sizes it lists; none for a one-size piece. */
function sizesOf(product: { sizes: string[]; sizeStock?: Array<{ size: string | null }> }): string[] {
  const split = (product.sizeStock ?? []).map((s) => s.size).filter((s): s is string => s !== null);
  return split.length > 0 ? split : product.sizes;
}

/** The shopper's sizes checked against the product's: first required when it has sizes, second different. */
export function checkSizes(
  product: { sizes: string[]; sizeStock?: Array<{ size: string | null }> },
  size: string | null | undefined,
  secondSize: string | null | undefined,
): { size: string | null; secondSize: string | null } {
  const sizes = sizesOf(product);
  if (sizes.length === 0) return { size: null, secondSize: null };
  const find = (s: string) => sizes.find((x) => sizeKey(x) === sizeKey(s));
  if (!size) throw badRequest(DRAW_MESSAGES.chooseSize);
  const first = find(size);
  if (!first) throw badRequest(DRAW_MESSAGES.unknownSize(size));
  if (!secondSize) return { size: first, secondSize: null };
  const second = find(secondSize);
  if (!second) throw badRequest(DRAW_MESSAGES.unknownSize(secondSize));
  if (sizeKey(second) === sizeKey(first)) throw badRequest(DRAW_MESSAGES.sameSecondSize);
  return { size: first, secondSize: second };
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * The draws module: draws and their entries (docs/draw.md, ADR 018). Its own tables only; the card, the
 * stock and the orders are the flows' (server/flows/enter-draw.ts, settle-draw.ts), which call the
 * step functions here inside their transactions. Decisions read the one clock (`clock`, the database's).
 */
/** How long a product page may go on answering "no draw" after a draw was made on another instance. */
const PRODUCTS_WITH_DRAWS_TTL_MS = 5_000;

export function createDrawsService(deps: DrawsDeps) {
  const { db, catalog } = deps;
  const clock = deps.clock ?? systemClock;

  // Entering's two reads, built once and prepared on each connection (PostgreSQL parses and plans them once):
  // at a draw's busiest second, building a query each time was a fifth of an entry's work (bench:draw).
  const drawById = db
    .select()
    .from(draws)
    .where(eq(draws.id, sql.placeholder('id')))
    .limit(1)
    .prepare('draws_by_id');
  const liveEntryOf = db
    .select({
      id: drawEntries.id,
      status: drawEntries.status,
      publicId: drawEntries.publicId,
      manageTokenHash: drawEntries.manageTokenHash,
      email: drawEntries.email,
      firstName: drawEntries.firstName,
      amountCents: drawEntries.amountCents,
    })
    .from(drawEntries)
    .where(
      and(
        eq(drawEntries.drawId, sql.placeholder('drawId')),
        eq(drawEntries.mailboxKey, sql.placeholder('mailbox')),
        inArray(drawEntries.status, ['pending', 'confirmed']),
      ),
    )
    .limit(1)
    .prepare('draw_entries_live_of_mailbox');
  // An entry's row, written by every accepted entry: prepared too (drizzle built a 25-column insert each time).
  const ENTRY_COLUMNS = [
    'drawId', 'publicId', 'manageTokenHash', 'status', 'mailboxKey', 'deliveryKey', 'cardKey', 'email',
    'firstName', 'lastName', 'phone', 'shippingAddress', 'shippingCity', 'shippingState', 'shippingZip',
    'shippingCountry', 'shippingMethod', 'size', 'secondSize', 'amountCents', 'subtotalCents', 'shippingCents',
    'taxCents', 'authorisationId', 'authorisationState',
  ] as const satisfies ReadonlyArray<keyof NewDrawEntry>;
  const insertEntry = db
    .insert(drawEntries)
    .values(Object.fromEntries(ENTRY_COLUMNS.map((c) => [c, sql.placeholder(c)])) as unknown as NewDrawEntry)
    .returning()
    .prepare('draw_entries_record');

  /**
   * The products that ever had a draw, read at most every few seconds: every product page asks for its
   * draw, and on drop day almost none has one, so those pages are answered without a query. A draw made
   * on this instance clears it at once; one made on another shows on this instance's pages within
   * PRODUCTS_WITH_DRAWS_TTL_MS (the cart's refusal, notByDraw, always reads the database).
   */
  let productsWithDraws: {
    readAt: number;
    ids: Promise<ReadonlySet<string>>;
    /** The set once read: a cached product page asks it without a promise. */
    known?: ReadonlySet<string>;
  } | null = null;
  function productsWithDrawsNow(): Promise<ReadonlySet<string>> {
    if (!productsWithDraws || Date.now() - productsWithDraws.readAt > PRODUCTS_WITH_DRAWS_TTL_MS) {
      const ids = db
        .selectDistinct({ productId: draws.productId })
        .from(draws)
        .then((rows) => new Set(rows.map((r) => r.productId)));
      const held: NonNullable<typeof productsWithDraws> = { readAt: Date.now(), ids };
      productsWithDraws = held;
      // A failed read is not kept: the next page asks again.
      ids.then(
        (set) => (held.known = set),
        () => {
          if (productsWithDraws === held) productsWithDraws = null;
        },
      );
    }
    return productsWithDraws.ids;
  }

  /** The set when it is read and current, else null (ask productsWithDrawsNow). */
  function productsWithDrawsKnown(): ReadonlySet<string> | null {
    const held = productsWithDraws;
    return held?.known && Date.now() - held.readAt <= PRODUCTS_WITH_DRAWS_TTL_MS ? held.known : null;
  }

  /**
   * The draws that own their product's sale now (DRAW_OWNS_SALE), for the product cards of every grid, read
   * at most every PRODUCTS_WITH_DRAWS_TTL_MS, and only when some product ever had a draw. Read again at once
   * when the set above was (a draw made here drops it). Each new answer gets a new version: server-rendered
   * grids are cached under it (the seo module's pageVariant).
   */
  let drawSales: {
    readAt: number;
    /** The set above as it was when this was read: a new one means a draw may have been made since. */
    basis: object | null;
    read: Promise<{ version: number; sales: DrawSale[] }>;
    known?: { version: number; sales: DrawSale[] };
  } | null = null;
  let drawSalesVersion = 0;
  let drawSalesJson = '';
  /** A read that still answers: made since the set of products with draws was last dropped, within the TTL. */
  const isCurrent = (read: typeof drawSales): read is NonNullable<typeof drawSales> =>
    read !== null && read.basis === productsWithDraws && Date.now() - read.readAt <= PRODUCTS_WITH_DRAWS_TTL_MS;
  function drawSalesNow(): Promise<{ version: number; sales: DrawSale[] }> {
    const current = drawSales;
    if (isCurrent(current)) return current.read;
    const ever = productsWithDrawsNow();
    const read = ever.then(async (withDraws) => {
      const rows =
        withDraws.size === 0
          ? []
          : await db
              .select({
                productId: draws.productId,
                drawId: draws.id,
                status: draws.status,
                opensAt: draws.opensAt,
                closesAt: draws.closesAt,
                drawAt: draws.drawAt,
              })
              .from(draws)
              .where(inArray(draws.status, [...DRAW_OWNS_SALE]))
              .orderBy(draws.productId);
      const sales = rows.map((r) => ({
        productId: r.productId,
        drawId: r.drawId,
        status: r.status as DrawSale['status'],
        opensAt: r.opensAt.toISOString(),
        closesAt: r.closesAt.toISOString(),
        drawAt: r.drawAt.toISOString(),
      }));
      const json = JSON.stringify(sales);
      if (json !== drawSalesJson) {
        drawSalesJson = json;
        drawSalesVersion++;
      }
      return { version: drawSalesVersion, sales };
    });
    const held: NonNullable<typeof drawSales> = { readAt: Date.now(), basis: productsWithDraws, read };
    drawSales = held;
    // A failed read is not kept: the next grid asks again.
    read.then(
      (answer) => (held.known = answer),
      () => {
        if (drawSales === held) drawSales = null;
      },
    );
    return read;
  }

  /** The draw a product page shows: the one under way, else the latest. */
  const productDrawOrder = [
    sql`(${draws.status} in ('scheduled', 'open', 'closed', 'drawn')) desc`,
    sql`${draws.drawAt} desc`,
  ];

  async function productName(productId: string): Promise<string> {
    return (await catalog.getProductFresh(productId))?.name ?? 'This piece';
  }

  async function fairnessOfDraw(drawId: string, tx: DbOrTx = db): Promise<DrawFairness> {
    return (await fairnessOf(tx, [drawId])).get(drawId) ?? NO_FAIRNESS;
  }

  /** The owner's rule checked (400 with the reason) and put in its stored form; absent: off. */
  function parseFairness(f: AdminDrawCreate['fairness']): DrawFairness {
    if (!f) return NO_FAIRNESS;
    const problem = fairnessProblem(f);
    if (problem) throw badRequest(problem);
    return normaliseFairness(f);
  }

  async function toAdmin(
    row: DrawRow,
    counts?: Record<string, number>,
    fairness?: DrawFairness,
  ): Promise<AdminDraw> {
    const drawn = row.status === 'drawn' || row.status === 'settled';
    return {
      id: row.id,
      productId: row.productId,
      productName: await productName(row.productId),
      status: row.status as AdminDraw['status'],
      opensAt: row.opensAt.toISOString(),
      closesAt: row.closesAt.toISOString(),
      drawAt: row.drawAt.toISOString(),
      price: formatMoney(row.priceCents),
      pieces: row.pieces,
      commitment: row.commitment,
      seed: drawn ? row.seed : null,
      fairness: fairness ?? (await fairnessOfDraw(row.id)),
      drawnAt: row.drawnAt?.toISOString() ?? null,
      settledAt: row.settledAt?.toISOString() ?? null,
      counts: counts ?? (await countEntries(db, [row.id])).get(row.id) ?? {},
    };
  }

  async function requireDraw(id: string): Promise<DrawRow> {
    const [row] = await drawById.execute({ id });
    if (!row) throw notFound(DRAW_MESSAGES.notFound);
    return row;
  }

  function parseSchedule(s: { opensAt: string; closesAt: string; drawAt: string }) {
    const schedule = {
      opensAt: new Date(s.opensAt),
      closesAt: new Date(s.closesAt),
      drawAt: new Date(s.drawAt),
    };
    const problem = scheduleProblem({
      opensAtMs: schedule.opensAt.getTime(),
      closesAtMs: schedule.closesAt.getTime(),
      drawAtMs: schedule.drawAt.getTime(),
    });
    if (problem) throw badRequest(problem);
    return schedule;
  }

  async function publicView(row: DrawRow): Promise<PublicDraw> {
    const drawn = row.status === 'drawn' || row.status === 'settled';
    const all = await entriesOf(db, row.id);
    const inDraw = all.filter((e) => e.rank !== null);
    const published = drawn
      ? inDraw.map((e) => ({
          publicId: e.publicId,
          weight: e.weight,
          size: e.size,
          secondSize: e.secondSize,
          rank: e.rank,
          outcome: e.status,
        }))
      : [];
    return {
      id: row.id,
      productId: row.productId,
      productName: await productName(row.productId),
      status: row.status as PublicDraw['status'],
      method: DRAW_METHOD,
      opensAt: row.opensAt.toISOString(),
      closesAt: row.closesAt.toISOString(),
      drawAt: row.drawAt.toISOString(),
      price: formatMoney(row.priceCents),
      pieces: row.pieces,
      commitment: row.commitment,
      // The seed stays secret until the draw: with it, anyone could compute the order in advance.
      seed: drawn ? row.seed : null,
      entries: published,
      winners: drawn
        ? inDraw
            .filter((e) => e.status === 'won')
            .map((e) => ({ publicId: e.publicId, size: e.allocatedSize }))
        : [],
      fairness: await fairnessOfDraw(row.id),
      // A duplicate names the entry it duplicates; an entry removed under the sit_out rule names none.
      removedDuplicates: all.filter((e) => e.status === 'removed' && e.duplicateOf !== null).length,
      removedRecentWinners: all.filter((e) => e.status === 'removed' && e.duplicateOf === null).length,
      entryCount: drawn ? inDraw.length : all.filter((e) => e.status === 'confirmed').length,
    };
  }

  async function viewOf(entry: DrawEntryRow, draw?: DrawRow): Promise<DrawEntryView> {
    const d = draw ?? (await requireDraw(entry.drawId));
    return {
      publicId: entry.publicId,
      drawId: d.id,
      productId: d.productId,
      productName: await productName(d.productId),
      drawStatus: d.status as DrawEntryView['drawStatus'],
      status: entry.status as DrawEntryView['status'],
      email: entry.email,
      size: entry.size,
      secondSize: entry.secondSize,
      amount: formatMoney(entry.amountCents),
      closesAt: d.closesAt.toISOString(),
      drawAt: d.drawAt.toISOString(),
      changeable: isEntryChangeable(entry.status) && windowOpen(d),
      rank: d.status === 'drawn' || d.status === 'settled' ? entry.rank : null,
      allocatedSize: entry.status === 'won' ? entry.allocatedSize : null,
      orderNumber: entry.orderNumber,
      removedReason: entry.removedReason,
      cardFailed: entry.status === 'pending' && entry.authorisationState === 'failed',
    };
  }

  /** The entry window by the one clock: opened, not yet closed, and the draw neither closed nor cancelled. */
  function windowOpen(d: DrawRow): boolean {
    const now = clock.now();
    return (
      (d.status === 'scheduled' || d.status === 'open') &&
      now >= d.opensAt.getTime() &&
      now < d.closesAt.getTime()
    );
  }

  /** The live (pending or confirmed) entry of this folded mailbox in this draw, if any: what mailing its link again needs. */
  async function liveEntry(drawId: string, mailbox: string): Promise<LiveEntry | null> {
    const [row] = await liveEntryOf.execute({ drawId, mailbox });
    return row ?? null;
  }

  async function entryByToken(token: string): Promise<{ entry: DrawEntryRow; draw: DrawRow }> {
    const entry = await findEntryByTokenHash(db, hashToken(token));
    if (!entry) throw notFound(DRAW_MESSAGES.entryNotFound);
    return { entry, draw: await requireDraw(entry.drawId) };
  }

  /**
   * Duplicates by folded identity (ADR 013): confirmed entries sharing a mailbox, a delivery address or a
   * card (directly or through another entry) are one person; the earliest confirmed stays, the others
   * are removed with the reason recorded. Runs inside the draw's transaction.
   */
  async function mergeDuplicates(tx: Tx, drawId: string): Promise<DrawEntryRow[]> {
    const confirmed = (await entriesOf(tx, drawId, ['confirmed'])).sort(
      (a, b) => a.confirmedAt!.getTime() - b.confirmedAt!.getTime() || (a.id < b.id ? -1 : 1),
    );
    const owner = new Map<string, string>(); // identity key → the kept entry it belongs to
    const removed: DrawEntryRow[] = [];
    for (const e of confirmed) {
      const keys: Array<[string, string]> = [
        [`m:${e.mailboxKey}`, 'the same e-mail address'],
        [`d:${e.deliveryKey}`, 'the same delivery address'],
        ...(e.cardKey ? ([[`c:${e.cardKey}`, 'the same card']] as Array<[string, string]>) : []),
      ];
      const hit = keys.find(([k]) => owner.has(k));
      const keptId = hit ? owner.get(hit[0])! : e.id;
      // Every key of the entry now names the person's kept entry, so a chain of shared keys is one person.
      for (const [k] of keys) if (!owner.has(k)) owner.set(k, keptId);
      if (!hit) continue;
      const kept = confirmed.find((c) => c.id === keptId)!;
      const [row] = await moveEntries(tx, { ids: [e.id] }, 'removed', {
        duplicateOf: keptId,
        removedReason: `Removed before the draw: ${hit[1]} as entry ${kept.publicId}, confirmed earlier.`,
      });
      if (row) removed.push(row);
    }
    return removed;
  }

  /**
   * The sit_out rule, inside the draw's transaction after duplicates are merged: confirmed entries whose
   * folded mailbox won one of the shop's last K draws are removed, the reason recorded (no `duplicateOf`:
   * that is how the public count tells them from duplicates).
   */
  async function sitOutRecentWinners(
    tx: Tx,
    drawId: string,
    fairness: DrawFairness,
  ): Promise<DrawEntryRow[]> {
    if (fairness.rule !== 'sit_out' || fairness.lookback === null) return [];
    const out = await entriesOfRecentWinners(tx, drawId, fairness.lookback);
    return moveEntries(tx, { ids: out.map((e) => e.id) }, 'removed', {
      removedReason: DRAW_MESSAGES.recentWinner(fairness.lookback),
    });
  }

  /** The loyalty rule's weight per folded mailbox (only entrants weighing more than 1); empty otherwise. */
  async function loyaltyWeights(
    tx: Tx,
    drawId: string,
    fairness: DrawFairness,
  ): Promise<Map<string, number>> {
    const weights = new Map<string, number>();
    if (fairness.rule !== 'loyalty' || fairness.lookback === null) return weights;
    for (const [mailbox, history] of await pastOutcomes(tx, drawId, fairness.lookback)) {
      const w = loyaltyWeight(history, fairness.lookback);
      if (w > 1) weights.set(mailbox, w);
    }
    return weights;
  }

  return {
    messages: DRAW_MESSAGES,
    viewOf,
    entryByToken,
    windowOpen,
    findDraw: async (id: string, tx?: DbOrTx): Promise<DrawRow | null> =>
      tx ? findDraw(tx, id) : ((await drawById.execute({ id }))[0] ?? null),
    checkSizes,

    // ---- the owner ------------------------------------------------------------------------------

    async createDraw(input: AdminDrawCreate): Promise<AdminDraw> {
      const product = await catalog.getProductFresh(input.productId);
      if (!product) throw notFound('Product not found');
      const schedule = parseSchedule(input);
      const fairness = parseFairness(input.fairness);
      const seed = newSeed();
      const commitment = await commitmentOf(seed, nodeSha256);
      try {
        // The draw and its rule together: the rule is public from the start, like the commitment.
        const row = await db.transaction(async (tx) => {
          const [inserted] = await tx
            .insert(draws)
            .values({
              productId: product.id,
              ...schedule,
              priceCents: unitPriceCents(product),
              pieces: input.pieces ?? null,
              commitment,
              seed,
            })
            .returning();
          await saveFairness(tx, inserted!.id, fairness);
          productsWithDraws = null;
          return inserted!;
        });
        return toAdmin(row, {}, fairness);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(DRAW_MESSAGES.oneLiveDraw);
        throw err;
      }
    },

    /** The schedule may change only while scheduled and before the window opens (entrants rely on it). */
    async updateDraw(id: string, patch: AdminDrawUpdate): Promise<AdminDraw> {
      const row = await requireDraw(id);
      if (row.status !== 'scheduled' || clock.now() >= row.opensAt.getTime())
        throw conflict(DRAW_MESSAGES.onlyWhileScheduled);
      const schedule = parseSchedule({
        opensAt: patch.opensAt ?? row.opensAt.toISOString(),
        closesAt: patch.closesAt ?? row.closesAt.toISOString(),
        drawAt: patch.drawAt ?? row.drawAt.toISOString(),
      });
      const fairness = patch.fairness ? parseFairness(patch.fairness) : null;
      // The schedule and the rule change together, and only while the draw is still scheduled.
      const updated = await db.transaction(async (tx) => {
        const [moved] = await tx
          .update(draws)
          .set({ ...schedule, ...(patch.pieces === undefined ? {} : { pieces: patch.pieces }), updatedAt: new Date() })
          .where(
            and(eq(draws.id, id), eq(draws.status, 'scheduled'), sql`${draws.opensAt} > ${clock.sqlNow()}`),
          )
          .returning();
        if (moved && fairness) await saveFairness(tx, id, fairness);
        return moved;
      });
      if (!updated) throw conflict(DRAW_MESSAGES.onlyWhileScheduled);
      return toAdmin(updated);
    },

    async adminDraw(id: string): Promise<AdminDraw> {
      return toAdmin(await requireDraw(id));
    },

    async adminList(): Promise<AdminDraw[]> {
      const rows = await db
        .select()
        .from(draws)
        .orderBy(sql`${draws.drawAt} desc`)
        .limit(200);
      const ids = rows.map((r) => r.id);
      const counts = await countEntries(db, ids);
      const rules = await fairnessOf(db, ids);
      return Promise.all(rows.map((r) => toAdmin(r, counts.get(r.id) ?? {}, rules.get(r.id))));
    },

    /** The owner's view of a draw's entries: ranked ones in rank order, then the rest by entry time. */
    async adminEntries(id: string): Promise<AdminDrawEntry[]> {
      await requireDraw(id);
      const rows = await db
        .select()
        .from(drawEntries)
        .where(eq(drawEntries.drawId, id))
        .orderBy(sql`${drawEntries.rank} asc nulls last`, drawEntries.createdAt);
      return rows.map((e) => ({
        publicId: e.publicId,
        email: e.email,
        name: `${e.firstName} ${e.lastName}`,
        status: e.status as DrawEntryStatus,
        size: e.size,
        secondSize: e.secondSize,
        weight: e.weight,
        rank: e.rank,
        allocatedSize: e.allocatedSize,
        orderNumber: e.orderNumber,
        removedReason: e.removedReason,
        enteredAt: e.createdAt.toISOString(),
        confirmedAt: e.confirmedAt?.toISOString() ?? null,
      }));
    },

    // ---- the public -----------------------------------------------------------------------------

    async publicDraw(id: string): Promise<PublicDraw> {
      return publicView(await requireDraw(id));
    },

    /** The products among these whose sale a draw owns now (DRAW_OWNS_SALE): the cart refuses them. */
    async productsSoldByDraw(productIds: readonly string[]): Promise<ReadonlySet<string>> {
      if (productIds.length === 0) return new Set();
      const rows = await db
        .select({ productId: draws.productId })
        .from(draws)
        .where(and(inArray(draws.productId, [...productIds]), inArray(draws.status, [...DRAW_OWNS_SALE])));
      return new Set(rows.map((r) => r.productId));
    },

    /**
     * The product's draw under way, else its latest one; null when it never had one (the ordinary answer
     * for a product page, so a 200: a 404 would be a console error on every product page).
     */
    async publicDrawOfProduct(productId: string): Promise<PublicDraw | null> {
      if (!(await productsWithDrawsNow()).has(productId)) return null;
      const [row] = await db
        .select()
        .from(draws)
        .where(eq(draws.productId, productId))
        .orderBy(...productDrawOrder)
        .limit(1);
      if (!row) return null;
      return publicView(row);
    },

    /**
     * What the product page shows of its draw, as a short stamp (the draw, its status and its last change;
     * '' when it never had one): server-rendered product pages are cached under it, so a cached page turns
     * with its draw. A product known to have none is answered without a promise (the 5 s set above).
     */
    productDrawStamp(productId: string): string | Promise<string> {
      const known = productsWithDrawsKnown();
      if (known && !known.has(productId)) return '';
      return (async () => {
        if (!(await productsWithDrawsNow()).has(productId)) return '';
        const [row] = await db
          .select({ id: draws.id, status: draws.status, updatedAt: draws.updatedAt })
          .from(draws)
          .where(eq(draws.productId, productId))
          .orderBy(...productDrawOrder)
          .limit(1);
        return row ? `${row.id}.${row.status}.${row.updatedAt.getTime()}` : '';
      })();
    },

    /** The draws that own their product's sale now, for the product cards (GET /api/products/draws). */
    async drawSales(): Promise<DrawSale[]> {
      return (await drawSalesNow()).sales;
    },

    /**
     * drawSales' answer as a short stamp (its version): server-rendered grids are cached under it, so a
     * cached grid turns with the draws. Sync while the answer is read and current.
     */
    drawSalesStamp(): string | Promise<string> {
      const current = drawSales;
      if (isCurrent(current) && current.known) return `s${current.known.version}`;
      return drawSalesNow().then((answer) => `s${answer.version}`);
    },

    // ---- entering (server/flows/enter-draw.ts) ------------------------------------------------

    /** Refuses (409) unless the window is open by the one clock; moves a due draw to `open`. */
    async assertEnterable(d: DrawRow): Promise<void> {
      const now = clock.now();
      if (d.status === 'scheduled' || d.status === 'open') {
        if (now < d.opensAt.getTime()) throw conflict(DRAW_MESSAGES.notOpenYet);
        if (now < d.closesAt.getTime()) {
          if (d.status === 'scheduled') await moveDraw(db, d.id, 'open');
          return;
        }
      }
      throw conflict(DRAW_MESSAGES.closed);
    },

    /** Keyed hashes of the folded mailbox and delivery address (ADR 013): one per person, whatever the spelling. */
    identityKeys(c: Pick<CustomerInfoBody, 'email' | 'shippingAddress' | 'shippingZip' | 'shippingCountry'>) {
      return {
        mailboxKey: identityKey(deps.secret, 'mailbox', mailboxKey(c.email)),
        deliveryKey: identityKey(
          deps.secret,
          'delivery',
          deliveryAddressKey({
            line: c.shippingAddress,
            postalCode: c.shippingZip,
            country: c.shippingCountry,
          }),
        ),
      };
    },

    cardKey(fingerprint: string | null): string | null {
      return fingerprint ? identityKey(deps.secret, 'card', fingerprint) : null;
    },

    liveEntry,

    /** The entry's link token when the shop can make it again (entries made before link tokens were keyed: null). */
    linkTokenOf(entry: Pick<DrawEntryRow, 'publicId' | 'manageTokenHash'>): string | null {
      const token = linkTokenOf(deps.secret, entry.publicId);
      return hashToken(token) === entry.manageTokenHash ? token : null;
    },

    newPublicId,

    /** Whether an entry already holds this card authorisation (one authorisation is one entry, ever). */
    async authorisationInUse(authorisationId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: drawEntries.id })
        .from(drawEntries)
        .where(eq(drawEntries.authorisationId, authorisationId))
        .limit(1);
      return Boolean(row);
    },

    /**
     * Records an entry, pending until its e-mail link is used, with its card prepared (not yet sent to the
     * bank: docs/draw.md); returns it and its link token.
     */
    async recordEntry(
      values: Omit<
        Pick<Required<NewDrawEntry>, (typeof ENTRY_COLUMNS)[number]>,
        'manageTokenHash' | 'status' | 'authorisationState'
      >,
    ): Promise<{ entry: DrawEntryRow; token: string }> {
      const token = linkTokenOf(deps.secret, values.publicId);
      try {
        const [entry] = await insertEntry.execute({
          ...values,
          manageTokenHash: hashToken(token),
          status: 'pending',
          authorisationState: 'prepared',
        });
        return { entry: entry!, token };
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(DRAW_MESSAGES.alreadyEntered);
        throw err;
      }
    },

    /**
     * The mailed link, once the card is held (the flow asked the bank): pending → confirmed while the window is
     * open. Null when the entry moved meanwhile (withdrawn, lapsed): the flow releases the card.
     */
    async confirmHeld(
      entry: DrawEntryRow,
      draw: DrawRow,
      held: { authorisationId: string; cardKey: string | null },
    ): Promise<DrawEntryView | null> {
      if (!windowOpen(draw)) return null;
      const [moved] = await db
        .update(drawEntries)
        .set({
          status: 'confirmed',
          confirmedAt: new Date(clock.now()),
          authorisationState: 'authorised',
          // The fingerprint the bank's answer names, when the entry did not know its card yet.
          ...(held.cardKey ? { cardKey: held.cardKey } : {}),
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(drawEntries.id, entry.id),
            eq(drawEntries.status, 'pending'),
            eq(drawEntries.authorisationId, held.authorisationId),
          ),
        )
        .returning();
      return moved ? viewOf(moved, draw) : null;
    },

    /** The card was declined at confirmation: the entry stays pending, its card marked failed (try another). */
    async markCardFailed(entryId: string, authorisationId: string): Promise<void> {
      await db
        .update(drawEntries)
        .set({ authorisationState: 'failed', updatedAt: new Date() })
        .where(
          and(
            eq(drawEntries.id, entryId),
            eq(drawEntries.status, 'pending'),
            eq(drawEntries.authorisationId, authorisationId),
          ),
        );
    },

    /** Another card for a pending entry (its previous one failed or was never asked): prepared, like at entry. */
    async replaceCard(
      entryId: string,
      card: { authorisationId: string; cardKey: string | null },
    ): Promise<DrawEntryRow | null> {
      const [row] = await db
        .update(drawEntries)
        .set({
          authorisationId: card.authorisationId,
          cardKey: card.cardKey,
          authorisationState: 'prepared',
          updatedAt: new Date(),
        })
        .where(and(eq(drawEntries.id, entryId), eq(drawEntries.status, 'pending')))
        .returning();
      return row ?? null;
    },

    async changeSizes(
      token: string,
      sizes: { size: string | null; secondSize: string | null },
    ): Promise<DrawEntryView> {
      const { entry, draw } = await entryByToken(token);
      if (!isEntryChangeable(entry.status) || !windowOpen(draw)) throw conflict(DRAW_MESSAGES.notChangeable);
      const [row] = await db
        .update(drawEntries)
        .set({ size: sizes.size, secondSize: sizes.secondSize, updatedAt: new Date() })
        .where(and(eq(drawEntries.id, entry.id), inArray(drawEntries.status, ['pending', 'confirmed'])))
        .returning();
      if (!row) throw conflict(DRAW_MESSAGES.notChangeable);
      return viewOf(row, draw);
    },

    /** Withdraws while the window is open; returns the entry (its authorisation is the flow's to release). */
    async withdraw(token: string): Promise<{ entry: DrawEntryRow; draw: DrawRow }> {
      const { entry, draw } = await entryByToken(token);
      if (entry.status === 'withdrawn') return { entry, draw };
      if (!isEntryChangeable(entry.status) || !windowOpen(draw)) throw conflict(DRAW_MESSAGES.notChangeable);
      const [moved] = await moveEntries(db, { ids: [entry.id] }, 'withdrawn', {
        withdrawnAt: new Date(clock.now()),
      });
      if (!moved) throw conflict(DRAW_MESSAGES.notChangeable);
      return { entry: moved, draw };
    },

    setAuthorisationState: (entryId: string, state: 'captured' | 'voided' | 'failed', tx: DbOrTx = db) =>
      setAuthorisationState(tx, entryId, state),

    // ---- settling (server/flows/settle-draw.ts) -----------------------------------------------

    /** Draws with work to do by the one clock: due to open, to close, to draw, or drawn and not settled. */
    async dueDraws(): Promise<DrawRow[]> {
      const now = clock.sqlNow();
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
    },

    async openIfDue(d: DrawRow): Promise<void> {
      if (
        d.status === 'scheduled' &&
        clock.now() >= d.opensAt.getTime() &&
        clock.now() < d.closesAt.getTime()
      ) {
        await moveDraw(db, d.id, 'open');
      }
    },

    /** Closes a draw whose window has ended: entries never confirmed lapse. False: not due (or not open). */
    async closeIfDue(d: DrawRow): Promise<boolean> {
      if (clock.now() < d.closesAt.getTime()) return false;
      return db.transaction(async (tx) => {
        const moved = await moveDraw(tx, d.id, 'closed');
        if (!moved) return false;
        await moveEntries(tx, { drawId: d.id }, 'lapsed');
        return true;
      });
    },

    mergeDuplicates,
    sitOutRecentWinners,

    /**
     * Reveals and ranks, inside the caller's transaction: locks the draw, removes duplicates (and, under
     * the sit_out rule, recent winners), moves it closed → drawn, weighs the remaining confirmed entries
     * (the loyalty rule; 1 otherwise), ranks them by common/domain/draw.ts and writes each weight and rank.
     * Null when the draw is not closed (another instance drew it, or it is not due).
     */
    async rank(tx: Tx, drawId: string): Promise<{ draw: DrawRow; ranked: DrawEntryRow[] } | null> {
      const locked = await findDraw(tx, drawId, { lock: true });
      if (!locked || locked.status !== 'closed') return null;
      await mergeDuplicates(tx, drawId);
      const fairness = await fairnessOfDraw(drawId, tx);
      await sitOutRecentWinners(tx, drawId, fairness);
      const weights = await loyaltyWeights(tx, drawId, fairness);
      const drawn = await moveDraw(tx, drawId, 'drawn', { drawnAt: new Date(clock.now()) });
      if (!drawn) return null;
      const confirmed = (await entriesOf(tx, drawId, ['confirmed'])).map((e) => ({
        ...e,
        weight: weights.get(e.mailboxKey) ?? 1,
      }));
      const order = await rankEntries(
        drawn.seed,
        confirmed.map((e) => ({ publicId: e.publicId, weight: e.weight })),
        nodeHmac,
      );
      const byPublicId = new Map(confirmed.map((e) => [e.publicId, e]));
      const ranked: DrawEntryRow[] = order.map((r) => ({ ...byPublicId.get(r.publicId)!, rank: r.rank }));
      // The weight is stored with the rank: it is published with the entries and the verifier uses it.
      // One statement per 5,000 entries (a JSON batch), not one per entry: 20,000 entries rank in a
      // few statements inside the draw's transaction.
      const now = new Date(clock.now());
      for (let i = 0; i < ranked.length; i += 5_000) {
        const batch = ranked.slice(i, i + 5_000);
        const rows = JSON.stringify(batch.map((e) => ({ id: e.id, rank: e.rank, weight: e.weight })));
        await tx.execute(sql`
          update draw_entries as e
             set rank = b.rank, weight = b.weight, updated_at = ${now}
            from jsonb_to_recordset(${rows}::jsonb) as b(id uuid, rank int, weight int)
           where e.id = b.id`);
      }
      return { draw: drawn, ranked };
    },

    async select(tx: Tx, entryId: string, size: string | null, variantId: string | null): Promise<boolean> {
      return (
        (await moveEntries(tx, { ids: [entryId] }, 'selected', { allocatedSize: size, variantId })).length ===
        1
      );
    },

    async markWaiting(tx: Tx, entryIds: readonly string[]): Promise<void> {
      await moveEntries(tx, { ids: entryIds }, 'waiting');
    },

    /** The next selected entry to capture, best rank first; null when none is left. */
    async nextToCapture(drawId: string): Promise<DrawEntryRow | null> {
      const [row] = await db
        .select()
        .from(drawEntries)
        .where(and(eq(drawEntries.drawId, drawId), eq(drawEntries.status, 'selected')))
        .orderBy(drawEntries.rank)
        .limit(1);
      return row ?? null;
    },

    /** The selected entry, locked for its capture (SKIP LOCKED: another instance is capturing it). */
    lockSelected: (tx: Tx, entryId: string) => lockEntry(tx, entryId, 'selected'),

    async markWon(tx: Tx, entryId: string, orderNumber: string): Promise<void> {
      await moveEntries(tx, { ids: [entryId] }, 'won', { orderNumber, authorisationState: 'captured' });
    },

    /**
     * A capture failed: the entry is out, and its held piece goes to the best-ranked waiting entry that
     * wants that size (common/domain/draw-allocation.ts). Returns that entry, or null (the caller gives the
     * piece back to stock).
     */
    async passOn(tx: Tx, failed: DrawEntryRow, error: string): Promise<DrawEntryRow | null> {
      await moveEntries(tx, { ids: [failed.id] }, 'capture_failed', { captureError: error });
      const waiting = await tx
        .select()
        .from(drawEntries)
        .where(and(eq(drawEntries.drawId, failed.drawId), eq(drawEntries.status, 'waiting')))
        .orderBy(drawEntries.rank)
        .for('update');
      const next = nextAlternate(waiting, failed.allocatedSize);
      if (!next) return null;
      await moveEntries(tx, { ids: [next.id] }, 'selected', {
        allocatedSize: failed.allocatedSize,
        variantId: failed.variantId,
      });
      return next;
    },

    /** Nothing left to pass on: every alternate lost. */
    async markRestLost(drawId: string): Promise<void> {
      const selected = await db
        .select({ id: drawEntries.id })
        .from(drawEntries)
        .where(and(eq(drawEntries.drawId, drawId), eq(drawEntries.status, 'selected')))
        .limit(1);
      if (selected.length === 0) await moveEntries(db, { drawId }, 'lost');
    },

    /** Entries whose authorisation is still held though the draw no longer needs it. */
    async authorisationsToRelease(drawId: string): Promise<DrawEntryRow[]> {
      return db
        .select()
        .from(drawEntries)
        .where(
          and(
            eq(drawEntries.drawId, drawId),
            inArray(drawEntries.status, [...RELEASED_STATUSES]),
            inArray(drawEntries.authorisationState, ['authorised', 'prepared']),
          ),
        );
    },

    /** Claims the result mails of a draw, once each (the flow sends them). */
    claimResultMails: (drawId: string) => claimResultMails(db, drawId, MAILED_RESULTS),

    /** drawn → settled once nothing is left to capture, pass on, release or mail; a cancelled draw is stamped settled. */
    async settleIfDone(drawId: string): Promise<boolean> {
      const [open] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(drawEntries)
        .where(
          and(
            eq(drawEntries.drawId, drawId),
            sql`(${drawEntries.status} in ('pending', 'confirmed', 'selected', 'waiting')
              or (${drawEntries.status} in (${sql.join(
                RELEASED_STATUSES.map((s) => sql`${s}`),
                sql`, `,
              )}) and ${drawEntries.authorisationState} in ('authorised', 'prepared'))
              or (${drawEntries.status} in (${sql.join(
                MAILED_RESULTS.map((s) => sql`${s}`),
                sql`, `,
              )}) and ${drawEntries.resultMailedAt} is null))`,
          ),
        );
      if ((open?.n ?? 0) > 0) return false;
      const settled = await moveDraw(db, drawId, 'settled', { settledAt: new Date(clock.now()) });
      if (settled) {
        // The product is back on sale: this instance's cards and pages say so at once (others within the TTL).
        productsWithDraws = null;
        return true;
      }
      const stamped = await db
        .update(draws)
        .set({ settledAt: new Date(clock.now()), updatedAt: new Date() })
        .where(and(eq(draws.id, drawId), eq(draws.status, 'cancelled'), isNull(draws.settledAt)))
        .returning({ id: draws.id });
      return stamped.length > 0;
    },

    /** The owner calls a draw off before it runs: every entry is cancelled (the flow releases the cards). */
    async cancel(id: string): Promise<AdminDraw> {
      await requireDraw(id);
      const moved = await db.transaction(async (tx) => {
        const row = await moveDraw(tx, id, 'cancelled');
        if (row) await moveEntries(tx, { drawId: id }, 'cancelled');
        return row;
      });
      if (!moved) throw conflict(DRAW_MESSAGES.notCancellable);
      productsWithDraws = null; // as when settled: the product's cards and pages stop offering the draw here at once
      return toAdmin(moved);
    },

    /** The draw time has come (the one clock). */
    drawDue: (d: DrawRow) => clock.now() >= d.drawAt.getTime(),

    /** For the owner's "run now": refused before the window has closed. */
    assertMayRun(d: DrawRow): void {
      if (d.status === 'cancelled') throw conflict(DRAW_MESSAGES.notCancellable);
      if ((d.status === 'scheduled' || d.status === 'open') && clock.now() < d.closesAt.getTime()) {
        throw new HttpError(409, DRAW_MESSAGES.tooEarlyToRun);
      }
    },
  };
}

export type DrawsService = ReturnType<typeof createDrawsService>;
