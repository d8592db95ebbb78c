import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import type { Order, OrderStatus } from '../../../common/contracts/checkout';
import type { Mailer } from '../../lib/mailer';
import { formatMoney } from '../../../common/domain/money';
import { generateOrderNumber } from '../../../common/domain/order-number';
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
  findOrderNumberByIntent,
  insertOrder,
  insertOrderItems,
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
 * A paid checkout as the order is written from it (the checkout module's row fits as it is; the
 * complete-purchase flow passes it, server/flows/complete-purchase.ts).
 */
export interface PaidCheckout {
  id: string;
  sessionId: string;
  customer: {
    email: string;
    firstName: string;
    lastName: string;
    phone: string | null;
    shippingAddress: string;
    shippingCity: string;
    shippingState: string;
    shippingZip: string;
    shippingCountry: string;
  };
  shippingMethod: string;
  subtotalCents: number;
  discountCode: string | null;
  discountAmountCents: number;
  taxCents: number;
  shippingCents: number;
  totalCents: number;
  lines: ReadonlyArray<{
    productId: string;
    name: string;
    unitPriceCents: number;
    quantity: number;
    selectedSize: string | null;
    selectedColor: string | null;
    image: string | null;
  }>;
}

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
    /** The order number of an intent's order, or null (no order yet). */
    orderNumberOf(intentId: string): Promise<string | null> {
      return findOrderNumberByIntent(db, intentId);
    },
    /** Inside the order's transaction: the order already made for this intent (a repeated completion), or null. */
    async existingInTransaction(tx: Tx, intentId: string): Promise<Order | null> {
      const again = await findOrderByIntent(tx, intentId);
      return again ? toOrder(again, []) : null;
    },
    /**
     * Inside the order's transaction (the complete-purchase flow's): writes the order of a paid checkout and
     * its lines with their edition numbers. `isTest`: paid through the offline gateway (no money moved).
     */
    async record(
      tx: Tx,
      paid: PaidCheckout,
      intentId: string,
      editions: ReadonlyArray<{ numbers: number[]; editionSize: number }>,
      opts: { isTest: boolean },
    ): Promise<Order> {
      const c = paid.customer;
      const row = await insertOrder(tx, {
        orderNumber: generateOrderNumber(),
        sessionId: paid.sessionId,
        checkoutId: paid.id,
        stripePaymentIntentId: intentId,
        customerEmail: c.email,
        customerFirstName: c.firstName,
        customerLastName: c.lastName,
        customerPhone: c.phone,
        shippingAddress: c.shippingAddress,
        shippingCity: c.shippingCity,
        shippingState: c.shippingState,
        shippingZip: c.shippingZip,
        shippingCountry: c.shippingCountry,
        shippingMethod: paid.shippingMethod,
        subtotalCents: paid.subtotalCents,
        discountCode: paid.discountCode,
        discountAmountCents: paid.discountAmountCents,
        taxCents: paid.taxCents,
        shippingCents: paid.shippingCents,
        totalCents: paid.totalCents,
        isTest: opts.isTest,
      });
      if (!row) throw new Error(`order for ${intentId} appeared while its checkout was locked`);
      const items = await insertOrderItems(
        tx,
        paid.lines.map((line, i) => ({
          orderId: row.id,
          productId: line.productId,
          productName: line.name,
          productPriceCents: line.unitPriceCents,
          quantity: line.quantity,
          selectedSize: line.selectedSize,
          selectedColor: line.selectedColor,
          productImage: line.image,
          editionNumbers: editions[i]!.numbers,
          editionSize: editions[i]!.editionSize,
        })),
      );
      return toOrder(row, items);
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
