import type { Tx } from '../../db/client';
import { rankEntries } from '../../../common/domain/draw';
import { loyaltyWeight, type DrawFairness } from '../../../common/domain/draw-fairness';
import { nextAlternate } from '../../../common/domain/draw-allocation';
import { CAPTURE_CLAIM_MS, drawTakesEntries, FINAL_ENTRY_RESULTS } from '../../../common/domain/draw-lifecycle';
import { conflict, HttpError } from '../../lib/http-error';
import { DRAW_MESSAGES, type DrawContext } from './draw-context';
import { nodeHmac } from './draw-crypto';
import {
  authorisationsToRelease,
  claimCapture,
  claimResultMails,
  dueDraws,
  entriesByRank,
  entriesOf,
  entriesOfRecentWinners,
  findDraw,
  lockClaimed,
  moveDraw,
  moveEntries,
  openWork,
  pastOutcomes,
  releaseCaptureClaim,
  stampCancelledSettled,
  writeRanks,
  type DrawEntryRow,
  type DrawRow,
} from './draws.repository';

/**
 * Running a draw, step by step for server/flows/settle-draw.ts: the window by the one clock, duplicates and
 * the fairness rules, the ranking, the captures (claimed, asked outside any transaction, recorded), the
 * releases, the result mails and the settle. `forgetSales`: a settled draw's product is back on sale here at once.
 */
export function createDrawsRun(ctx: DrawContext, opts: { forgetSales: () => void }) {
  const { db, clock } = ctx;

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
  async function sitOutRecentWinners(tx: Tx, drawId: string, fairness: DrawFairness): Promise<DrawEntryRow[]> {
    if (fairness.rule !== 'sit_out' || fairness.lookback === null) return [];
    const out = await entriesOfRecentWinners(tx, drawId, fairness.lookback);
    return moveEntries(tx, { ids: out.map((e) => e.id) }, 'removed', {
      removedReason: DRAW_MESSAGES.recentWinner(fairness.lookback),
    });
  }

  /** The loyalty rule's weight per folded mailbox (only entrants weighing more than 1); empty otherwise. */
  async function loyaltyWeights(tx: Tx, drawId: string, fairness: DrawFairness): Promise<Map<string, number>> {
    const weights = new Map<string, number>();
    if (fairness.rule !== 'loyalty' || fairness.lookback === null) return weights;
    for (const [mailbox, history] of await pastOutcomes(tx, drawId, fairness.lookback)) {
      const w = loyaltyWeight(history, fairness.lookback);
      if (w > 1) weights.set(mailbox, w);
    }
    return weights;
  }

  return {
    mergeDuplicates,
    sitOutRecentWinners,

    /** Draws with work to do by the one clock: due to open, to close, to draw, or drawn and not settled. */
    dueDraws: (): Promise<DrawRow[]> => dueDraws(db, clock.sqlNow()),

    async openIfDue(d: DrawRow): Promise<void> {
      if (d.status === 'scheduled' && clock.now() >= d.opensAt.getTime() && clock.now() < d.closesAt.getTime()) {
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
      const fairness = await ctx.fairnessOfDraw(drawId, tx);
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
      await writeRanks(tx, ranked, new Date(clock.now()));
      return { draw: drawn, ranked };
    },

    async select(tx: Tx, entryId: string, size: string | null, variantId: string | null): Promise<boolean> {
      return (await moveEntries(tx, { ids: [entryId] }, 'selected', { allocatedSize: size, variantId })).length === 1;
    },

    async markWaiting(tx: Tx, entryIds: readonly string[]): Promise<void> {
      await moveEntries(tx, { ids: entryIds }, 'waiting');
    },

    /** The next selected entry to capture, best rank first; null when none is left. */
    async nextToCapture(drawId: string): Promise<DrawEntryRow | null> {
      return (await entriesByRank(db, drawId, 'selected', { limit: 1 }))[0] ?? null;
    },

    /**
     * Claims a selected entry for its capture, in its own statement (no lock held while the gateway is asked).
     * A claim older than CAPTURE_CLAIM_MS was left by a crash and is taken over. Null: another instance is
     * capturing it now.
     */
    claimCapture: (entryId: string): Promise<DrawEntryRow | null> =>
      claimCapture(db, entryId, new Date(clock.now()), new Date(clock.now() - CAPTURE_CLAIM_MS)),

    /** The gateway could not be asked: the claim is given back, the capture retried on the next run. */
    releaseCaptureClaim: (entryId: string): Promise<void> => releaseCaptureClaim(db, entryId),

    /** The claimed entry, locked to record the gateway's answer; null when another instance recorded it. */
    lockClaimed: (tx: Tx, entryId: string) => lockClaimed(tx, entryId),

    async markWon(tx: Tx, entryId: string, orderNumber: string): Promise<void> {
      await moveEntries(tx, { ids: [entryId] }, 'won', { orderNumber, authorisationState: 'captured' });
    },

    /**
     * A capture failed: the entry is out (its declined authorisation back to be released), and its held piece
     * goes to the best-ranked waiting entry that wants that size (common/domain/draw-allocation.ts). Returns
     * that entry, or null (the caller gives the piece back to stock).
     */
    async passOn(tx: Tx, failed: DrawEntryRow, error: string): Promise<DrawEntryRow | null> {
      await moveEntries(tx, { ids: [failed.id] }, 'capture_failed', {
        captureError: error,
        authorisationState: 'authorised',
      });
      const waiting = await entriesByRank(tx, failed.drawId, 'waiting', { lock: true });
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
      if ((await entriesByRank(db, drawId, 'selected', { limit: 1 })).length === 0)
        await moveEntries(db, { drawId }, 'lost');
    },

    /** Entries whose authorisation is still held though the draw no longer needs it. */
    authorisationsToRelease: (drawId: string): Promise<DrawEntryRow[]> => authorisationsToRelease(db, drawId),

    /** Claims the result mails of a draw, once each (the flow sends them; withdrawn entrants left on their own). */
    claimResultMails: (drawId: string) => claimResultMails(db, drawId, FINAL_ENTRY_RESULTS),

    /** drawn → settled once nothing is left to capture, pass on, release or mail; a cancelled draw is stamped settled. */
    async settleIfDone(drawId: string): Promise<boolean> {
      if ((await openWork(db, drawId)) > 0) return false;
      const settled = await moveDraw(db, drawId, 'settled', { settledAt: new Date(clock.now()) });
      if (settled) {
        // The product is back on sale: this instance's cards and pages say so at once (others within the TTL).
        opts.forgetSales();
        return true;
      }
      return stampCancelledSettled(db, drawId, new Date(clock.now()));
    },

    /** The draw time has come (the one clock). */
    drawDue: (d: DrawRow) => clock.now() >= d.drawAt.getTime(),

    /** For the owner's "run now": refused before the window has closed. */
    assertMayRun(d: DrawRow): void {
      if (d.status === 'cancelled') throw conflict(DRAW_MESSAGES.notCancellable);
      if (drawTakesEntries(d.status) && clock.now() < d.closesAt.getTime()) {
        throw new HttpError(409, DRAW_MESSAGES.tooEarlyToRun);
      }
    },
  };
}
