import type { FastifyBaseLogger } from 'fastify';
import type { RefundDestination } from '../../../common/domain/after-sale';
import {
  isUuid,
  type AdminOrder,
  type AdminProduct,
  type DiscountCode,
  type DiscountCodeCreate,
  type NewsletterSignup,
  type NotifyDemand,
  type NotifySignupList,
  type ProductPayload,
} from '../../../common/contracts/admin';
import type { OrderStatus } from '../../../common/contracts/checkout';
import type { NewsletterSubscription } from '../../../common/contracts/newsletter';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/http-error';
import { createAdminAuthService, type AdminSessions } from './admin-auth.service';
import { newsletterCsv, notifySignupsCsv, ordersCsv, pickListCsv, PICK_STATUSES } from './csv-export';

type OrderFilter = { status?: OrderStatus; q?: string; late?: boolean };
type Tracking = { trackingNumber?: string | null; carrier?: string | null };
type BulkTracking = { orderId: string; trackingNumber: string; carrier: string };

/** What the admin needs of the orders module (services.orders). */
export interface OrdersForAdmin {
  listOrders(filter: OrderFilter): Promise<AdminOrder[]>;
  listOrdersPage(filter: OrderFilter, page: { limit: number; offset: number }): Promise<{ orders: AdminOrder[]; total: number }>;
  updateStatus(orderId: string, status: OrderStatus, tracking?: Tracking): Promise<AdminOrder | null>;
  updateStatusMany(orderIds: readonly string[], status: OrderStatus, tracking?: readonly BulkTracking[]): Promise<{ updated: number }>;
}

/** Cancel and refund (the cancel-order and refund-order flows, ADR 021): the order as it is after. */
export interface OrderRefundsForAdmin {
  cancel(orderId: string, body: { itemIds?: readonly string[]; requestKey?: string; destination?: RefundDestination }): Promise<AdminOrder>;
  refund(orderId: string, body: { amount?: number; itemIds?: readonly string[]; requestKey?: string; destination?: RefundDestination }): Promise<AdminOrder>;
}

/**
 * The owner's product writes: the catalogue writes a product's details and inventory its stock and edition
 * size, in one transaction (the admin-products flow, wired in server/services.ts).
 */
export interface AdminProducts {
  listProducts(): Promise<AdminProduct[]>;
  createProduct(payload: ProductPayload): Promise<AdminProduct>;
  updateProduct(id: string, payload: ProductPayload): Promise<AdminProduct>;
  /** Only the fields named; a stock that moved since the form loaded is a StockConflictError (409). */
  patchProduct(id: string, body: Record<string, unknown>): Promise<AdminProduct>;
  deleteProduct(id: string): Promise<void>;
}

/** Notify-me demand, read only: the alerts module's signups named by the catalogue (server/flows/admin-notify-demand.ts). */
export interface NotifyDemandForAdmin {
  notifyDemand(): Promise<NotifyDemand>;
  notifySignups(productId: string): Promise<NotifySignupList>;
}

/** The owner's discount codes (services.discounts fits it). */
export interface DiscountsForAdmin {
  listDiscountCodes(): Promise<DiscountCode[]>;
  createDiscountCode(input: DiscountCodeCreate): Promise<DiscountCode>;
  setActive(id: string, isActive: boolean): Promise<DiscountCode>;
}

/** The newsletter's subscribers (services.newsletter fits it). */
export interface NewsletterForAdmin {
  listSubscriptions(): Promise<NewsletterSubscription[]>;
}

/**
 * The owner's back office. It imports no other module: what it needs of them comes in as the ports
 * above, and what spans several modules is a flow (server/flows/admin-*.ts) wired in server/services.ts.
 */
