import type { Db } from '../../db/client';
import type { Order, OrderStatus } from '../../../common/contracts/checkout';
import {
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
    subtotal: row.subtotal,
    discountCode: row.discountCode,
    discountAmount: row.discountAmount,
    tax: row.tax,
    shipping: row.shipping,
    total: row.total,
    status: row.status,
    isTest: row.isTest,
    items: items.map((i) => ({
      productName: i.productName,
      productPrice: i.productPrice,
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

/** Reads and admin updates of orders (orders are only ever created by fulfilment). */
export function createOrdersService(deps: { db: Db }) {
  const { db } = deps;

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
    async listOrders(filter: { status?: OrderStatus; q?: string } = {}): Promise<Order[]> {
      return withItems(await listOrderRows(db, filter));
    },
    async getOrder(id: string): Promise<Order | null> {
      return one(await findOrderById(db, id));
    },
    /** Any status regardless of the current one (docs/product.md §4); null when there is no such order. */
    async updateStatus(id: string, status: OrderStatus): Promise<Order | null> {
      return one(await setOrderStatus(db, id, status));
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
