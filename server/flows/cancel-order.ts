import type { Db } from '../db/client';
import type { RefundDestination } from '../../common/domain/after-sale';
import type { Order } from '../../common/contracts/checkout';
import type { AfterSaleService } from '../modules/orders/after-sale.service';
import type { RefundOrderFlow } from './refund-order';

/**
 * Cancel an unshipped order, whole or by line (docs/product.md "After the sale: cancel and refund"; ADR 021):
 *   1. requestCancellation — orders, ONE transaction: the order row locked (a "shipped" change that won first
 *                            makes this a 409; one that comes after finds the order cancelled and loses), the
 *                            lines cancelled, the status `cancelled` when no line is left, the refund `requested`
 *                            with the pieces it gives back (nothing left to refund: the pieces back at once,
 *                            in this transaction, through inventory's one return step)
 *   2. refundAtGateway     — payments (the refund-order flow's step): idempotency key from the record
 *   3. settleRefund        — orders + inventory, ONE transaction: refund `succeeded`, pieces back, same edition numbers
 * A retried request finds the lines cancelled already: it changes nothing and finishes a refund still pending.
 */
export function createCancelOrderFlow(deps: { db: Db; afterSale: AfterSaleService; refunds: RefundOrderFlow; onStockChanged?: () => void }) {
  const { db, afterSale, refunds } = deps;

  return {
    async cancel(orderId: string, body: { itemIds?: readonly string[]; requestKey?: string; destination?: RefundDestination }): Promise<Order> {
      const { refund, returned, pending, credited } = await db.transaction(async (tx) => {
        const asked = await afterSale.requestCancellation(tx, orderId, body);
        const returned = asked.now.length > 0 ? await refunds.givePiecesBack(tx, asked.now, orderId) : 0;
        // As store credit: granted and settled here, in the cancellation's own transaction (no gateway).
        const credited = asked.refund?.refund.destination === 'credit' ? await refunds.settleAsCredit(tx, asked.refund) : null;
        return { refund: credited ? null : asked.refund, returned, pending: asked.pending, credited };
      });
      if (returned > 0) deps.onStockChanged?.();
      await refunds.tellCredit(credited);
      if (refund) await refunds.carryOut(refund);
      // A retry: the earlier attempt's refund the provider had not confirmed is finished now.
      for (const id of pending) {
        const inHand = await afterSale.refundInHand(id);
        if (inHand?.refund.status === 'requested') await refunds.carryOut(inHand);
      }
      return refunds.answer(orderId);
    },
  };
}

export type CancelOrderFlow = ReturnType<typeof createCancelOrderFlow>;