export function createAdminService(deps: {
  db: Db;
  log: FastifyBaseLogger;
  adminPassword?: string;
  /** The login slow-down counts IPv6 addresses by this prefix (IPV6_PREFIX), as every other budget. */
  ipv6Prefix?: number;
  /** Logs every admin out when the password changes (the session module's revokeAdminLogins). */
  sessions: AdminSessions;
  products: AdminProducts;
  /** The admin-login flow: the shopper's cart and saved details follow the new session id. */
  moveShopperData: (fromSid: string, toSid: string) => Promise<void>;
  discounts: DiscountsForAdmin;
  newsletter: NewsletterForAdmin;
  orders: OrdersForAdmin;
  afterSale: OrderRefundsForAdmin;
  notifyDemand: NotifyDemandForAdmin;
}) {
  const auth = createAdminAuthService({
    db: deps.db,
    adminPassword: deps.adminPassword,
    ipv6Prefix: deps.ipv6Prefix,
    log: deps.log,
    sessions: deps.sessions,
  });
  const { products } = deps;

  async function listSignups(): Promise<NewsletterSignup[]> {
    const list = await deps.newsletter.listSubscriptions();
    return list.map((s) => ({
      id: s.id,
      email: s.email,
      subscribedAt: s.subscribedAt,
      subscribed_at: s.subscribedAt,
    }));
  }

  return {
    auth,
    products,
    discounts: deps.discounts,

    /** Login gives the browser a new session id: the shopper's cart and saved details follow it, together. */
    moveShopperData: deps.moveShopperData,

    listOrders: (filter: OrderFilter) => deps.orders.listOrders(filter),
    async listOrdersPage(query: OrderFilter & { limit: number; offset: number }) {
      const { limit, offset, ...filter } = query;
      const page = await deps.orders.listOrdersPage(filter, { limit, offset });
      return { ...page, limit, offset };
    },
    async updateOrderStatus(orderId: string, status: OrderStatus, tracking: Tracking = {}): Promise<AdminOrder> {
      const order = isUuid(orderId) ? await deps.orders.updateStatus(orderId, status, tracking) : null;
      if (!order) throw notFound('Order not found');
      return order;
    },
    updateOrdersStatus: (orderIds: readonly string[], status: OrderStatus, tracking?: readonly BulkTracking[]) =>
      deps.orders.updateStatusMany(orderIds, status, tracking),
    /** The owner cancels an unshipped order, whole or by line: money back to the card, pieces back to stock. */
    async cancelOrder(orderId: string, body: { itemIds?: readonly string[]; requestKey?: string; destination?: RefundDestination }): Promise<AdminOrder> {
      if (!isUuid(orderId)) throw notFound('Order not found');
      return deps.afterSale.cancel(orderId, body);
    },
    /** A goodwill refund of an amount or of some lines (the pieces stay with the buyer). */
    async refundOrder(orderId: string, body: { amount?: number; itemIds?: readonly string[]; requestKey?: string; destination?: RefundDestination }): Promise<AdminOrder> {
      if (!isUuid(orderId)) throw notFound('Order not found');
      return deps.afterSale.refund(orderId, body);
    },
    /** The same filters as the list: the export is what the owner sees (every page of it). */
    async ordersCsv(filter: OrderFilter): Promise<string> {
      return ordersCsv(await deps.orders.listOrders(filter));
    },

    /** Pieces to pick per product, size and colour from paid orders not yet shipped (csv-export.ts pickListCsv). */
    async pickListCsv(): Promise<string> {
      const [orders, catalogue] = await Promise.all([
        Promise.all(PICK_STATUSES.map((status) => deps.orders.listOrders({ status }))).then((lists) => lists.flat()),
        products.listProducts(),
      ]);
      const sizes = new Map(catalogue.map((p) => [p.name, p.sizes]));
      return pickListCsv(orders, (name) => sizes.get(name) ?? []);
    },

    /** Notify-me signups per product, most wanted first (products deleted since are left out). */
    notifyDemand: (): Promise<NotifyDemand> => deps.notifyDemand.notifyDemand(),
    notifySignups: (productId: string): Promise<NotifySignupList> => deps.notifyDemand.notifySignups(productId),
    async notifySignupsCsv(productId: string): Promise<string> {
      return notifySignupsCsv(await deps.notifyDemand.notifySignups(productId));
    },

    listSignups,
    async signupsCsv(): Promise<string> {
      return newsletterCsv(await listSignups());
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
