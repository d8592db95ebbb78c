import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import type {
  CreatePaymentIntentResult,
  CustomerInfo,
  CustomerInfoBody,
  DiscountResult,
  Totals,
} from '../../../common/contracts/checkout';
import type { ShippingMethod } from '../../../common/contracts/settings';
import {
  checkDiscountCode,
  DISCOUNT_MESSAGES,
  isLimitedCode,
  normalizeDiscountCode,
  type DiscountCheck,
} from '../../../common/domain/discount';
import { formatMoney } from '../../../common/domain/money';
import { checkoutHoldsStock } from '../../../common/domain/checkout-lifecycle';
import { amountMatches, computeTotals, totalsToWire, type TotalsCents } from '../../../common/domain/pricing';
import { resolveShippingMethod } from '../../../common/domain/shipping';
import { quantitiesByProduct, stockMessages } from '../../../common/domain/stock';
import { badRequest, conflict, HttpError, notFound } from '../../plugins/http-error';
import type { CartService, PricedCartLine } from '../cart/cart.service';
import type { DiscountsService } from '../discounts/discounts.service';
import type { InventoryService } from '../inventory/inventory.service';
import type { PaymentGateway } from '../payments/payment-gateway';
import type { SettingsService } from '../settings/settings.service';
import {
  countOwnClaims,
  findCheckoutByIntent,
  findCustomerInfo,
  insertCheckout,
  deferPaymentChecks,
  listDuePaymentChecks,
  listExpiredOpenCheckouts,
  listOpenCheckoutIds,
  moveCustomerInfo,
  lockCheckout,
  lockOpenCheckouts,
  setCheckoutIntent,
  setPaymentCheck,
  transitionCheckout,
  upsertCustomerInfo,
  type CheckoutRow,
  type CustomerInfoRow,
  type PaymentCheck,
} from './checkout.repository';
import type { CheckoutCustomer, CheckoutLine } from './checkout.tables';
import { publicSessionRef } from '../session/session-ref';
import { mapLimit } from '../../lib/map-limit';

export type { CheckoutRow, PaymentCheck };

/** Gateway states in which the money is, or may still become, the shop's: such a hold is never released. */
const PAID_OR_PAYING = new Set(['succeeded', 'processing', 'requires_capture']);

export const CHECKOUT_MESSAGES = {
  emptyCart: 'Your cart is empty',
  noCustomerInfo: 'Please enter your shipping information first',
  amountChanged: 'Your cart changed; please review the total',
  nothingToPay: 'The total must be above $0.00 to pay by card',
  paymentInitFailed: 'Failed to initialize payment. Please try again.',
} as const;

/** A hold could not be (re)taken: the units or the code went to someone else. */
export class HoldLostError extends Error {
  constructor(
    readonly productName: string | null,
    message: string,
  ) {
    super(message);
  }
}

function toCustomerInfo(row: CustomerInfoRow): CustomerInfo {
  return {
    id: row.id,
    sessionId: publicSessionRef(row.sessionId),
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    shippingAddress: row.shippingAddress,
    shippingCity: row.shippingCity,
    shippingState: row.shippingState,
    shippingZip: row.shippingZip,
    shippingCountry: row.shippingCountry,
  };
}

