import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client';
import type { Order } from '../../common/contracts/checkout';
import { AFTER_SALE_MESSAGES } from '../../common/contracts/after-sale';
import { isUuid } from '../../common/domain/ids';
import { HttpError } from '../lib/http-error';
import type { InventoryService } from '../modules/inventory/inventory.service';
import type { AfterSaleService, PiecesBack, RefundInHand } from '../modules/orders/after-sale.service';
import type { OrdersService } from '../modules/orders/orders.service';
import type { RefundDestination } from '../../common/domain/after-sale';
import type { StoreCreditService } from '../modules/store-credit/store-credit.service';
import { RefundRefusedError, type GatewayEvent, type PaymentGateway } from '../modules/payments/payment-gateway';

export interface RefundOrderDeps {
  db: Db;
  afterSale: AfterSaleService;
  orders: OrdersService;
  inventory: InventoryService;
  gateway: PaymentGateway;
  /** Refunds paid as store credit: granted in the refund's own transaction, no gateway call. */
  storeCredit: StoreCreditService;
  log: FastifyBaseLogger;
  /** Called after pieces came back: stock the catalogue shows moved. */
  onStockChanged?: () => void;
  /** Test-only (TEST_REFUND_PAUSE_FILE): between the provider's refund and the ledger write (the crash test's kill -9). */
  afterGatewayRefund?: (refundId: string) => Promise<void>;
}

/** The gateway's idempotency key of a refund record: one record, one refund at the provider, however often asked. */
export const refundKeyOf = (refundId: string) => `order-refund-${refundId}`;

/**
 * The crash test's pause (TEST_REFUND_PAUSE_FILE, refused in production): the refund's id written to `file` once
 * the provider refunded, then no answer ever, so the test kills the process with the ledger write still to come.
 */
export const pauseAfterGatewayRefund =
  (file: string) =>
  (refundId: string): Promise<void> => {
    fs.writeFileSync(file, refundId);
    return new Promise<void>(() => undefined);
  };

/**
 * Refund an order (docs/product.md "After the sale: cancel and refund"; ADR 021): money back to the card, the
 * record kept beside the order's status. Every refund, the owner's (a cancellation's or goodwill) or one the
 * provider tells of, goes through the same three named steps:
 *   1. requestRefund   — orders: the refund written `requested` in one transaction (the caller's), before any money moves
 *   2. refundAtGateway — payments: the provider refunds, with an idempotency key derived from the record
 *   3. settleRefund    — orders + inventory, ONE transaction: the record `succeeded` and its pieces given back
 *                        through inventory's one return step (same edition numbers; to the line in a drop
 *                        window, else to Notify me: inventory's onUnitsReturned)
 * A crash between 2 and 3 leaves the record `requested`: `reconcile` (job) finds the provider's refund by the
 * record's id and settles it once, or asks again with the same key.
 */
