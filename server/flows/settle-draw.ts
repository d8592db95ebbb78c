import type { FastifyBaseLogger } from 'fastify';
import type { AdminDraw } from '../../common/contracts/draws';
import type { Product } from '../../common/contracts/catalog';
import { allocateInRankOrder } from '../../common/domain/draw-allocation';
import { drawTakesEntries } from '../../common/domain/draw-lifecycle';
import { sizeKey } from '../../common/domain/size-run';
import { EDITION_SIZE } from '../../common/domain/stock';
import type { Db, Tx } from '../db/client';
import type { Mailer, MailMessage } from '../lib/mailer';
import { absoluteUrl } from '../lib/mail-template';
import type { CatalogService } from '../modules/catalog/catalog.service';
import { renderDrawResult, type DrawResultKind } from '../modules/draws/draw-mail';
import type { DrawEntryRow, DrawRow, DrawsService } from '../modules/draws/draws.service';
import type { InventoryService } from '../modules/inventory/inventory.service';
import type { OrdersService } from '../modules/orders/orders.service';
import type { PaymentGateway } from '../modules/payments/payment-gateway';
import type { SettingsService } from '../modules/settings/settings.service';

/** Held pieces of one size become sold, with the design's next edition numbers (inventory's sellVariant fits it). */
export type SellHeldPiece = (
  tx: Tx,
  productId: string,
  variantId: string,
  quantity: number,
) => Promise<{ numbers: number[]; editionSize: number } | null>;

interface SettleDrawDeps {
  db: Db;
  draws: DrawsService;
  catalog: Pick<CatalogService, 'getProductFresh'>;
  inventory: Pick<InventoryService, 'moveSizes'>;
  sellHeldPiece: SellHeldPiece;
  orders: Pick<OrdersService, 'record' | 'confirmationMail'>;
  gateway: PaymentGateway;
  mailer: Mailer;
  settings: Pick<SettingsService, 'shopName'> & { publicSettings: Pick<SettingsService['publicSettings'], 'supportEmail'> };
  log: FastifyBaseLogger;
  baseUrl: string;
  /** Pause between two captures (the provider's rate limits); default 250 ms. */
  captureGapMs?: number;
  /** Called after pieces were taken or sold (the catalogue shows stock). */
  onStockChanged?: () => void;
}

class NoPiece extends Error {}

/** Authorisations voided at once after a draw (releaseOthers). */
const RELEASE_LANES = 4;

/**
 * Settle a draw (docs/draw.md, "Running the draw"): the `draws` job (and the owner's "run now") moves each
 * due draw along, each step idempotent and safe to re-run after a crash, on any instance:
 *   1. open / close        — draws: the window by the one clock; unconfirmed entries lapse at the close
 *   2. rankAndAllocate     — ONE transaction: draws locks the draw, removes duplicates, reveals and ranks;
 *                            inventory holds one piece per selected entry in rank order (first choice, else
 *                            second), the rest wait as alternates (common/domain/draw-allocation.ts)
 *   3. captureWinners      — per winner, paced, and no lock held while the provider is asked:
 *                            a. draws claims the entry (authorisation `capturing`) in one statement;
 *                            b. payments captures, outside any transaction (idempotent at the provider:
 *                               never twice);
 *                            c. ONE short transaction records the answer: inventory sells the held piece
 *                               (edition number), orders records the order, draws marks it won; after the
 *                               commit the winner gets the buyers' order confirmation. A declined capture
 *                               passes the piece to the next ranked alternate wanting that size, or gives it
 *                               back to stock.
 *                            A crash between b and c leaves the claim: once CAPTURE_CLAIM_MS has passed the
 *                            next run claims it again, the provider answers `already_captured`, and c
 *                            records it once.
 *   4. releaseOthers       — every other authorisation voided (the waiting ones once nothing is left to pass on)
 *   5. mailResults         — every entrant mailed their result once (claimed before sending)
 *   6. settle              — drawn → settled when nothing is left to do
 */
