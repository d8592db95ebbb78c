import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { isDatabaseUnavailable, isStorageFailure } from '../../db/db-errors';
import type { CreatePaymentIntentResult } from '../../../common/contracts/checkout';
import type { ShippingMethod } from '../../../common/contracts/settings';
import { canFulfilCheckout, checkoutHoldsStock } from '../../../common/domain/checkout-lifecycle';
import { checkDiscountCode, DISCOUNT_MESSAGES, isLimitedCode, normalizeDiscountCode } from '../../../common/domain/discount';
import { amountMatches } from '../../../common/domain/pricing';
import { resolveShippingMethod } from '../../../common/domain/shipping';
import { creditOnlyIntentId, isCreditOnlyIntent } from '../../../common/domain/store-credit';
import { justSoldOutMessage, quantitiesByProduct, stockMessages } from '../../../common/domain/stock';
import type { Clock } from '../../lib/db-clock';
import { mapLimit } from '../../lib/map-limit';
import { badRequest, conflict, HttpError } from '../../lib/http-error';
import type {
  CheckoutCart,
  CheckoutCartLine as PricedCartLine,
  CheckoutCredit,
  CheckoutDiscounts,
  CheckoutGateway,
  CheckoutLimits,
  CheckoutSettings,
  CheckoutStock,
} from './checkout.ports';
import {
  deferPaymentChecks,
  findCheckoutByIntent,
  findSessionsHoldingOrBought,
  insertCheckout,
  listDuePaymentChecks,
  listExpiredOpenCheckouts,
  listOpenCheckoutIds,
  lockCheckout,
  lockOpenCheckouts,
  lockShopperAttempts,
  readDatabaseNow,
  setCheckoutAmount,
  setCheckoutIntent,
  setPaymentCheck,
  transitionCheckout,
  type CheckoutRow,
  type PaymentCheck,
} from './checkout.repository';
import type { CheckoutCustomer, CheckoutLine } from './checkout.tables';
import { toCheckoutCustomer, type CustomerInfoService } from './customer-info.service';
import { CHECKOUT_MESSAGES, discountError, type TotalsService } from './totals.service';

export type { CheckoutRow, PaymentCheck };

export type PaymentIntentBody = { amount?: number; discountCode?: string | null; shippingMethod?: ShippingMethod; useCredit?: boolean };

/** A checkout's lines as the per-size hold reads them: product, size, colour, units. */
function sizedLines(lines: readonly CheckoutLine[]) {
  return lines.map((l) => ({ productId: l.productId, size: l.selectedSize, colour: l.selectedColor, quantity: l.quantity }));
}

/** Gateway states in which the money is, or may still become, the shop's: such a hold is never released. */
const PAID_OR_PAYING = new Set(['succeeded', 'processing', 'requires_capture']);

/** A hold could not be (re)taken: the units or the code went to someone else. */
export class HoldLostError extends Error {
  constructor(
    readonly productName: string | null,
    message: string,
  ) {
    super(message);
  }
}

/** The paid checkout would take its shopper over a product's limit (counted with the card): refunded. */
export class OverLimitError extends HoldLostError {}

/** The checkout was refunded (or is gone) before its order could be made. */
export class CheckoutRefundedError extends Error {}

/** What makes two payment attempts the same: reusing an intent for it keeps the shopper's countdown. */
function attemptSignature(c: {
  lines: CheckoutLine[];
  customer: CheckoutCustomer;
  shippingMethod: string;
  discountCode: string | null;
  amountCents: number;
}): string {
  // Explicit field order: jsonb does not keep the key order the snapshot was written with.
  const lines = c.lines.map((l) => [
    l.productId,
    l.quantity,
    l.unitPriceCents,
    l.selectedSize,
    l.selectedColor,
  ]);
  const k = c.customer;
  const customer = [
    k.email,
    k.firstName,
    k.lastName,
    k.phone,
    k.shippingAddress,
    k.shippingCity,
    k.shippingState,
    k.shippingZip,
    k.shippingCountry,
  ];
  return JSON.stringify([lines, customer, c.shippingMethod, c.discountCode, c.amountCents]);
}

