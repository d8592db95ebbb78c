import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { isDatabaseUnavailable, isStorageFailure } from '../../db/db-errors';
import type { CreatePaymentIntentResult } from '../../../common/contracts/checkout';
import type { ShippingMethod } from '../../../common/contracts/settings';
import { canFulfilCheckout, checkoutHoldsStock } from '../../../common/domain/checkout-lifecycle';
import { checkDiscountCode, DISCOUNT_MESSAGES, isLimitedCode, normalizeDiscountCode } from '../../../common/domain/discount';
import { amountMatches } from '../../../common/domain/pricing';
import { isReleased, releaseMessages } from '../../../common/domain/release';
import { resolveShippingMethod } from '../../../common/domain/shipping';
import { quantitiesByProduct, stockMessages } from '../../../common/domain/stock';
import { systemClock, type Clock } from '../../lib/db-clock';
import { mapLimit } from '../../lib/map-limit';
import { badRequest, conflict, HttpError } from '../../plugins/http-error';
import type { CartService, PricedCartLine } from '../cart/cart.service';
import type { DiscountsService } from '../discounts/discounts.service';
import type { InventoryService } from '../inventory/inventory.service';
import type { PaymentGateway } from '../payments/payment-gateway';
import type { PurchaseLimitsService } from '../purchase-limits/purchase-limits.service';
import type { SettingsService } from '../settings/settings.service';
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

type PaymentIntentBody = { amount?: number; discountCode?: string | null; shippingMethod?: ShippingMethod };

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

/**
 * Throws (403) when a product inside its drop window has no admission pass of this session (the drops
 * module's check); may answer the products whose valid pass it saw (a pass is proof of release).
 */
export type AdmissionCheck = (productIds: readonly string[]) => Promise<ReadonlySet<string> | void>;

/** The checkout was refunded (or is gone) before its order could be made. */
export class CheckoutRefundedError extends Error {}

/** How the orders module records the order inside the purchase's transaction (fulfilment passes these). */
export interface OrderRecorder<T> {
  /** The checkout is already fulfilled: the order made then, read in this transaction (null: none). */
  existing(tx: Tx): Promise<T | null>;
  /** Writes the order for the locked checkout, its lines' edition numbers given. */
  record(tx: Tx, checkout: CheckoutRow, editions: Array<{ numbers: number[]; editionSize: number }>): Promise<T>;
}

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
  cart: CartService;
  inventory: InventoryService;
  discounts: DiscountsService;
  settings: SettingsService;
  gateway: PaymentGateway;
  log: FastifyBaseLogger;
  customerInfo: CustomerInfoService;
  totals: TotalsService;
  /** Per-shopper limits: claims follow the holds, in the same transactions (docs/product.md §9, Per-shopper limits and No hoarding). */
  limits: PurchaseLimitsService;
  /** Called after a commit that moved stock (the catalogue shown to shoppers must follow at once). */
  onStockChanged?: () => void;
  /** The database's clock: release, hold deadlines and hold expiry are decided by it (server/lib/db-clock.ts). */
  clock?: Clock;
}

/**
 * The purchase workflow: a payment attempt holds stock and a code (createPaymentIntent), and ends
 * exactly once, along the lifecycle table (common/domain/checkout-lifecycle.ts): its order is made in
 * completePurchase's transaction (owned here; fulfilment only records the order), or its hold is
 * released (replaced, expired, refunded). Stock moves through inventory, code usages through discounts.
 */