export function createSettleDrawFlow(deps: SettleDrawDeps) {
  const { db, draws, catalog, inventory, gateway, mailer, settings, log } = deps;
  const base = deps.baseUrl.replace(/\/+$/, '');
  const gapMs = deps.captureGapMs ?? 250;
  const sleep = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
  const pendingMail = new Set<Promise<void>>();

  /** One piece of `size` out of stock into held, in a savepoint: a size that is short changes nothing. */
  async function takePiece(tx: Tx, productId: string, size: string | null): Promise<string | null> {
    try {
      return await tx.transaction(async (sp) => {
        const moved = await inventory.moveSizes(sp, [], [{ productId, size, quantity: 1 }]);
        const variantId = moved.short ? null : (moved.taken[0]?.variantId ?? null);
        if (!variantId) throw new NoPiece();
        return variantId;
      });
    } catch (err) {
      if (err instanceof NoPiece) return null;
      throw err;
    }
  }

  async function rankAndAllocate(d: DrawRow): Promise<boolean> {
    const done = await db.transaction(async (tx) => {
      const result = await draws.rank(tx, d.id);
      if (!result) return false;
      const variants = new Map<string, string>();
      // A size that came back short is not asked for again in this transaction: otherwise every ranked
      // entry (20,000 in bench:draw) costs a savepoint and a conditional statement per size it names, and
      // the draw's transaction ran for minutes. A piece put back meanwhile stays on sale after the draw.
      const shortSizes = new Set<string | null>();
      const allocation = await allocateInRankOrder(result.ranked, async (size, entry) => {
        const key = size === null ? null : sizeKey(size);
        if (shortSizes.has(key)) return false;
        const variantId = await takePiece(tx, d.productId, size);
        if (variantId) variants.set(entry.id, variantId);
        else shortSizes.add(key);
        return variantId !== null;
      }, d.pieces);
      for (const s of allocation.selected) await draws.select(tx, s.id, s.size, variants.get(s.id) ?? null);
      await draws.markWaiting(tx, allocation.waiting);
      return true;
    });
    if (done) deps.onStockChanged?.();
    return done;
  }

  function orderOf(e: DrawEntryRow, productId: string, product: Product | null) {
    return {
      // The order names the entry where a checkout would be (no checkout was made for it).
      id: e.id,
      sessionId: `draw:${e.publicId}`,
      customer: {
        email: e.email,
        firstName: e.firstName,
        lastName: e.lastName,
        phone: e.phone,
        shippingAddress: e.shippingAddress,
        shippingCity: e.shippingCity,
        shippingState: e.shippingState,
        shippingZip: e.shippingZip,
        shippingCountry: e.shippingCountry,
      },
      shippingMethod: e.shippingMethod,
      subtotalCents: e.subtotalCents,
      discountCode: null,
      discountAmountCents: 0,
      taxCents: e.taxCents,
      shippingCents: e.shippingCents,
      totalCents: e.amountCents,
      lines: [
        {
          productId,
          name: product?.name ?? 'Draw piece',
          unitPriceCents: e.subtotalCents,
          quantity: 1,
          selectedSize: e.allocatedSize,
          selectedColor: null,
          image: product?.images[0] ?? null,
        },
      ],
    };
  }

  /** Captures one selected entry; false when another instance holds it (it captures it instead). */
  async function captureOne(d: DrawRow, entryId: string, product: Product | null): Promise<boolean> {
    const claimed = await draws.claimCapture(entryId);
    if (!claimed) return false;
    // Asked outside any transaction: no row lock waits on the provider.
    let result: Awaited<ReturnType<PaymentGateway['capture']>>;
    try {
      result = await gateway.capture(claimed.authorisationId);
    } catch (err) {
      // The provider could not be asked: the claim is given back, the next run asks again.
      await draws.releaseCaptureClaim(entryId);
      throw err;
    }
    const outcome = await db.transaction(async (tx) => {
      const e = await draws.lockClaimed(tx, entryId);
      if (!e) return 'busy' as const;
      if (result.kind === 'failed') {
        const next = await draws.passOn(tx, e, result.code);
        if (!next && e.variantId)
          await inventory.moveSizes(
            tx,
            [{ productId: d.productId, variantId: e.variantId, quantity: 1 }],
            [],
          );
        return 'passed' as const;
      }
      if (result.amount !== e.amountCents)
        log.error({ drawId: d.id, entry: e.publicId }, 'draw: captured amount differs from the entry');
      const sold = e.variantId ? await deps.sellHeldPiece(tx, d.productId, e.variantId, 1) : null;
      const order = await deps.orders.record(
        tx,
        orderOf(e, d.productId, product),
        e.authorisationId,
        [sold ?? { numbers: [], editionSize: product?.editionSize ?? EDITION_SIZE }],
        {
          isTest: gateway.provider === 'offline',
          // A drawn piece is a limited drop: its ship-by date allows the drop's extra day.
          limitedDrop: true,
        },
      );
      await draws.markWon(tx, e.id, order.orderNumber);
      return order;
    });
    if (outcome !== 'busy') deps.onStockChanged?.();
    // A winner is a buyer: the same order confirmation (edition numbers, address, totals, the order page's
    // link), once the order is committed. Claimed once: this transaction made the order, no other will.
    if (typeof outcome === 'object') mailLater(deps.orders.confirmationMail(outcome), d.id);
    return outcome !== 'busy';
  }

  function mailLater(message: MailMessage, drawId: string): void {
    const p = mailer
      .send(message)
      .catch((err: unknown) => log.error({ err, drawId }, 'draw: sending a winner\'s order confirmation failed'))
      .finally(() => pendingMail.delete(p));
    pendingMail.add(p);
  }

  async function captureWinners(d: DrawRow): Promise<void> {
    const product = await catalog.getProductFresh(d.productId);
    let first = true;
    for (;;) {
      const next = await draws.nextToCapture(d.id);
      if (!next) return;
      if (!first) await sleep(gapMs);
      first = false;
      if (!(await captureOne(d, next.id, product))) return;
    }
  }

  /**
   * Releases every authorisation the draw no longer needs, RELEASE_LANES at a time: after a large draw this
   * is one call per entry (about 19,000 in bench:draw), too slow one after the other; 4 in flight stays
   * well inside Stripe's rate limits.
   */
  async function releaseOthers(drawId: string): Promise<void> {
    const todo = await draws.authorisationsToRelease(drawId);
    let next = 0;
    const lane = async () => {
      while (next < todo.length) await releaseOne(drawId, todo[next++]!);
    };
    await Promise.all(Array.from({ length: RELEASE_LANES }, lane));
  }

  async function releaseOne(drawId: string, e: DrawEntryRow): Promise<void> {
    try {
      const result = await gateway.voidAuthorisation(e.authorisationId);
      if (result === 'captured') {
        // Charged without a piece (cannot happen through these steps; a provider surprise): give it back.
        log.error({ drawId, entry: e.publicId }, 'draw: an entry without a piece was charged; refunding');
        await gateway.refund(e.authorisationId);
      }
      await draws.setAuthorisationState(e.id, 'voided');
    } catch (err) {
      log.warn(
        { err, drawId, entry: e.publicId },
        'draw: releasing an authorisation failed; retried on the next run',
      );
    }
  }

  function mailResults(d: DrawRow, entries: readonly DrawEntryRow[], product: { name: string; images: readonly string[] } | null): void {
    const productName = product?.name ?? 'the piece';
    // Who the mails are from: the one mail template's mark, shop and refund-policy links, support line.
    const brand = { shopName: settings.shopName, shopUrl: base, supportEmail: settings.publicSettings.supportEmail };
    for (const e of entries) {
      const p = mailer
        .send(
          renderDrawResult({
            to: e.email,
            firstName: e.firstName,
            productName,
            // A removed entry that duplicates none was removed under the sit_out rule.
            kind: (e.status === 'removed' && e.duplicateOf === null ? 'sat_out' : e.status) as DrawResultKind,
            size: e.allocatedSize,
            amountCents: e.amountCents,
            orderNumber: e.orderNumber,
            // The public page, opened on this entrant's rank (the entry's own link is known only to its mailbox).
            url: `${base}/draws/${d.id}?entry=${e.publicId}`,
            nextDropsUrl: `${base}/drops`,
            shopName: brand,
            productImageUrl: absoluteUrl(base, product?.images[0]),
          }),
        )
        // Claimed before sending (exactly once); the mailer keeps and retries what cannot go out now.
        .catch((err: unknown) =>
          log.error({ err, drawId: d.id, entry: e.publicId }, 'draw: sending a result mail failed'),
        )
        .finally(() => pendingMail.delete(p));
      pendingMail.add(p);
    }
  }

  /** Moves one draw as far as it can go now. `runNow`: the owner's action (the draw time need not have come). */
  async function advance(id: string, opts: { runNow?: boolean } = {}): Promise<void> {
    let d = await draws.findDraw(id);
    if (!d) return;
    if (d.status === 'scheduled') await draws.openIfDue(d);
    if (drawTakesEntries(d.status)) {
      if (!(await draws.closeIfDue(d))) return;
      await releaseOthers(id);
      d = (await draws.findDraw(id))!;
    }
    if (d.status === 'closed' && (opts.runNow || draws.drawDue(d))) {
      await rankAndAllocate(d);
      d = (await draws.findDraw(id))!;
    }
    if (d.status === 'drawn' || d.status === 'cancelled') {
      if (d.status === 'drawn') {
        await captureWinners(d);
        await draws.markRestLost(id);
      }
      await releaseOthers(id);
      const claimed = await draws.claimResultMails(id);
      if (claimed.length > 0)
        mailResults(d, claimed, await catalog.getProductFresh(d.productId));
      await draws.settleIfDone(id);
    }
  }

  return {
    advance,

    /** The `draws` job: every due draw, one after the other; a failure is logged and retried next time. */
    async tick(): Promise<void> {
      for (const d of await draws.dueDraws()) {
        try {
          await advance(d.id);
        } catch (err) {
          log.error({ err, drawId: d.id }, 'draw: a settle step failed; retried on the next run');
        }
      }
    },

    /** POST /api/admin/draws/:id/run: closes the window if it has ended, then draws and settles now. */
    async runNow(id: string): Promise<AdminDraw> {
      const d = await draws.findDraw(id);
      if (!d) return draws.adminDraw(id);
      draws.assertMayRun(d);
      await advance(id, { runNow: true });
      return draws.adminDraw(id);
    },

    /** POST /api/admin/draws/:id/cancel: before the draw; every authorisation is released. */
    async cancel(id: string): Promise<AdminDraw> {
      await draws.cancel(id);
      await advance(id);
      return draws.adminDraw(id);
    },

    /** Waits for result mails still being handed over (tests, shutdown). */
    async drain(): Promise<void> {
      await Promise.allSettled([...pendingMail]);
    },
  };
}

export type SettleDrawFlow = ReturnType<typeof createSettleDrawFlow>;