export interface PurchaseDeps {
  db: Db;
  /** The cart's priced lines (totals of the summary; the payment's lines come from the start-payment flow). */
  cart: CheckoutCart;
  inventory: CheckoutStock;
  discounts: CheckoutDiscounts;
  settings: CheckoutSettings;
  gateway: CheckoutGateway;
  log: FastifyBaseLogger;
  customerInfo: CustomerInfoService;
  totals: TotalsService;
  /** Per-shopper limits: claims follow the holds, in the same transactions (docs/product.md §9, Per-shopper limits and No hoarding). */
  limits: CheckoutLimits;
  /** Called after a commit that moved stock (the catalogue shown to shoppers must follow at once). */
  onStockChanged?: () => void;
  /** Store credit (docs/product.md §2.15): held with the stock, released with it. */
  credit?: CheckoutCredit;
  /** The database's clock: release, hold deadlines and hold expiry are decided by it (server/lib/db-clock.ts). */
  clock: Clock;
}

/**
 * The purchase workflow: a payment attempt holds stock and a code (createPaymentIntent), and ends
 * exactly once, along the lifecycle table (common/domain/checkout-lifecycle.ts): its order is made in
 * completePurchase's transaction (owned here; fulfilment only records the order), or its hold is
 * released (replaced, expired, refunded). Stock moves through inventory, code usages through discounts.
 */