function toCheckoutCustomer(row: CustomerInfoRow): CheckoutCustomer {
  const {
    email,
    firstName,
    lastName,
    phone,
    shippingAddress,
    shippingCity,
    shippingState,
    shippingZip,
    shippingCountry,
  } = row;
  return {
    email,
    firstName,
    lastName,
    phone,
    shippingAddress,
    shippingCity,
    shippingState,
    shippingZip,
    shippingCountry,
  };
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

const discountError = (check: Extract<DiscountCheck, { ok: false }>) =>
  check.reason === 'used' ? conflict(check.message) : badRequest(check.message);

interface CheckoutDeps {
  db: Db;
  cart: CartService;
  inventory: InventoryService;
  discounts: DiscountsService;
  settings: SettingsService;
  gateway: PaymentGateway;
  log: FastifyBaseLogger;
  /** Called after a commit that moved stock (the catalogue shown to shoppers must follow at once). */
  onStockChanged?: () => void;
}

export function createCheckoutService(deps: CheckoutDeps) {
  const { db, cart, inventory, discounts, settings, gateway, log } = deps;
  const stockChanged = () => deps.onStockChanged?.();

  function totalsFor(
    lines: readonly PricedCartLine[],
    method: ShippingMethod,
    discount: { code: string; percent: number } | null,
  ): TotalsCents {
    return computeTotals({
      lines,
      discount,
      shippingMethod: method,
      shippingRateCents: settings.rate(method).cents,
      freeShippingThresholdCents: settings.freeShippingThresholdCents,
      taxRate: settings.taxRate,
    });
  }

  /** Usages of `code` this session already holds through its open checkouts. */
  async function ownClaims(sessionId: string | null, code: string): Promise<number> {
    return sessionId ? countOwnClaims(db, sessionId, code) : 0;
  }

  async function checkCode(sessionId: string | null, raw: string): Promise<DiscountCheck> {
    const code = normalizeDiscountCode(raw);
    const row = await discounts.find(code);
    return checkDiscountCode(
      row,
      new Date(),
      row && isLimitedCode(row) ? await ownClaims(sessionId, code) : 0,
    );
  }

  /** Gives back what open checkouts hold: their units (returned as a per-product map) and code usages. */
  async function releaseCheckouts(tx: Tx, rows: readonly CheckoutRow[], to: 'cancelled' | 'expired') {
    const codes: string[] = [];
    const ids: string[] = [];
    for (const row of rows) {
      if (!(await transitionCheckout(tx, row.id, to, { from: ['open'], set: { discountClaimed: false } }))) continue;
      ids.push(row.id);
      if (row.discountClaimed && row.discountCode) codes.push(row.discountCode);
    }
    const released = await inventory.releaseHolds(tx, ids);
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
   * Prices the cart on the server, holds its stock and claims a limited code in one transaction,
   * then opens the gateway intent for exactly that amount. A previous open attempt of the session
   * is replaced (its units and code go back first), or reused when nothing changed.
   */
  async function createPaymentIntent(
    sessionId: string | null,
    body: { amount?: number; discountCode?: string | null; shippingMethod?: ShippingMethod },
  ): Promise<CreatePaymentIntentResult> {
    if (!sessionId) throw badRequest(CHECKOUT_MESSAGES.emptyCart);
    const lines = await cart.pricedLines(sessionId);
    if (lines.length === 0) throw badRequest(CHECKOUT_MESSAGES.emptyCart);
    await refuseWhenSoldOut(sessionId, lines);
    const info = await findCustomerInfo(db, sessionId);
    if (!info) throw badRequest(CHECKOUT_MESSAGES.noCustomerInfo);
    const customer = toCheckoutCustomer(info);
    const method = resolveShippingMethod(info.shippingCountry, body.shippingMethod);
    const code = body.discountCode?.trim() ? normalizeDiscountCode(body.discountCode) : null;
    const now = new Date();

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
      const totals = totalsFor(lines, method, discount);
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

      const { released, codes } = await releaseCheckouts(tx, previous, 'cancelled');
      const take = new Map(quantitiesByProduct(snapshot));
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
        subtotal: formatMoney(totals.subtotal),
        discountCode: discount?.code ?? null,
        discountAmount: formatMoney(totals.discountAmount),
        shipping: formatMoney(totals.shipping),
        tax: formatMoney(totals.tax),
        total: formatMoney(totals.total),
        amountCents: totals.total,
        discountClaimed,
        holdExpiresAt: new Date(now.getTime() + settings.holdMinutes * 60_000),
      });
      await inventory.recordHolds(tx, checkout.id, take);
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
      // The reused intent cannot be paid any more: start a fresh attempt.
      await releaseOne(checkout.id, 'cancelled');
      return createPaymentIntent(sessionId, body);
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

  return {
    // ---- customer info ------------------------------------------------------------------------
    async getCustomerInfo(sessionId: string | null): Promise<CustomerInfo | null> {
      if (!sessionId) return null;
      const row = await findCustomerInfo(db, sessionId);
      return row ? toCustomerInfo(row) : null;
    },

    async saveCustomerInfo(sessionId: string, body: CustomerInfoBody): Promise<CustomerInfo> {
      return toCustomerInfo(await upsertCustomerInfo(db, sessionId, body));
    },

    /** The session id changed (admin login): the saved details follow, inside the caller's transaction. */
    moveCustomerInfo(tx: Tx, fromSid: string, toSid: string): Promise<void> {
      return moveCustomerInfo(tx, fromSid, toSid);
    },

    // ---- discount -----------------------------------------------------------------------------
    async validateDiscount(sessionId: string | null, code: string): Promise<DiscountResult> {
      const check = await checkCode(sessionId, code);
      if (!check.ok) throw check.reason === 'invalid' ? notFound(check.message) : badRequest(check.message);
      return { code: check.code, discountPercent: check.discountPercent };
    },

    // ---- totals -------------------------------------------------------------------------------
    /**
     * The summary from the session's cart. A code that no longer applies is left out
     * (discountCode null) rather than failing the summary; paying with it is refused.
     */
    async calculateTotals(
      sessionId: string | null,
      body: { discountCode?: string | null; shippingMethod?: ShippingMethod },
    ): Promise<Totals> {
      const lines = sessionId ? await cart.pricedLines(sessionId) : [];
      if (lines.length === 0) throw badRequest(CHECKOUT_MESSAGES.emptyCart);
      const info = sessionId ? await findCustomerInfo(db, sessionId) : null;
      const method = resolveShippingMethod(info?.shippingCountry, body.shippingMethod);
      let discount: { code: string; percent: number } | null = null;
      if (body.discountCode?.trim()) {
        const check = await checkCode(sessionId, body.discountCode);
        if (check.ok) discount = { code: check.code, percent: check.discountPercent };
      }
      return totalsToWire(totalsFor(lines, method, discount));
    },

    createPaymentIntent,

    /**
     * Background job: holds past their time go back to stock (and their code usages back to the code).
     * The gateway is asked first: a hold whose payment succeeded (or is still processing) is kept and
     * handed to reconciliation, so a paid piece is never released and resold under its buyer. When the
     * gateway cannot be asked, the hold is kept until it can.
     */
    async releaseExpiredHolds(now = new Date()): Promise<number> {
      let total = 0;
      let kept = 0;
      let cursor: { holdExpiresAt: Date; id: string } | null = null;
      for (;;) {
        const rows = await listExpiredOpenCheckouts(db, now, 100, cursor);
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

    // ---- fulfilment support (called by the orders module inside its transaction) -------------
    findByIntent(intentId: string): Promise<CheckoutRow | null> {
      return findCheckoutByIntent(db, intentId);
    },

    lockForUpdate(tx: Tx, id: string): Promise<CheckoutRow | null> {
      return lockCheckout(tx, id);
    },

    /**
     * Turns the checkout's hold into sold units: consumes a live hold, or — when it expired and was
     * released — takes the units (and a limited code's usage) again, all or nothing.
     */
    async settleHold(tx: Tx, checkout: CheckoutRow): Promise<void> {
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
    },

    /** Edition numbers for each line, in line order ("No. 17 of 50"): sold_count moves with the sale. */
    assignEditionNumbers(tx: Tx, lines: readonly CheckoutLine[]): Promise<Array<{ numbers: number[]; editionSize: number }>> {
      return inventory.sell(tx, lines);
    },

    async markFulfilled(tx: Tx, id: string): Promise<void> {
      await transitionCheckout(tx, id, 'fulfilled', { set: { paymentCheckAt: null } });
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

export type CheckoutService = ReturnType<typeof createCheckoutService>;
