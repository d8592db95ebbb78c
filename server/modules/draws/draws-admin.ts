import type { AdminDraw, AdminDrawCreate, AdminDrawEntry, AdminDrawUpdate } from '../../../common/contracts/draws';
import { commitmentOf } from '../../../common/domain/draw';
import { fairnessProblem, normaliseFairness, NO_FAIRNESS, type DrawFairness } from '../../../common/domain/draw-fairness';
import { drawHasRun, scheduleProblem, type DrawEntryStatus } from '../../../common/domain/draw-lifecycle';
import { formatMoney } from '../../../common/domain/money';
import { unitPriceCents } from '../../../common/domain/pricing';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import { DRAW_MESSAGES, isUniqueViolation, type DrawContext } from './draw-context';
import { newSeed, nodeSha256 } from './draw-crypto';
import {
  countEntries,
  entriesForOwner,
  fairnessOf,
  insertDraw,
  latestDraws,
  moveDraw,
  moveEntries,
  saveFairness,
  updateScheduledDraw,
  type DrawRow,
} from './draws.repository';

/** The owner's rule checked (400 with the reason) and put in its stored form; absent: off. */
function parseFairness(f: AdminDrawCreate['fairness']): DrawFairness {
  if (!f) return NO_FAIRNESS;
  const problem = fairnessProblem(f);
  if (problem) throw badRequest(problem);
  return normaliseFairness(f);
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

/**
 * The owner's draws: made, rescheduled (only before the window opens), listed with their entries, cancelled
 * before they run. `forgetSales`: a draw made or cancelled here shows on this instance's pages at once.
 */
export function createDrawsAdmin(ctx: DrawContext, opts: { forgetSales: () => void }) {
  const { db, clock, catalog } = ctx;

  async function toAdmin(row: DrawRow, counts?: Record<string, number>, fairness?: DrawFairness): Promise<AdminDraw> {
    const drawn = drawHasRun(row.status);
    return {
      id: row.id,
      productId: row.productId,
      productName: await ctx.productName(row.productId),
      status: row.status as AdminDraw['status'],
      opensAt: row.opensAt.toISOString(),
      closesAt: row.closesAt.toISOString(),
      drawAt: row.drawAt.toISOString(),
      price: formatMoney(row.priceCents),
      pieces: row.pieces,
      commitment: row.commitment,
      seed: drawn ? row.seed : null,
      fairness: fairness ?? (await ctx.fairnessOfDraw(row.id)),
      drawnAt: row.drawnAt?.toISOString() ?? null,
      settledAt: row.settledAt?.toISOString() ?? null,
      counts: counts ?? (await countEntries(db, [row.id])).get(row.id) ?? {},
    };
  }

  return {
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
          const inserted = await insertDraw(tx, {
            productId: product.id,
            ...schedule,
            priceCents: unitPriceCents(product),
            pieces: input.pieces ?? null,
            commitment,
            seed,
          });
          await saveFairness(tx, inserted.id, fairness);
          opts.forgetSales();
          return inserted;
        });
        return toAdmin(row, {}, fairness);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(DRAW_MESSAGES.oneLiveDraw);
        throw err;
      }
    },

    /** The schedule may change only while scheduled and before the window opens (entrants rely on it). */
    async updateDraw(id: string, patch: AdminDrawUpdate): Promise<AdminDraw> {
      const row = await ctx.requireDraw(id);
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
        const moved = await updateScheduledDraw(
          tx,
          id,
          { ...schedule, ...(patch.pieces === undefined ? {} : { pieces: patch.pieces }) },
          clock.sqlNow(),
        );
        if (moved && fairness) await saveFairness(tx, id, fairness);
        return moved;
      });
      if (!updated) throw conflict(DRAW_MESSAGES.onlyWhileScheduled);
      return toAdmin(updated);
    },

    async adminDraw(id: string): Promise<AdminDraw> {
      return toAdmin(await ctx.requireDraw(id));
    },

    async adminList(): Promise<AdminDraw[]> {
      const rows = await latestDraws(db, 200);
      const ids = rows.map((r) => r.id);
      const counts = await countEntries(db, ids);
      const rules = await fairnessOf(db, ids);
      return Promise.all(rows.map((r) => toAdmin(r, counts.get(r.id) ?? {}, rules.get(r.id))));
    },

    /** The owner's view of a draw's entries: ranked ones in rank order, then the rest by entry time. */
    async adminEntries(id: string): Promise<AdminDrawEntry[]> {
      await ctx.requireDraw(id);
      const rows = await entriesForOwner(db, id);
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

    /** The owner calls a draw off before it runs: every entry is cancelled (the flow releases the cards). */
    async cancel(id: string): Promise<AdminDraw> {
      await ctx.requireDraw(id);
      const moved = await db.transaction(async (tx) => {
        const row = await moveDraw(tx, id, 'cancelled');
        if (row) await moveEntries(tx, { drawId: id }, 'cancelled');
        return row;
      });
      if (!moved) throw conflict(DRAW_MESSAGES.notCancellable);
      opts.forgetSales(); // as when settled: the product's cards and pages stop offering the draw here at once
      return toAdmin(moved);
    },
  };
}
