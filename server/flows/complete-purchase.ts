import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { Order } from '../../common/contracts/checkout';
import { HttpError, notFound } from '../lib/http-error';
import type { CartService } from '../modules/cart/cart.service';
import type { CheckoutRow, CheckoutService } from '../modules/checkout/checkout.service';
import { CheckoutRefundedError, HoldLostError, OverLimitError } from '../modules/checkout/purchase.service';
import type { InventoryService } from '../modules/inventory/inventory.service';
import type { Mailer, MailMessage } from '../lib/mailer';
import type { OrdersService } from '../modules/orders/orders.service';
import { renderRefundNotice, withSupport } from '../modules/orders/order-email';
import type { GatewayIntent, PaymentGateway } from '../modules/payments/payment-gateway';
import type { PurchaseLimitsService } from '../modules/purchase-limits/purchase-limits.service';
import type { SettingsService } from '../modules/settings/settings.service';
import type { StoreCreditService } from '../modules/store-credit/store-credit.service';
import { isCreditOnlyIntent } from '../../common/domain/store-credit';
import { mapLimit } from '../lib/map-limit';

export type FulfilResult =
  | { kind: 'ok'; orderNumber: string; created: boolean }
  | { kind: 'not_found' }
  | { kind: 'unpaid'; status: string }
  | { kind: 'mismatch' }
  | { kind: 'refunded'; message: string };

export const FULFIL_MESSAGES = {
  notFound: 'Payment not found',
  unpaid: 'Payment has not been completed',
  mismatch: 'Your payment does not match your order. Please contact support.',
  refunded: (what: string | null) =>
    `Sorry, ${what ? `${what} sold out` : 'your order could not be completed'} before your payment went through. Your payment has been refunded.`,
} as const;

interface FulfilmentDeps {
  db: Db;
  gateway: PaymentGateway;
  checkout: CheckoutService;
  orders: OrdersService;
  cart: CartService;
  inventory: InventoryService;
  limits: PurchaseLimitsService;
  mailer: Mailer;
  settings: SettingsService;
  log: FastifyBaseLogger;
  /** Called after an order commits: its sale moved stock and sold counts the catalogue shows. */
  onStockChanged?: () => void;
  /** Whether any of these products is a limited drop (its order ships a day later, common/domain/ship-by.ts). */
  isLimitedDrop?: (productIds: string[]) => Promise<boolean>;
  /** Store credit the checkout held is spent with the order, in its transaction (docs/product.md §2.15). */
  storeCredit?: Pick<StoreCreditService, 'spend'>;
}

/**
 * Complete purchase (docs/architecture.md, Flows): fulfil(intentId) is the ONE way a paid intent becomes
 * an order, called by payment-success, the offline gateway's success event, the Stripe webhook and the
 * reconciliation job. Idempotent: an intent makes at most one order (UNIQUE on the intent id, and the
 * checkout row is locked while it is made). Checkout asks, orders records: the order's transaction is
 * this flow's `completeInTransaction`, one named step after the other.
 */
