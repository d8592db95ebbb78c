import type { Db, Tx } from '../../db/client';
import type { DisputeRecord, RefundRecord } from '../../../common/contracts/after-sale';
import { AFTER_SALE_MESSAGES } from '../../../common/contracts/after-sale';
import {
  disputeStatusOf,
  isCancellable,
  isRefundPending,
  linesRefundCents,
  refundableCents,
  type DisputeStatus,
  type RefundDestination,
  type RefundReason,
  type RefundStatus,
} from '../../../common/domain/after-sale';
import { formatMoney } from '../../../common/domain/money';
import { HttpError, notFound } from '../../lib/http-error';
import {
  cancelItems,
  closeDispute,
  findRefund,
  findRefundByKey,
  insertDispute,
  insertProviderRefund,
  insertRefund,
  listDisputesOf,
  givenBackOf,
  listRefundsOf,
  listStaleRefunds,
  lockOrder,
  markRefundFailed,
  markRefundSucceeded,
  setCancelled,
  type DisputeRow,
  type RefundRow,
} from './after-sale.repository';
import { findOrderById, findOrderByIntent, listItemsOf, type OrderItemRow, type OrderRow } from './orders.repository';
import type { RefundedPiece } from './orders.tables';

/** A piece going back to stock, as inventory's one return step takes it (`returnSold`). */
export interface PiecesBack {
  productId: string;
  quantity: number;
  editionNumbers: number[];
  size: string | null;
  colour: string | null;
  checkoutId: string | null;
}

/** What a refund step hands the flow: the record, its order, and the pieces to give back with it. */
export interface RefundInHand {
  refund: RefundRow;
  order: OrderRow;
  pieces: PiecesBack[];
  /** Names of the lines cancelled with it (the buyer's mail). */
  lineNames: string[];
}

export function toRefundRecord(r: RefundRow): RefundRecord {
  return {
    id: r.id,
    amount: formatMoney(r.amountCents),
    status: r.status as RefundStatus,
    reason: r.reason as RefundReason,
    destination: r.destination as RefundDestination,
    createdAt: r.createdAt.toISOString(),
  };
}

export function toDisputeRecord(d: DisputeRow): DisputeRecord {
  return {
    amount: formatMoney(d.amountCents),
    reason: d.reason,
    status: d.status as DisputeStatus,
    openedAt: d.openedAt.toISOString(),
    closedAt: d.closedAt?.toISOString() ?? null,
  };
}

const bad = (message: string) => new HttpError(400, message);

/**
 * The orders module's side of after-sale (ADR 021): refunds and disputes are records of their own beside the
 * six order statuses. Cancel and refund are flows (server/flows/refund-order.ts): this module writes the
 * records in the flow's transactions; inventory gives the pieces back, the gateway moves the money.
 */
