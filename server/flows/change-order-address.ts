import type { Db } from '../db/client';
import type { Order } from '../../common/contracts/checkout';
import type { OrderView } from '../../common/contracts/orders';
import { ORDER_NOT_FOUND } from '../../common/contracts/orders';
import { ORDER_CHANGE_MESSAGES, type OrderAddressBody } from '../../common/contracts/order-address';
import { altersShipping, BUYER_ADDRESS_CHANGES, mayChangeOrder } from '../../common/domain/order-address';
import { isUuid } from '../../common/domain/ids';
import type { Clock } from '../lib/db-clock';
import { conflict, notFound } from '../lib/http-error';
import type { OrdersService } from '../modules/orders/orders.service';
import type { PurchaseLimitsService } from '../modules/purchase-limits/purchase-limits.service';
import type { CancelOrderFlow } from './cancel-order';

type Who = 'buyer' | 'owner';

/**
 * The delivery address and the cancellation after the sale (docs/product.md "Order page"):
 *   the buyer, from the order page's signed link, until 60 minutes after ordering (the database's clock) and
 *   while unshipped; the owner, from the admin order card, until it ships. One transaction: the order locked
 *   (a "shipped" that won first makes this a 409), the hour and the shipping zone checked, the per-shopper
 *   limits asked (purchase-limits: the new address is one more identity of the buyer), the address written
 *   and the change kept. The "address changed" mail goes after the commit. The buyer's cancel is the owner's
 *   cancel flow for the whole order, refunded to the card.
 */
export function createChangeOrderAddressFlow(deps: {
  db: Db;
  orders: OrdersService;
  limits: PurchaseLimitsService;
  cancel: CancelOrderFlow;
  clock: Clock;
  supportEmail: string;
  /** SHOP_COUNTRY: where standard and express apply (a change into or out of it alters shipping). */
  homeCountry?: string;
  /**
   * The checkout's own address rule for these pieces (the ship-to-address flow's: no P.O. box for a limited
   * edition), as a 400 with its message; absent: none.
   */
  assertShipsTo?: (address: string, productIds: readonly string[]) => Promise<void>;
}) {
  const { db, orders, limits, clock } = deps;

  function refuseClosed(who: Who, order: { status: string; createdAt: Date }): void {
    if (mayChangeOrder(who, { status: order.status, placedAt: order.createdAt }, clock.now())) return;
    if (order.status === 'cancelled') throw conflict(ORDER_CHANGE_MESSAGES.cancelled);
    if (order.status === 'shipped' || order.status === 'delivered')
      throw conflict(ORDER_CHANGE_MESSAGES.shipped);
    throw conflict(ORDER_CHANGE_MESSAGES.windowClosed);
  }

  async function change(
    ref: { orderId: string } | { orderNumber: string },
    next: OrderAddressBody,
    who: Who,
  ) {
    const row = await db.transaction(async (tx) => {
      const locked = await orders.addressChanges.lock(tx, ref);
      if (!locked) throw notFound(ORDER_NOT_FOUND);
      const { row: before, lines } = locked;
      refuseClosed(who, before);
      if (
        who === 'buyer' &&
        (await orders.addressChanges.countChanges(tx, before.id, 'buyer')) >= BUYER_ADDRESS_CHANGES
      )
        throw conflict(ORDER_CHANGE_MESSAGES.tooManyChanges(deps.supportEmail));
      if (
        altersShipping(
          { country: before.shippingCountry, method: before.shippingMethod },
          next.shippingCountry,
          deps.homeCountry,
        )
      )
        throw conflict(ORDER_CHANGE_MESSAGES.alteringShipping(deps.supportEmail));
      await deps.assertShipsTo?.(
        next.shippingAddress,
        lines.map((l) => l.productId),
      );
      const violation = await limits.addDeliveryAddress(
        tx,
        { checkoutId: before.checkoutId, sessionId: before.sessionId, email: before.customerEmail, lines },
        next,
      );
      if (violation) throw conflict(violation.message);
      return orders.addressChanges.change(tx, before, next, who);
    });
    orders.mailAddressChanged(row);
    return row;
  }

  async function viewOf(orderNumber: string, key: string | undefined): Promise<OrderView> {
    const view = await orders.viewOrder(orderNumber, key);
    if (!view) throw notFound(ORDER_NOT_FOUND);
    return view;
  }

  return {
    /** From the order page: only with the order's own key (anything else is the page's 404, nothing changed). */
    async changeByBuyer(
      orderNumber: string,
      key: string | undefined,
      next: OrderAddressBody,
    ): Promise<OrderView> {
      if (!orders.opens(orderNumber, key)) throw notFound(ORDER_NOT_FOUND);
      await change({ orderNumber }, next, 'buyer');
      return viewOf(orderNumber, key);
    },

    /** From the admin order card, until the order ships. */
    async changeByOwner(orderId: string, next: OrderAddressBody): Promise<Order> {
      if (!isUuid(orderId)) throw notFound(ORDER_NOT_FOUND);
      const row = await change({ orderId }, next, 'owner');
      const order = await orders.getOrder(row.id);
      if (!order) throw notFound(ORDER_NOT_FOUND);
      return order;
    },

    /** The buyer cancels the whole order within the hour: the cancel flow, refunded to the card. */
    async cancelByBuyer(orderNumber: string, key: string | undefined): Promise<OrderView> {
      if (!orders.opens(orderNumber, key)) throw notFound(ORDER_NOT_FOUND);
      const found = await db.transaction(async (tx) => orders.addressChanges.lock(tx, { orderNumber }));
      if (!found) throw notFound(ORDER_NOT_FOUND);
      refuseClosed('buyer', found.row);
      await deps.cancel.cancel(found.row.id, { requestKey: `buyer-cancel:${found.row.id}` });
      return viewOf(orderNumber, key);
    },
  };
}

export type ChangeOrderAddressFlow = ReturnType<typeof createChangeOrderAddressFlow>;