export function createPurchaseService(deps: PurchaseDeps) {
  const { db, inventory, discounts, settings, gateway, log, customerInfo, totals: pricing, limits } = deps;
  const stockChanged = () => deps.onStockChanged?.();
  const clock = deps.clock;

  /**
   * Gives back what open checkouts hold: their units (returned as a per-product map) and code usages.
   * `next`: the products of the attempt replacing them (their limit claims carry over; the others lapse).
   */
  async function releaseCheckouts(
    tx: Tx,
    rows: readonly CheckoutRow[],
    to: 'cancelled' | 'expired',
    next?: ReadonlySet<string>,
  ) {
    const codes: string[] = [];
    const ids: string[] = [];
    for (const row of rows) {
      if (!(await transitionCheckout(tx, row.id, to, { from: ['open'], set: { discountClaimed: false } }))) continue;
      ids.push(row.id);
      if (row.discountClaimed && row.discountCode) codes.push(row.discountCode);
    }
    const released = await inventory.releaseHolds(tx, ids);
    // Credit a failed, lapsed or replaced payment held goes back to its grants, in the same transaction.
    for (const id of ids) await deps.credit?.release(tx, id);
    await limits.endHolds(tx, ids, to === 'expired' ? { lapsed: true } : next ? { replacedBy: next } : { lapsed: false });
    return { released, codes, ids };
  }

  async function releaseCodes(tx: Tx, codes: string[]) {
    for (const code of [...codes].sort()) await discounts.release(tx, code);
  }

  /** Returns the units and code usages of open checkouts and marks them `to`. */
  async function releaseInTransaction(
    tx: Tx,
    rows: readonly CheckoutRow[],
    to: 'cancelled' | 'expired',
  ): Promise<number> {
    const { released, codes, ids } = await releaseCheckouts(tx, rows, to);
    await inventory.moveSizes(tx, released, []);
    await releaseCodes(tx, codes);
    return ids.length;
  }

  async function releaseOne(id: string, to: 'cancelled' | 'expired'): Promise<void> {
    const released = await db.transaction(async (tx) => {
      const locked = await lockCheckout(tx, id);
      return locked ? releaseInTransaction(tx, [locked], to) : 0;
    });
    if (released > 0) stockChanged();
  }

  /**
   * In a drop most attempts come after the last piece is held: answer them from the cart's own read
   * instead of a transaction. Only a hint — the conditional update in the transaction is the guard.
   */
  async function refuseWhenSoldOut(sessionId: string, lines: readonly PricedCartLine[]): Promise<void> {
    const open = await listOpenCheckoutIds(db, sessionId);
    // Units the session's own open checkout holds come back when the attempt is replaced.
    const heldByMe = open.length > 0 ? await inventory.heldFor(open) : new Map<string, number>();
    for (const [productId, quantity] of quantitiesByProduct(lines)) {
      const line = lines.find((l) => l.productId === productId)!;
      if (line.available + (heldByMe.get(productId) ?? 0) < quantity)
        throw conflict(stockMessages.justSoldOut(line.name));
    }
  }

  /**
   * Turns the checkout's hold into sold units: consumes a live hold, or — when it expired and was
   * released — takes the units (and a limited code's usage) again, all or nothing.
   */
  async function settleHold(tx: Tx, checkout: CheckoutRow): Promise<void> {
    if (checkoutHoldsStock(checkout.status)) {
      await inventory.consumeHolds(tx, [checkout.id]);
    } else {
      // Taken again from each line's size, recorded as this checkout's holds and consumed (the sale sells them).
      const moved = await inventory.moveSizes(tx, [], sizedLines(checkout.lines));
      if (moved.short) {
        const { productId, size } = moved.short;
        const name = checkout.lines.find((l) => l.productId === productId)?.name ?? 'an item';
        throw new HoldLostError(name, justSoldOutMessage(name, size));
      }
      await inventory.recordHolds(tx, checkout.id, moved.taken);
      await inventory.consumeHolds(tx, [checkout.id]);
      if (checkout.discountCode && !checkout.discountClaimed) {
        const row = await discounts.find(checkout.discountCode, tx);
        if (row && isLimitedCode(row) && !(await discounts.claim(tx, checkout.discountCode))) {
          throw new HoldLostError(null, 'This discount code has already been used');
        }
      }
    }
    if (checkout.discountCode) await discounts.countUse(tx, checkout.discountCode);
  }

  /**
   * The payment attempt, step by step (docs/architecture.md, Flows: start-payment). Prices the cart on the
   * server, holds its stock and claims a limited code in ONE transaction (`holdAttempt`), then opens the
   * gateway intent for exactly that amount (`openIntent`). A previous open attempt of the session is
   * replaced (its units and code go back first), or reused when nothing changed. null: the reused intent
   * could not be paid any more and was released (createPaymentIntent tries again).
   */
  async function attemptPaymentIntent(
    sessionId: string,
    body: PaymentIntentBody,
    lines: readonly PricedCartLine[],
  ): Promise<CreatePaymentIntentResult | null> {
    await refuseWhenSoldOut(sessionId, lines);
    const buyer = await readBuyer(sessionId, body);
    // Hold deadlines are the database's time, so any instance expires them alike.
    const now = new Date(clock.now());
    const outcome = await db.transaction((tx) => holdAttempt(tx, sessionId, body, lines, buyer, now));
    if (outcome.kind === 'reuse') return reuseIntent(outcome.checkout);
    stockChanged();
    for (const old of outcome.replaced)
      if (old.paymentIntentId && !isCreditOnlyIntent(old.paymentIntentId)) void gateway.cancelIntent(old.paymentIntentId).catch(() => undefined);
    // Credit paid all of it: no payment intent (the spec); the start-payment flow places the order.
    if (outcome.checkout.amountCents === 0) {
      const intentId = creditOnlyIntentId(outcome.checkout.id);
      await setCheckoutIntent(db, outcome.checkout.id, intentId);
      return answer(outcome.checkout, { id: intentId, clientSecret: '' });
    }
    return openIntent(outcome.checkout, sessionId);
  }

  /** Step: who is paying and how it ships (400 without saved customer info). */
  async function readBuyer(sessionId: string, body: PaymentIntentBody) {
    const info = await customerInfo.find(sessionId);
    if (!info) throw badRequest(CHECKOUT_MESSAGES.noCustomerInfo);
    return {
      customer: toCheckoutCustomer(info),
      method: resolveShippingMethod(info.shippingCountry, body.shippingMethod, settings.homeCountry),
      code: body.discountCode?.trim() ? normalizeDiscountCode(body.discountCode) : null,
    };
  }

  /** Step (in the hold's transaction): the code checked against what the shopper's open attempts claim. */
  async function checkCode(tx: Tx, code: string | null, previous: readonly CheckoutRow[], now: Date) {
    if (!code) return null;
    const row = await discounts.find(code, tx);
    const own = previous.filter((c) => c.discountClaimed && c.discountCode === code).length;
    const check = checkDiscountCode(row, now, own);
    if (!check.ok) throw discountError(check);
    return { code: check.code, percent: check.discountPercent, limited: isLimitedCode(row!) };
  }

  /**
   * Step (in the hold's transaction): a replacement keeps the earliest deadline of the session's open holds
   * on these products — no renewing a hold forever; one whose time has passed lapsed (the cooldown applies).
   */
  function holdDeadline(previous: readonly CheckoutRow[], take: ReadonlyMap<string, number>, now: Date): Date {
    let holdExpiresAt = new Date(now.getTime() + settings.holdMinutes * 60_000);
    for (const old of previous) {
      const shared = old.lines.find((l) => take.has(l.productId));
      if (!shared || old.holdExpiresAt >= holdExpiresAt) continue;
      if (old.holdExpiresAt <= now) {
        const refusal = limits.cooldownRefusal(shared.name, old.holdExpiresAt, now);
        if (refusal) throw refusal;
        continue;
      }
      holdExpiresAt = old.holdExpiresAt;
    }
    return holdExpiresAt;
  }

  /**
   * Step (in the hold's transaction): the replaced attempts' code usages go back and a limited code is
   * claimed once per attempt (a replaced attempt's usage of the same code carries over), in code order
   * (like products in id order), so concurrent attempts never deadlock.
   */
  async function swapCodeUsages(tx: Tx, released: string[], discount: { code: string; limited: boolean } | null): Promise<void> {
    const codes = [...released];
    const carried = discount?.limited ? codes.indexOf(discount.code) : -1;
    if (carried >= 0) codes.splice(carried, 1);
    const claim = discount?.limited && carried < 0 ? discount.code : null;
    const ops = [...codes.map((c) => ({ code: c, claim: false })), ...(claim ? [{ code: claim, claim: true }] : [])];
    for (const op of ops.sort((a, b) => (a.code < b.code ? -1 : 1))) {
      if (!op.claim) await discounts.release(tx, op.code);
      else if (!(await discounts.claim(tx, op.code))) throw conflict(DISCOUNT_MESSAGES.used);
    }
  }

  /**
   * Step: ONE transaction — lock the shopper's attempts, price, reuse an unchanged attempt or release the
   * previous ones, check the limit, take the units, swap code usages, write the checkout, its holds and
   * its limit claims. Nothing is written unless all of it is.
   */
  async function holdAttempt(
    tx: Tx,
    sessionId: string,
    body: PaymentIntentBody,
    lines: readonly PricedCartLine[],
    buyer: Awaited<ReturnType<typeof readBuyer>>,
    now: Date,
  ): Promise<{ kind: 'reuse'; checkout: CheckoutRow } | { kind: 'new'; checkout: CheckoutRow; replaced: CheckoutRow[] }> {
    await lockShopperAttempts(tx, sessionId);
    const previous = await lockOpenCheckouts(tx, sessionId);
    const discount = await checkCode(tx, buyer.code, previous, now);
    const totals = pricing.totalsFor(lines, buyer.method, discount);
    if (body.amount !== undefined && !amountMatches(body.amount, totals.total)) throw conflict(CHECKOUT_MESSAGES.amountChanged);
    if (totals.total <= 0) throw badRequest(CHECKOUT_MESSAGES.nothingToPay);

    const snapshot: CheckoutLine[] = lines.map((l) => ({
      productId: l.productId,
      name: l.name,
      unitPriceCents: l.unitPriceCents,
      quantity: l.quantity,
      selectedSize: l.selectedSize,
      selectedColor: l.selectedColor,
      image: l.image,
    }));
    const signature = attemptSignature({
      lines: snapshot,
      customer: buyer.customer,
      shippingMethod: buyer.method,
      discountCode: discount?.code ?? null,
      amountCents: totals.total,
    });
    // Held credit changes what the card pays: an attempt that asks for credit always holds afresh.
    const reusable = body.useCredit ? undefined : previous.find(
      (c) => c.paymentIntentId && c.holdExpiresAt.getTime() - now.getTime() > 30_000 && attemptSignature(c) === signature,
    );
    if (reusable) return { kind: 'reuse', checkout: reusable };

    const take = new Map(quantitiesByProduct(snapshot));
    const { released, codes } = await releaseCheckouts(tx, previous, 'cancelled', new Set(take.keys()));
    const holdExpiresAt = holdDeadline(previous, take, now);
    const recordClaims = await limits.checkHold(tx, { sessionId, customer: buyer.customer }, lines, now);
    // Each line's size (its variant) and the product's totals move together (ADR 015): a short size fails the hold.
    const moved = await inventory.moveSizes(tx, released, sizedLines(snapshot));
    if (moved.short) {
      const { productId, size } = moved.short;
      throw conflict(justSoldOutMessage(snapshot.find((l) => l.productId === productId)?.name ?? 'this item', size));
    }
    await swapCodeUsages(tx, codes, discount);

    const checkout = await insertCheckout(tx, {
      sessionId,
      lines: snapshot,
      customer: buyer.customer,
      shippingMethod: buyer.method,
      subtotalCents: totals.subtotal,
      discountCode: discount?.code ?? null,
      discountAmountCents: totals.discountAmount,
      shippingCents: totals.shipping,
      taxCents: totals.tax,
      totalCents: totals.total,
      amountCents: totals.total,
      discountClaimed: Boolean(discount?.limited),
      holdExpiresAt,
    });
    await inventory.recordHolds(tx, checkout.id, moved.taken);
    await recordClaims(checkout.id);
    // Store credit pays first, held under its ledger owner's lock in this transaction; the card pays the rest.
    const credit = body.useCredit && deps.credit ? await deps.credit.hold(tx, { email: buyer.customer.email, checkoutId: checkout.id, totalCents: totals.total }) : 0;
    const held = credit > 0 ? await setCheckoutAmount(tx, checkout.id, totals.total - credit) : checkout;
    return { kind: 'new', checkout: held, replaced: previous };
  }

  const answer = (checkout: CheckoutRow, intent: { id: string; clientSecret?: string | null }): CreatePaymentIntentResult => ({
    clientSecret: intent.clientSecret ?? '',
    paymentIntentId: intent.id,
    amount: checkout.amountCents,
    holdExpiresAt: checkout.holdExpiresAt.toISOString(),
    provider: gateway.provider,
    ...(checkout.totalCents > checkout.amountCents ? { creditApplied: checkout.totalCents - checkout.amountCents } : {}),
  });

  /** Step: an unchanged attempt keeps its intent (and the shopper's countdown) while it can still be paid. */
  async function reuseIntent(checkout: CheckoutRow): Promise<CreatePaymentIntentResult | null> {
    const intent = await gateway.retrieveIntent(checkout.paymentIntentId!);
    if (intent?.clientSecret && intent.status !== 'canceled' && intent.status !== 'succeeded') return answer(checkout, intent);
    // The reused intent cannot be paid any more: release it; the caller starts a fresh attempt.
    await releaseOne(checkout.id, 'cancelled');
    return null;
  }

  /** Step: the gateway intent for exactly the held amount; a failure gives the hold back. */
  async function openIntent(checkout: CheckoutRow, sessionId: string): Promise<CreatePaymentIntentResult> {
    let intent;
    try {
      intent = await gateway.createIntent({
        amountCents: checkout.amountCents,
        metadata: { checkoutId: checkout.id, sessionId },
        idempotencyKey: checkout.id,
      });
    } catch (err) {
      log.error({ err, checkoutId: checkout.id }, 'payment gateway: creating the intent failed');
      await releaseOne(checkout.id, 'cancelled');
      // The offline gateway keeps its intents in our own database: a database that is busy or gone is ours,
      // not the gateway's, and answers 503 + Retry-After (error handler) rather than 502.
      if (isDatabaseUnavailable(err) || isStorageFailure(err)) throw err;
      throw new HttpError(502, CHECKOUT_MESSAGES.paymentInitFailed);
    }
    await setCheckoutIntent(db, checkout.id, intent.id);
    return answer(checkout, intent);
  }

  /**
   * The cart's `lines`, already allowed by the start-payment flow's assertMayBuy (server/flows/start-payment.ts).
   */
  async function createPaymentIntent(
    sessionId: string | null,
    body: PaymentIntentBody,
    lines: readonly PricedCartLine[],
  ): Promise<CreatePaymentIntentResult> {
    if (!sessionId || lines.length === 0) throw badRequest(CHECKOUT_MESSAGES.emptyCart);
    // A reused intent that can no longer be paid was released: the next attempt makes a new one.
    for (;;) {
      const result = await attemptPaymentIntent(sessionId, body, lines);
      if (result) return result;
    }
  }

  return {
    createPaymentIntent,

    /**
     * Background job: holds past their time go back to stock (and their code usages back to the code).
     * The gateway is asked first: a hold whose payment succeeded (or is still processing) is kept and
     * handed to reconciliation, so a paid piece is never released and resold under its buyer. When the
     * gateway cannot be asked, the hold is kept until it can.
     */
    async releaseExpiredHolds(at?: Date): Promise<number> {
      // Expired by the database's clock (SQL now() in the listing), never by this instance's own.
      const now = at ?? new Date(clock.now());
      let total = 0;
      let kept = 0;
      let cursor: { holdExpiresAt: Date; id: string } | null = null;
      for (;;) {
        const rows = await listExpiredOpenCheckouts(db, at ?? clock.sqlNow(), 100, cursor);
        if (rows.length === 0) break;
        cursor = rows[rows.length - 1]!;
        const verdicts = await mapLimit(rows, 5, async (row) => {
          // No intent, or credit paid all (no gateway knows it): nothing can be paying.
          if (!row.paymentIntentId || isCreditOnlyIntent(row.paymentIntentId)) return 'release' as const;
          try {
            const intent = await gateway.retrieveIntent(row.paymentIntentId);
            return intent && PAID_OR_PAYING.has(intent.status) ? ('keep' as const) : ('release' as const);
          } catch (err) {
            log.warn({ err, checkoutId: row.id }, 'hold expiry: the payment gateway could not be asked; hold kept');
            return 'keep' as const;
          }
        });
        for (const [i, row] of rows.entries()) {
          if (verdicts[i] === 'keep') {
            kept++;
            // Reconciliation looks at it on its next run, whatever its back-off said.
            await setPaymentCheck(db, row.id, new Date(0));
            continue;
          }
          total += await db.transaction(async (tx) => {
            const locked = await lockCheckout(tx, row.id);
            if (!locked || locked.status !== 'open' || locked.holdExpiresAt >= now) return 0;
            return releaseInTransaction(tx, [locked], 'expired');
          });
        }
        if (rows.length < 100) break;
      }
      if (kept > 0) log.info({ kept }, 'expired holds kept: their payment succeeded or is in progress');
      if (total > 0) {
        stockChanged();
        log.info({ released: total }, 'released expired stock holds');
      }
      return total;
    },

    /** Of these sessions, the ones that hold, bought or had a payment for the product refunded (the waiting room's admission cap). */
    async sessionsHoldingOrBought(productId: string, sessionIds: readonly string[]): Promise<Set<string>> {
      return new Set(await findSessionsHoldingOrBought(db, productId, sessionIds));
    },

    findByIntent(intentId: string): Promise<CheckoutRow | null> {
      return findCheckoutByIntent(db, intentId);
    },

    /**
     * Complete-purchase step 1 (server/flows/complete-purchase.ts), inside the order's transaction: the
     * checkout locked. `fulfilled`: its order exists already (status and order change in one transaction).
     * A refunded (or missing) one throws CheckoutRefundedError.
     */
    async lockForOrder(tx: Tx, checkoutId: string): Promise<{ kind: 'fulfilled' | 'payable'; checkout: CheckoutRow }> {
      const locked = await lockCheckout(tx, checkoutId);
      if (locked?.status === 'fulfilled') return { kind: 'fulfilled', checkout: locked };
      if (!locked || locked.status === 'refunded') throw new CheckoutRefundedError();
      if (!canFulfilCheckout(locked.status)) throw new Error(`checkout ${locked.id} is ${locked.status} without an order`);
      return { kind: 'payable', checkout: locked };
    },

    /**
     * Complete-purchase step: the hold becomes sold units — a live hold is consumed; after expiry the
     * units (and a limited code's usage) are taken again, all or nothing (HoldLostError when gone).
     */
    settleHold,

    /** Complete-purchase step, last in the order's transaction: the checkout is fulfilled (its order exists). */
    async markFulfilled(tx: Tx, checkoutId: string): Promise<void> {
      await transitionCheckout(tx, checkoutId, 'fulfilled', { set: { paymentCheckAt: null } });
    },

    /** A refunded checkout's reason when it was a per-shopper limit (its message), else null (it sold out). */
    async limitRefusal(checkout: CheckoutRow, cardFingerprint: string | null): Promise<string | null> {
      const over = await limits.limitRefusal(
        { checkoutId: checkout.id, sessionId: checkout.sessionId, customer: checkout.customer, lines: checkout.lines },
        cardFingerprint,
      );
      return over?.message ?? null;
    },

    /** A late payment that could not be honoured ends its checkout; false when another caller already did. */
    async markRefunded(id: string): Promise<boolean> {
      const changed = await db.transaction(async (tx) => {
        const row = await lockCheckout(tx, id);
        if (!row || row.status === 'fulfilled' || row.status === 'refunded') return false;
        if (row.status === 'open') await releaseInTransaction(tx, [row], 'expired');
        return transitionCheckout(tx, id, 'refunded', { set: { paymentCheckAt: null } });
      });
      if (changed) stockChanged();
      return changed;
    },

    /** The database's clock, rounded up to the millisecond (a Date cannot hold its microseconds). */
    databaseNow(): Promise<Date> {
      return readDatabaseNow(db, clock.sqlNow());
    },

    /** Reconciliation: checkouts whose intent may be paid without an order, due for a look (no window). */
    listDuePayments(opts: { now: Date; createdBefore: Date; limit: number }): Promise<PaymentCheck[]> {
      return listDuePaymentChecks(db, opts);
    },

    /** The checked ones that are still unsettled come back later (see deferPaymentChecks). */
    deferPaymentChecks(ids: readonly string[], now: Date): Promise<void> {
      return deferPaymentChecks(db, ids, now);
    },

    /** The intent can never be paid (canceled, or unknown to the gateway): never asked about again. */
    settlePayment(id: string): Promise<void> {
      return setPaymentCheck(db, id, null);
    },
  };
}

export type PurchaseService = ReturnType<typeof createPurchaseService>;