export function createPurchaseService(deps: PurchaseDeps) {
  const { db, cart, inventory, discounts, settings, gateway, log, customerInfo, totals: pricing, limits } = deps;
  const stockChanged = () => deps.onStockChanged?.();
  const clock = deps.clock ?? systemClock;

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
    await inventory.moveUnits(tx, released, new Map());
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
      const short = await inventory.moveUnits(tx, new Map(), new Map(quantitiesByProduct(checkout.lines)));
      if (short) {
        const name = checkout.lines.find((l) => l.productId === short)?.name ?? 'an item';
        throw new HoldLostError(name, stockMessages.justSoldOut(name));
      }
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
   * Prices the cart on the server, holds its stock and claims a limited code in one transaction,
   * then opens the gateway intent for exactly that amount. A previous open attempt of the session
   * is replaced (its units and code go back first), or reused when nothing changed. null: the reused
   * intent could not be paid any more and was released (createPaymentIntent tries again).
   */
  async function attemptPaymentIntent(
    sessionId: string,
    body: PaymentIntentBody,
    admitted?: AdmissionCheck,
  ): Promise<CreatePaymentIntentResult | null> {
    const lines = await cart.pricedLines(sessionId);
    if (lines.length === 0) throw badRequest(CHECKOUT_MESSAGES.emptyCart);
    // Inside a drop window the session needs its admission pass for the product (403 otherwise; ADR 010).
    const passed = (await admitted?.(lines.map((l) => l.productId))) ?? null;
    // A line whose product is not released yet (its release moved later after it was added) holds nothing;
    // released is the database's clock, and a valid admission pass is proof of it.
    const early = lines.find((l) => !passed?.has(l.productId) && !isReleased(l, clock.now()));
    if (early) throw conflict(releaseMessages.notYet(early.name, early.releaseAt!));
    await refuseWhenSoldOut(sessionId, lines);
    const info = await customerInfo.find(sessionId);
    if (!info) throw badRequest(CHECKOUT_MESSAGES.noCustomerInfo);
    const customer = toCheckoutCustomer(info);
    const method = resolveShippingMethod(info.shippingCountry, body.shippingMethod);
    const code = body.discountCode?.trim() ? normalizeDiscountCode(body.discountCode) : null;
    // Hold deadlines are the database's time, so any instance expires them alike.
    const now = new Date(clock.now());

    const outcome = await db.transaction(async (tx) => {
      // One attempt at a time per shopper (double clicks, two tabs).
      await tx.execute(sql`select pg_advisory_xact_lock(5050, hashtext(${sessionId}))`);
      const previous = await lockOpenCheckouts(tx, sessionId);

      let discount: { code: string; percent: number; limited: boolean } | null = null;
      if (code) {
        const row = await discounts.find(code, tx);
        const own = previous.filter((c) => c.discountClaimed && c.discountCode === code).length;
        const check = checkDiscountCode(row, now, own);
        if (!check.ok) throw discountError(check);
        discount = { code: check.code, percent: check.discountPercent, limited: isLimitedCode(row!) };
      }
      const totals = pricing.totalsFor(lines, method, discount);
      if (body.amount !== undefined && !amountMatches(body.amount, totals.total))
        throw conflict(CHECKOUT_MESSAGES.amountChanged);
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
        customer,
        shippingMethod: method,
        discountCode: discount?.code ?? null,
        amountCents: totals.total,
      });
      const reusable = previous.find(
        (c) =>
          c.paymentIntentId &&
          c.holdExpiresAt.getTime() - now.getTime() > 30_000 &&
          attemptSignature(c) === signature,
      );
      if (reusable) return { kind: 'reuse' as const, checkout: reusable, replaced: [] as CheckoutRow[] };

      const take = new Map(quantitiesByProduct(snapshot));
      const { released, codes } = await releaseCheckouts(tx, previous, 'cancelled', new Set(take.keys()));
      // No renewing a hold forever: a replacement keeps the earliest deadline of the session's open
      // holds on these products; one whose time has passed lapsed (the cooldown applies from it).
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
      const recordClaims = await limits.checkHold(tx, { sessionId, customer }, lines, now);
      const short = await inventory.moveUnits(tx, released, take);
      if (short) {
        const name = snapshot.find((l) => l.productId === short)?.name ?? 'this item';
        throw conflict(stockMessages.justSoldOut(name));
      }

      // A limited code is claimed once per attempt; a replaced attempt's usage of the same code carries over.
      const carried = discount?.limited ? codes.indexOf(discount.code) : -1;
      if (carried >= 0) codes.splice(carried, 1);
      const claim = discount?.limited && carried < 0 ? discount.code : null;
      const discountClaimed = Boolean(discount?.limited);
      // Code usages change in code order (like products in id order), so concurrent attempts never deadlock.
      const codeOps = [
        ...codes.map((c) => ({ code: c, claim: false })),
        ...(claim ? [{ code: claim, claim: true }] : []),
      ];
      for (const op of codeOps.sort((a, b) => (a.code < b.code ? -1 : 1))) {
        if (!op.claim) await discounts.release(tx, op.code);
        else if (!(await discounts.claim(tx, op.code))) throw conflict(DISCOUNT_MESSAGES.used);
      }

      const checkout = await insertCheckout(tx, {
        sessionId,
        lines: snapshot,
        customer,
        shippingMethod: method,
        subtotalCents: totals.subtotal,
        discountCode: discount?.code ?? null,
        discountAmountCents: totals.discountAmount,
        shippingCents: totals.shipping,
        taxCents: totals.tax,
        totalCents: totals.total,
        amountCents: totals.total,
        discountClaimed,
        holdExpiresAt,
      });
      await inventory.recordHolds(tx, checkout.id, take);
      await recordClaims(checkout.id);
      return { kind: 'new' as const, checkout, replaced: previous };
    });

    const { checkout } = outcome;
    if (outcome.kind === 'new') stockChanged();
    if (outcome.kind === 'reuse') {
      const intent = await gateway.retrieveIntent(checkout.paymentIntentId!);
      if (intent?.clientSecret && intent.status !== 'canceled' && intent.status !== 'succeeded') {
        return {
          clientSecret: intent.clientSecret,
          paymentIntentId: intent.id,
          amount: checkout.amountCents,
          holdExpiresAt: checkout.holdExpiresAt.toISOString(),
          provider: gateway.provider,
        };
      }
      // The reused intent cannot be paid any more: release it; the caller starts a fresh attempt.
      await releaseOne(checkout.id, 'cancelled');
      return null;
    }
    for (const old of outcome.replaced)
      if (old.paymentIntentId) void gateway.cancelIntent(old.paymentIntentId).catch(() => undefined);

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
    return {
      clientSecret: intent.clientSecret ?? '',
      paymentIntentId: intent.id,
      amount: checkout.amountCents,
      holdExpiresAt: checkout.holdExpiresAt.toISOString(),
      provider: gateway.provider,
    };
  }

  async function createPaymentIntent(
    sessionId: string | null,
    body: PaymentIntentBody,
    admitted?: AdmissionCheck,
  ): Promise<CreatePaymentIntentResult> {
    if (!sessionId) throw badRequest(CHECKOUT_MESSAGES.emptyCart);
    // A reused intent that can no longer be paid was released: the next attempt makes a new one.
    for (;;) {
      const result = await attemptPaymentIntent(sessionId, body, admitted);
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
          if (!row.paymentIntentId) return 'release' as const;
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

    /** Of these sessions, the ones that hold or bought the product (the waiting room's admission cap). */
    async sessionsHoldingOrBought(productId: string, sessionIds: readonly string[]): Promise<Set<string>> {
      return new Set(await findSessionsHoldingOrBought(db, productId, sessionIds));
    },

    findByIntent(intentId: string): Promise<CheckoutRow | null> {
      return findCheckoutByIntent(db, intentId);
    },

    /**
     * The paid checkout becomes its order, in one transaction owned here: the checkout is locked, its
     * hold settled (or, after expiry, the units and code taken again: HoldLostError when they are gone),
     * its units sold with their edition numbers, the order recorded by `order.record`, and the checkout
     * moved to fulfilled. A checkout fulfilled already gives `order.existing`; a refunded one throws
     * CheckoutRefundedError. The paying card joins the shopper's identities: over a product's limit with
     * it, OverLimitError (nothing written; the caller refunds).
     */
    async completePurchase<T>(
      checkoutId: string,
      order: OrderRecorder<T>,
      payment: { cardFingerprint?: string | null } = {},
    ): Promise<T> {
      return db.transaction(async (tx) => {
        const locked = await lockCheckout(tx, checkoutId);
        // Status and order change in one transaction: `fulfilled` means the order exists.
        if (locked?.status === 'fulfilled') {
          const again = await order.existing(tx);
          if (again) return again;
        }
        if (!locked || locked.status === 'refunded') throw new CheckoutRefundedError();
        if (!canFulfilCheckout(locked.status))
          throw new Error(`checkout ${locked.id} is ${locked.status} without an order`);

        const over = await limits.consumeForOrder(
          tx,
          { checkoutId: locked.id, sessionId: locked.sessionId, customer: locked.customer, lines: locked.lines },
          payment.cardFingerprint ?? null,
        );
        if (over) throw new OverLimitError(over.productName, over.message);
        await settleHold(tx, locked);
        const editions = await inventory.sell(tx, locked.lines);
        const made = await order.record(tx, locked, editions);
        await cart.clearInTransaction(tx, locked.sessionId);
        await transitionCheckout(tx, locked.id, 'fulfilled', { set: { paymentCheckAt: null } });
        return made;
      });
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
    async databaseNow(): Promise<Date> {
      const { rows } = await db.execute<{ ms: number }>(sql`select extract(epoch from now())::float8 * 1000 as ms`);
      return new Date(Math.ceil(Number(rows[0]!.ms)));
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
