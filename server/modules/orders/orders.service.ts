import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { Order, OrderStatus } from '../../../common/contracts/checkout';
import type { Mailer } from '../mail/mail.service';
import { formatMoney } from '../../../common/domain/money';
import { renderShippedNotice } from './order-email';
import { trackingUrlOf } from './tracking';
import {
  countOrderRows,
  lockOrders,
  setOrdersStatus,
  setOrderTracking,
  findLatestOrderForSession,
  findOrderById,
  findOrderByIntent,
  listItemsOf,
  listOrderRows,
  setOrderStatus,
  type OrderItemRow,
  type OrderRow,
} from './orders.repository';

export function toOrder(row: OrderRow, items: readonly OrderItemRow[]): Order {
  return {
    id: row.id,
    orderNumber: row.orderNumber,
    stripePaymentIntentId: row.stripePaymentIntentId,
    customerEmail: row.customerEmail,
    customerFirstName: row.customerFirstName,
    customerLastName: row.customerLastName,
    customerPhone: row.customerPhone,
    shippingAddress: row.shippingAddress,
    shippingCity: row.shippingCity,
    shippingState: row.shippingState,
    shippingZip: row.shippingZip,
    shippingCountry: row.shippingCountry,
    shippingMethod: row.shippingMethod,
    // Cents in the row, the contract's decimal strings on the wire (docs/decisions/016-money-minor-units.md).
    subtotal: formatMoney(row.subtotalCents),
    discountCode: row.discountCode,
    discountAmount: formatMoney(row.discountAmountCents),
    tax: formatMoney(row.taxCents),
    shipping: formatMoney(row.shippingCents),
    total: formatMoney(row.totalCents),
    status: row.status,
    isTest: row.isTest,
    trackingNumber: row.trackingNumber,
    carrier: row.carrier,
    trackingUrl: trackingUrlOf(row.carrier, row.trackingNumber),
    items: items.map((i) => ({
      productName: i.productName,
      productPrice: formatMoney(i.productPriceCents),
      quantity: i.quantity,
      selectedSize: i.selectedSize,
      selectedColor: i.selectedColor,
      productImage: i.productImage,
      editionNumbers: i.editionNumbers,
      editionSize: i.editionSize,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type OrderFilter = { status?: OrderStatus; q?: string };

/**
 * Reads and admin updates of orders (orders are only ever created by fulfilment). With a mailer, an order
 * that becomes "shipped" gets the shipped e-mail (with its tracking link), sent after the change commits.
 */
export function createOrdersService(deps: { db: Db; mailer?: Mailer; shopName?: string; log?: FastifyBaseLogger }) {
  const { db } = deps;
  const pendingMail = new Set<Promise<void>>();

  function mailShipped(orders: readonly Order[]): void {
    const mailer = deps.mailer;
    if (!mailer) return;
    for (const order of orders) {
      // The status change is committed: a mail failure is logged (without the address), never undoes it.
      const p = mailer
        .send(renderShippedNotice(order, deps.shopName ?? 'FIFTY'))
        .catch((err: unknown) => deps.log?.error({ err, orderNumber: order.orderNumber }, 'sending the shipped mail failed'))
        .finally(() => pendingMail.delete(p));
      pendingMail.add(p);
    }
  }

  async function withItems(rows: OrderRow[]): Promise<Order[]> {
    const items = await listItemsOf(
      db,
      rows.map((r) => r.id),
    );
    const byOrder = new Map<string, OrderItemRow[]>();
    for (const item of items) byOrder.set(item.orderId, [...(byOrder.get(item.orderId) ?? []), item]);
    return rows.map((r) => toOrder(r, byOrder.get(r.id) ?? []));
  }

  async function one(row: OrderRow | null): Promise<Order | null> {
    return row ? (await withItems([row]))[0]! : null;
  }

  return {
    /** Newest first; `q` matches the order number, e-mail or name (case-insensitive, partial). */
    async listOrders(filter: OrderFilter = {}): Promise<Order[]> {
      return withItems(await listOrderRows(db, filter));
    },
    /** One page of the filtered list, newest first, with the count over all pages. */
    async listOrdersPage(filter: OrderFilter, page: { limit: number; offset: number }): Promise<{ orders: Order[]; total: number }> {
      const [rows, total] = await Promise.all([listOrderRows(db, filter, page), countOrderRows(db, filter)]);
      return { orders: await withItems(rows), total };
    },
    async getOrder(id: string): Promise<Order | null> {
      return one(await findOrderById(db, id));
    },
    /** Any status regardless of the current one (docs/product.md §4); null when there is no such order. */
    async updateStatus(
      id: string,
      status: OrderStatus,
      tracking: { trackingNumber?: string | null; carrier?: string | null } = {},
    ): Promise<Order | null> {
      const changed = await db.transaction(async (tx) => {
        const [before] = await lockOrders(tx, [id]);
        if (!before) return null;
        await setOrderTracking(tx, id, tracking);
        const row = await setOrderStatus(tx, id, status);
        return row ? { row, becameShipped: status === 'shipped' && before.status !== 'shipped' } : null;
      });
      if (!changed) return null;
      const order = await one(changed.row);
      if (order && changed.becameShipped) mailShipped([order]);
      return order;
    },
    /** One status for many orders, all or none (one transaction); the shipped mail for each newly shipped. */
    async updateStatusMany(ids: readonly string[], status: OrderStatus): Promise<{ updated: number }> {
      const unique = [...new Set(ids)];
      const { rows, shippedIds } = await db.transaction(async (tx) => {
        const before = await lockOrders(tx, unique);
        const rows = await setOrdersStatus(tx, unique, status);
        const wasShipped = new Set(before.filter((o) => o.status === 'shipped').map((o) => o.id));
        return { rows, shippedIds: status === 'shipped' ? rows.filter((r) => !wasShipped.has(r.id)).map((r) => r.id) : [] };
      });
      if (shippedIds.length > 0) mailShipped(await withItems(rows.filter((r) => shippedIds.includes(r.id))));
      return { updated: rows.length };
    },
    /** Waits for shipped e-mails still being sent (shutdown, tests). */
    async drainMail(): Promise<void> {
      await Promise.allSettled([...pendingMail]);
    },
    async latestForSession(sessionId: string | null): Promise<Order | null> {
      return sessionId ? one(await findLatestOrderForSession(db, sessionId)) : null;
    },
    async findByIntent(intentId: string): Promise<Order | null> {
      return one(await findOrderByIntent(db, intentId));
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