export function createRefundOrderFlow(deps: RefundOrderDeps) {
  const { db, afterSale, orders, inventory, log } = deps;

  /** Inside the caller's transaction: each piece back through inventory's one return step. */
  async function givePiecesBack(tx: Tx, pieces: readonly PiecesBack[], orderNumber: string): Promise<number> {
    let back = 0;
    for (const piece of pieces) {
      if (await inventory.returnSold(tx, piece)) back += piece.quantity;
      // Sold counts the shop no longer has (a product deleted, edited down): the money is back all the same.
      else log.warn({ orderNumber, productId: piece.productId }, 'cancelled pieces could not be put back on the shelf');
    }
    return back;
  }

  /** 2. The provider refunds (idempotent by the record). A refusal for good marks the record failed. */
  async function refundAtGateway(inHand: RefundInHand): Promise<{ gatewayRefundId: string } | 'failed'> {
    try {
      const made = await deps.gateway.refundPayment({
        intentId: inHand.order.stripePaymentIntentId,
        amountCents: inHand.refund.amountCents,
        idempotencyKey: refundKeyOf(inHand.refund.id),
        metadata: { refundId: inHand.refund.id, orderNumber: inHand.order.orderNumber },
      });
      return { gatewayRefundId: made.id };
    } catch (err) {
      if (err instanceof RefundRefusedError) {
        await afterSale.failRefund(inHand.refund.id);
        log.warn({ refundId: inHand.refund.id, reason: err.message }, 'the provider refused a refund');
        return 'failed';
      }
      throw err;
    }
  }

  /** 3. The record succeeded and its pieces back, together; once (false when it was settled already). */
  async function settleRefund(refundId: string, gatewayRefundId: string | null): Promise<boolean> {
    const settled = await db.transaction(async (tx) => {
      const inHand = await afterSale.settleRefund(tx, refundId, gatewayRefundId);
      if (!inHand) return null;
      const back = await givePiecesBack(tx, inHand.pieces, inHand.order.orderNumber);
      return { inHand, back };
    });
    if (!settled) return false;
    if (settled.back > 0) deps.onStockChanged?.();
    const { refund, order, lineNames } = settled.inHand;
    const kind = refund.reason !== 'cancellation' ? 'refunded' : order.status === 'cancelled' ? 'cancelled' : 'lines-cancelled';
    // A refund the provider made on its own is the owner's business with the buyer: no mail from the shop.
    if (refund.reason !== 'provider') orders.mailAfterSale(order, { kind, amountCents: refund.amountCents, lines: lineNames, destination: refund.destination === 'credit' ? 'credit' : 'card' });
    return true;
  }

  /**
   * A refund paid as store credit, in the transaction that wrote it (steps 2 and 3 at once, no gateway): the grant
   * (once per record, valid one year, to the buyer's folded mailbox) and the record `succeeded` with its pieces back.
   */
  async function settleAsCredit(tx: Tx, inHand: RefundInHand): Promise<{ back: number; settled: RefundInHand } | null> {
    const { refund, order } = inHand;
    await deps.storeCredit.grant(tx, {
      email: order.customerEmail,
      amountCents: refund.amountCents,
      source: refund.reason === 'cancellation' ? 'cancellation' : 'refund',
      reason: null,
      orderId: order.id,
      sourceRef: refund.id,
    });
    const settled = await afterSale.settleRefund(tx, refund.id, null);
    if (!settled) return null;
    return { back: await givePiecesBack(tx, settled.pieces, order.orderNumber), settled };
  }

  /** After a credit refund committed: stock moved, and the buyer is mailed the credit with balance and expiry. */
  async function tellCredit(done: { back: number; settled: RefundInHand } | null): Promise<void> {
    if (!done) return;
    if (done.back > 0) deps.onStockChanged?.();
    const { refund, order } = done.settled;
    await deps.storeCredit.tellGranted(order.customerEmail, refund.amountCents, order.orderNumber);
  }

  /** Steps 2 and 3 for a requested refund; a provider that could not be reached leaves it to reconciliation (502). */
  async function carryOut(inHand: RefundInHand): Promise<void> {
    let made: { gatewayRefundId: string } | 'failed';
    try {
      made = await refundAtGateway(inHand);
    } catch (err) {
      log.error({ err, refundId: inHand.refund.id }, 'refund: the provider could not be asked; reconciliation retries');
      throw new HttpError(502, AFTER_SALE_MESSAGES.gatewayPending);
    }
    if (made === 'failed') return;
    await deps.afterGatewayRefund?.(inHand.refund.id);
    await settleRefund(inHand.refund.id, made.gatewayRefundId);
  }

  async function answer(orderId: string): Promise<Order> {
    const order = await orders.getOrder(orderId);
    if (!order) throw new HttpError(404, 'Order not found');
    return order;
  }

  return {
    carryOut,
    settleRefund,
    settleAsCredit,
    tellCredit,
    givePiecesBack,
    answer,

    /** A goodwill refund (an amount, or what some lines cost): 1 in one transaction, then 2 and 3. */
    async refund(orderId: string, body: { amount?: number; itemIds?: readonly string[]; requestKey?: string; destination?: RefundDestination }): Promise<Order> {
      const { inHand, credited } = await db.transaction(async (tx) => {
        const { refund: inHand } = await afterSale.requestGoodwill(tx, orderId, body);
        const asCredit = inHand.refund.status === 'requested' && inHand.refund.destination === 'credit';
        return { inHand, credited: asCredit ? await settleAsCredit(tx, inHand) : null };
      });
      if (credited) await tellCredit(credited);
      else if (inHand.refund.status === 'requested') await carryOut(inHand);
      return answer(orderId);
    },

    /**
     * Background job: refunds requested more than `olderThanMs` ago and never settled (the shop stopped, or the
     * provider's answer was lost, between 2 and 3). The provider's refund carrying the record's id settles it;
     * none → asked again with the same key (the provider answers the first refund if it made one).
     */
    async reconcile(opts: { olderThanMs?: number } = {}): Promise<number> {
      const before = new Date(Date.now() - (opts.olderThanMs ?? 60_000));
      let settled = 0;
      for (const { refund, intentId } of await afterSale.staleRefunds(before)) {
        try {
          const known = (await deps.gateway.listRefunds(intentId)).find((r) => r.metadata.refundId === refund.id);
          if (known && (known.status === 'failed' || known.status === 'canceled')) {
            await afterSale.failRefund(refund.id);
            continue;
          }
          let gatewayRefundId = known?.id ?? null;
          if (!known) {
            const inHand = await afterSale.refundInHand(refund.id);
            if (!inHand) continue;
            const made = await refundAtGateway(inHand);
            if (made === 'failed') continue;
            gatewayRefundId = made.gatewayRefundId;
          }
          if (await settleRefund(refund.id, gatewayRefundId)) settled++;
        } catch (err) {
          log.error({ err, refundId: refund.id }, 'refund reconciliation failed; retried later');
        }
      }
      if (settled > 0) log.info({ settled }, 'reconciliation settled refunds');
      return settled;
    },

    /**
     * The provider says a payment was refunded (charge.refunded): each of its refunds is either one of the
     * shop's records (settled once, by its id in the metadata) or one made at the provider (recorded once).
     */
    async refunded(intentId: string): Promise<void> {
      const order = await afterSale.orderOfIntent(intentId);
      if (!order) return;
      for (const r of await deps.gateway.listRefunds(intentId)) {
        if (r.status !== 'succeeded' && r.status !== 'pending') continue;
        // Another system's refunds on the same account may carry a refundId too: only a record id is ours.
        const ours = isUuid(r.metadata.refundId) ? r.metadata.refundId : null;
        if (ours) await settleRefund(ours, r.id);
        else await afterSale.recordProviderRefund(order.id, r.id, r.amount);
      }
    },

    /** A card dispute opened or closed at the provider: recorded on the order (open: held from the pick list). */
    async disputed(intentId: string, dispute: NonNullable<GatewayEvent['dispute']>): Promise<void> {
      const order = await afterSale.orderOfIntent(intentId);
      if (!order) return;
      await afterSale.recordDispute(order.id, { id: dispute.id, amountCents: dispute.amount, reason: dispute.reason, providerStatus: dispute.status });
    },

  };
}

export type RefundOrderFlow = ReturnType<typeof createRefundOrderFlow>;