export function createCompletePurchaseFlow(deps: FulfilmentDeps) {
  const { db, gateway, checkout, orders, cart, inventory, limits, mailer, settings, log } = deps;
  const pendingMail = new Set<Promise<void>>();

  /** The checkout of an intent with its order number when it already has an order (two reads at once). */
  async function intentState(intentId: string): Promise<{ checkout: CheckoutRow; orderNumber: string | null } | null> {
    const [co, orderNumber] = await Promise.all([checkout.findByIntent(intentId), orders.orderNumberOf(intentId)]);
    return co ? { checkout: co, orderNumber } : null;
  }

  /**
   * The order's ONE transaction, step by step: everything below commits together or not at all.
   *   1. lockCheckout      — checkout: locked; fulfilled → the order made then; refunded → CheckoutRefundedError
   *   2. consumeLimits     — purchase-limits: the card joins the shopper's identities (OverLimitError: refund)
   *   3. settleHold        — checkout: the hold becomes sold units (HoldLostError when they went to someone else)
   *   4. sellUnits         — inventory: units sold, edition numbers given
   *   5. recordOrder       — orders: the order and its lines
   *   6. clearCart         — cart: the paid cart emptied
   *   7. markFulfilled     — checkout: fulfilled (its order exists)
   */
  function completeInTransaction(
    checkoutId: string,
    intentId: string,
    cardFingerprint: string | null,
    limitedDrop: boolean,
  ): Promise<{ order: Order; created: boolean }> {
    return db.transaction(async (tx) => {
      const locked = await checkout.lockForOrder(tx, checkoutId);
      if (locked.kind === 'fulfilled') {
        const again = await orders.existingInTransaction(tx, intentId);
        if (again) return { order: again, created: false };
      }
      const paid = locked.checkout;
      const over = await limits.consumeForOrder(
        tx,
        { checkoutId: paid.id, sessionId: paid.sessionId, customer: paid.customer, lines: paid.lines },
        cardFingerprint,
      );
      if (over) throw new OverLimitError(over.productName, over.message);
      await checkout.settleHold(tx, paid);
      const editions = await inventory.sell(tx, paid.lines, paid.id);
      // The offline gateway never takes money: its orders are test orders, marked wherever they show.
      const order = await orders.record(tx, paid, intentId, editions, { isTest: gateway.provider === 'offline', limitedDrop });
      await deps.storeCredit?.spend(tx, paid.id, order.id);
      await cart.clearInTransaction(tx, paid.sessionId);
      await checkout.markFulfilled(tx, paid.id);
      return { order, created: true };
    });
  }

  /** Resolves once the mailer keeps the message on disk (the relay may take it much later). */
  function sendLater(message: MailMessage, context: Record<string, unknown>): Promise<void> {
    // The order is committed already: a mail failure is logged, never undoes it.
    const p = mailer
      .send(message)
      .catch((err: unknown) => log.error({ err, ...context }, 'sending mail failed'))
      .finally(() => pendingMail.delete(p));
    pendingMail.add(p);
    return p;
  }

  function refundedWhat(co: CheckoutRow): string | null {
    return co.lines.length === 1 ? co.lines[0]!.name : null;
  }

  async function refundLatePayment(
    co: CheckoutRow,
    intentId: string,
    err: HoldLostError,
  ): Promise<FulfilResult> {
    log.warn({ intentId, checkoutId: co.id, reason: err.message }, 'paid after the hold was lost: refunding');
    await gateway.refund(intentId);
    if (await checkout.markRefunded(co.id)) {
      sendLater(
        // Every order mail names support (order-email.ts withSupport).
        withSupport(
          renderRefundNotice({
            to: co.customer.email,
            firstName: co.customer.firstName,
            amountCents: co.amountCents,
            productName: err.productName,
            shopName: orders.mailBrand,
            reason: err instanceof OverLimitError ? err.message : null,
          }),
          settings.publicSettings.supportEmail,
        ),
        { intentId },
      );
    }
    return { kind: 'refunded', message: refundMessage(err) };
  }

  /** What a shopper asking about a refunded checkout is told: its limit, or that it sold out. */
  async function refundedMessage(co: CheckoutRow, intentId: string, known?: GatewayIntent): Promise<string> {
    const intent = known?.id === intentId ? known : await gateway.retrieveIntent(intentId).catch(() => null);
    const limit = await checkout.limitRefusal(co, intent?.cardFingerprint ?? null);
    return limit ? `${limit} Your payment has been refunded.` : FULFIL_MESSAGES.refunded(refundedWhat(co));
  }

  /** A limit names itself ('You can buy at most 2 of P per shopper. …'); a lost hold says it sold out. */
  function refundMessage(err: HoldLostError): string {
    return err instanceof OverLimitError
      ? `${err.message} Your payment has been refunded.`
      : FULFIL_MESSAGES.refunded(err.productName);
  }

  /**
   * `known` lets a trusted caller skip reads it has just made: the gateway's own success event passes the
   * intent, payment-success passes the state it checked ownership with.
   */
  async function fulfil(
    intentId: string,
    known: { intent?: GatewayIntent; state?: { checkout: CheckoutRow; orderNumber: string | null } } = {},
  ): Promise<FulfilResult> {
    const state = known.state ?? (await intentState(intentId));
    if (!state) return { kind: 'not_found' };
    if (state.orderNumber) return { kind: 'ok', orderNumber: state.orderNumber, created: false };
    const co = state.checkout;
    if (co.status === 'refunded') return { kind: 'refunded', message: await refundedMessage(co, intentId, known.intent) };
    // Paid wholly by store credit: no gateway holds this payment, the credit held is the payment.
    const byCredit = isCreditOnlyIntent(intentId);
    const intent: GatewayIntent | null = byCredit
      ? { id: intentId, clientSecret: null, status: 'succeeded', amount: 0, metadata: {}, cardFingerprint: null }
      : known.intent?.id === intentId ? known.intent : await gateway.retrieveIntent(intentId);
    if (!intent) return { kind: 'not_found' };
    if (intent.status !== 'succeeded') return { kind: 'unpaid', status: intent.status };
    if (intent.amount !== co.amountCents) {
      log.error(
        { intentId, paid: intent.amount, expected: co.amountCents },
        'paid amount differs from the checkout',
      );
      return { kind: 'mismatch' };
    }

    let made: { order: Order; created: boolean };
    try {
      // Read before the transaction (the catalogue's snapshot): no lock waits on it.
      const limitedDrop = (await deps.isLimitedDrop?.(co.lines.map((l) => l.productId))) ?? false;
      made = await completeInTransaction(co.id, intentId, intent.cardFingerprint ?? null, limitedDrop);
    } catch (err) {
      if (err instanceof HoldLostError) return refundLatePayment(co, intentId, err);
      if (err instanceof CheckoutRefundedError)
        return { kind: 'refunded', message: await refundedMessage(co, intentId, intent) };
      throw err;
    }

    if (made.created) {
      deps.onStockChanged?.();
      // Kept on disk before the order's answer: a stop or a hanging relay cannot lose it (docs/operations.md "Mail").
      await sendLater(orders.confirmationMail(made.order), {
        orderNumber: made.order.orderNumber,
      });
    }
    return { kind: 'ok', orderNumber: made.order.orderNumber, created: made.created };
  }

  return {
    fulfil,

    /** POST /api/payment-success: only the session that paid may ask, and only for its own intent. */
    async fulfilForSession(sessionId: string | null, intentId: string): Promise<{ orderNumber: string }> {
      const state = sessionId ? await intentState(intentId) : null;
      if (!state || state.checkout.sessionId !== sessionId) throw notFound(FULFIL_MESSAGES.notFound);
      const result = await fulfil(intentId, { state });
      switch (result.kind) {
        case 'ok':
          return { orderNumber: result.orderNumber };
        case 'not_found':
          throw notFound(FULFIL_MESSAGES.notFound);
        case 'unpaid':
          throw new HttpError(402, FULFIL_MESSAGES.unpaid);
        case 'mismatch':
          throw new HttpError(409, FULFIL_MESSAGES.mismatch);
        case 'refunded':
          throw new HttpError(409, result.message);
      }
    },

    /**
     * Background job: paid intents whose order was never made (tab closed, lost webhook, an instance
     * killed mid-drop). Every checkout whose intent may be paid without an order and is due for a look is
     * asked about, however many there are, by payment state (never a window of the newest N): paid →
     * order (or refund); canceled or unknown → settled; unpaid → asked again later (back-off by age);
     * abandoned for `closeAfterMs` after its hold ended → its intent is canceled at the gateway, then settled.
     */
    async reconcile(opts: { olderThanMs?: number; closeAfterMs?: number } = {}): Promise<number> {
      // The database's clock: check times and creation times were written by it (instances may drift).
      const startedAt = await checkout.databaseNow();
      // 30 s gives the browser's own payment-success call its chance first (both are idempotent anyway).
      const createdBefore = new Date(startedAt.getTime() - (opts.olderThanMs ?? 30_000));
      const closeBefore = startedAt.getTime() - (opts.closeAfterMs ?? 24 * 60 * 60 * 1000);
      let made = 0;
      let checked = 0;
      for (;;) {
        const due = await checkout.listDuePayments({ now: startedAt, createdBefore, limit: 100 });
        if (due.length === 0) break;
        checked += due.length;
        const intents = await mapLimit(due, 5, (c) =>
          gateway.retrieveIntent(c.intentId).then(
            (intent) => ({ ok: true as const, intent }),
            (err: unknown) => ({ ok: false as const, err }),
          ),
        );
        for (const [i, c] of due.entries()) {
          const looked = intents[i]!;
          try {
            if (!looked.ok) throw looked.err;
            let intent = looked.intent;
            if (
              intent &&
              c.status !== 'open' &&
              c.holdExpiresAt.getTime() < closeBefore &&
              intent.status !== 'succeeded' &&
              intent.status !== 'processing' &&
              intent.status !== 'canceled'
            ) {
              // Abandoned long ago: make sure it can never be paid, then stop asking.
              await gateway.cancelIntent(c.intentId);
              intent = await gateway.retrieveIntent(c.intentId);
            }
            if (!intent || intent.status === 'canceled') {
              await checkout.settlePayment(c.id);
            } else if (intent.status === 'succeeded') {
              const result = await fulfil(c.intentId, { intent });
              if (result.kind === 'ok' && result.created) made++;
            }
          } catch (err) {
            log.error({ err, checkoutId: c.id }, 'reconciliation: checking a payment failed; retried later');
          }
        }
        // Whatever is still unsettled (unpaid, failed, mismatched) comes back later: the loop always ends.
        await checkout.deferPaymentChecks(
          due.map((c) => c.id),
          startedAt,
        );
      }
      if (made > 0) log.info({ made, checked }, 'reconciliation made orders for paid intents');
      return made;
    },

    /** Waits for confirmation e-mails still being sent (shutdown, tests). */
    async drain(): Promise<void> {
      await Promise.allSettled([...pendingMail]);
    },
  };
}

export type CompletePurchaseFlow = ReturnType<typeof createCompletePurchaseFlow>;