export function createAfterSaleService(deps: { db: Db }) {
  const { db } = deps;

  function piecesOf(order: OrderRow, items: readonly OrderItemRow[], pieces: readonly RefundedPiece[]): PiecesBack[] {
    const byId = new Map(items.map((i) => [i.id, i]));
    const back: PiecesBack[] = [];
    for (const p of pieces) {
      const item = byId.get(p.orderItemId);
      // A deleted product keeps its order lines (productId null): nothing to put back on a shelf.
      if (!item?.productId || p.editionNumbers.length === 0) continue;
      back.push({
        productId: item.productId,
        quantity: p.editionNumbers.length,
        editionNumbers: [...p.editionNumbers],
        size: item.selectedSize,
        colour: item.selectedColor,
        checkoutId: order.checkoutId,
      });
    }
    return back;
  }

  function names(items: readonly OrderItemRow[], pieces: readonly RefundedPiece[]): string[] {
    const ids = new Set(pieces.map((p) => p.orderItemId));
    return items.filter((i) => ids.has(i.id)).map((i) => i.productName);
  }

  async function locked(tx: Tx, orderId: string): Promise<OrderRow> {
    const order = await lockOrder(tx, orderId);
    if (!order) throw notFound('Order not found');
    return order;
  }

  return {
    /** Refunds and disputes of these orders, oldest first (the admin's list, the buyer's page). */
    async recordsOf(orderIds: readonly string[]): Promise<{ refunds: Map<string, RefundRow[]>; disputes: Map<string, DisputeRow[]> }> {
      const [refunds, disputes] = await Promise.all([listRefundsOf(db, orderIds), listDisputesOf(db, orderIds)]);
      const group = <T extends { orderId: string }>(rows: T[]) => {
        const m = new Map<string, T[]>();
        for (const r of rows) m.set(r.orderId, [...(m.get(r.orderId) ?? []), r]);
        return m;
      };
      return { refunds: group(refunds), disputes: group(disputes) };
    },

    /**
     * Cancel, in the flow's first transaction: the order row locked (a "shipped" change waits, or has won:
     * 409), the chosen lines cancelled (every line: the order's status becomes cancelled), and the refund
     * written `requested` with the pieces it gives back. Cancelling lines already cancelled changes nothing
     * (a retried request); `pending` lists this order's cancellation refunds the gateway has not confirmed yet.
     * With nothing left to refund the pieces come back at once: `now` lists them, for this transaction.
     */
    async requestCancellation(
      tx: Tx,
      orderId: string,
      body: { itemIds?: readonly string[]; requestKey?: string; destination?: RefundDestination },
    ): Promise<{ refund: RefundInHand | null; now: PiecesBack[]; pending: string[] }> {
      const order = await locked(tx, orderId);
      const [items, refunds] = await Promise.all([listItemsOf(tx, [orderId]), listRefundsOf(tx, [orderId])]);
      const pending = refunds.filter((r) => isRefundPending(r.status) && r.reason === 'cancellation').map((r) => r.id);
      if (body.itemIds) {
        if (body.itemIds.length === 0) throw bad(AFTER_SALE_MESSAGES.noLines);
        if (body.itemIds.some((id) => !items.some((i) => i.id === id))) throw bad(AFTER_SALE_MESSAGES.unknownLine);
      }
      const live = items.filter((i) => !i.cancelledAt);
      const chosen = live.filter((i) => !body.itemIds || body.itemIds.includes(i.id));
      if (chosen.length === 0) return { refund: null, now: [], pending };
      if (!isCancellable(order.status)) throw new HttpError(409, AFTER_SALE_MESSAGES.shipped);
      // What credit paid never goes to a card (docs/product.md §2.15): such an order is refunded as credit.
      if (order.storeCreditCents > 0 && body.destination !== 'credit') throw bad(AFTER_SALE_MESSAGES.paidWithCredit);
      await cancelItems(
        tx,
        orderId,
        chosen.map((i) => i.id),
      );
      const whole = chosen.length === live.length;
      if (whole) await setCancelled(tx, orderId);
      const left = refundableCents(order.totalCents, await givenBackOf(tx, orderId));
      // The last lines take what is left (shipping too); earlier ones what was paid for them.
      const amountCents = whole
        ? left
        : Math.min(left, linesRefundCents(order, chosen.map((i) => ({ unitPriceCents: i.productPriceCents, quantity: i.quantity }))));
      const pieces: RefundedPiece[] = chosen.map((i) => ({ orderItemId: i.id, editionNumbers: [...i.editionNumbers] }));
      if (amountCents <= 0) return { refund: null, now: piecesOf(order, items, pieces), pending };
      const refund = await insertRefund(tx, { orderId, amountCents, reason: 'cancellation', pieces, requestKey: body.requestKey ?? null, destination: body.destination });
      return { refund: { refund, order, pieces: [], lineNames: names(items, pieces) }, now: [], pending };
    },

    /**
     * A goodwill refund, in the flow's first transaction: an amount, or what was paid for some lines (the
     * pieces stay with the buyer), never above what is left (400). A retried request (its key) gets its refund.
     */
    async requestGoodwill(
      tx: Tx,
      orderId: string,
      body: { amount?: number; itemIds?: readonly string[]; requestKey?: string; destination?: RefundDestination },
    ): Promise<{ refund: RefundInHand; again: boolean }> {
      const order = await locked(tx, orderId);
      if (body.requestKey) {
        const again = await findRefundByKey(tx, orderId, body.requestKey);
        if (again) return { refund: { refund: again, order, pieces: [], lineNames: [] }, again: true };
      }
      const items = await listItemsOf(tx, [orderId]);
      let amountCents = body.amount ?? 0;
      if (body.itemIds) {
        if (body.itemIds.some((id) => !items.some((i) => i.id === id))) throw bad(AFTER_SALE_MESSAGES.unknownLine);
        const lines = items.filter((i) => body.itemIds!.includes(i.id));
        amountCents = linesRefundCents(order, lines.map((i) => ({ unitPriceCents: i.productPriceCents, quantity: i.quantity })));
      }
      const left = refundableCents(order.totalCents, await givenBackOf(tx, orderId));
      if (left <= 0) throw bad(AFTER_SALE_MESSAGES.nothingLeft);
      if (order.storeCreditCents > 0 && body.destination !== 'credit') throw bad(AFTER_SALE_MESSAGES.paidWithCredit);
      if (amountCents <= 0) throw bad(AFTER_SALE_MESSAGES.amountOrLines);
      if (amountCents > left) throw bad(AFTER_SALE_MESSAGES.overRefund(formatMoney(left)));
      const refund = await insertRefund(tx, { orderId, amountCents, reason: 'goodwill', pieces: [], requestKey: body.requestKey ?? null, destination: body.destination });
      return { refund: { refund, order, pieces: [], lineNames: [] }, again: false };
    },

    /** A refund with its order (reconciliation, a retried request). */
    async refundInHand(refundId: string): Promise<RefundInHand | null> {
      const refund = await findRefund(db, refundId);
      if (!refund) return null;
      const order = await findOrderById(db, refund.orderId);
      return order ? { refund, order, pieces: [], lineNames: [] } : null;
    },

    /**
     * requested → succeeded, once, inside the flow's settling transaction: the pieces it gives back (for
     * inventory's return step in the same transaction). Null when it was settled already.
     */
    async settleRefund(tx: Tx, refundId: string, gatewayRefundId: string | null): Promise<RefundInHand | null> {
      const refund = await markRefundSucceeded(tx, refundId, gatewayRefundId);
      if (!refund) return null;
      const order = (await lockOrder(tx, refund.orderId))!;
      const items = await listItemsOf(tx, [order.id]);
      return { refund, order, pieces: piecesOf(order, items, refund.pieces), lineNames: names(items, refund.pieces) };
    },

    /** The provider refused the refund for good: the record says so (the owner sees it on the order). */
    async failRefund(refundId: string): Promise<boolean> {
      return !!(await markRefundFailed(db, refundId));
    },

    /** Refunds requested before `before` and never settled: reconciliation asks the gateway about each. */
    staleRefunds(before: Date, limit = 100) {
      return listStaleRefunds(db, before, limit);
    },

    /** The order paid by this intent (a provider's event), or null. */
    orderOfIntent(intentId: string): Promise<OrderRow | null> {
      return findOrderByIntent(db, intentId);
    },

    /** A refund made at the provider (its dashboard) that the shop did not ask for: recorded once by its id. */
    async recordProviderRefund(orderId: string, gatewayRefundId: string, amountCents: number): Promise<boolean> {
      if (amountCents <= 0) return false;
      return !!(await db.transaction((tx) => insertProviderRefund(tx, { orderId, gatewayRefundId, amountCents })));
    },

    /** A dispute opened or changed at the provider: recorded once, closed once (won or lost). */
    async recordDispute(
      orderId: string,
      dispute: { id: string; amountCents: number; reason: string; providerStatus: string },
    ): Promise<{ opened: boolean; closed: boolean }> {
      return db.transaction(async (tx) => {
        const opened = await insertDispute(tx, { id: dispute.id, orderId, amountCents: dispute.amountCents, reason: dispute.reason });
        const status = disputeStatusOf(dispute.providerStatus);
        const closed = status === 'open' ? false : await closeDispute(tx, dispute.id, status);
        return { opened, closed };
      });
    },
  };
}

export type AfterSaleService = ReturnType<typeof createAfterSaleService>;
