import type { FastifyBaseLogger } from 'fastify';
import { isUuid, type AdminOrder, type NewsletterSignup, type NotifyDemand, type NotifySignupList } from '../../../common/contracts/admin';
import type { OrderStatus } from '../../../common/contracts/checkout';
import type { Db } from '../../db/client';
import { notFound } from '../../plugins/http-error';
import type { CartService } from '../cart/cart.service';
import type { CatalogService } from '../catalog/catalog.service';
import type { CheckoutService } from '../checkout/checkout.service';
import type { DiscountsService } from '../discounts/discounts.service';
import type { InventoryService } from '../inventory/inventory.service';
import type { NewsletterService } from '../newsletter/newsletter.service';
import type { ImagesService } from '../storage/images.service';
import { createAdminAuthService } from './admin-auth.service';
import { createAdminProductsService } from './admin-products.service';
import { newsletterCsv, notifySignupsCsv, ordersCsv } from './csv-export';

type OrderFilter = { status?: OrderStatus; q?: string };
type Tracking = { trackingNumber?: string | null; carrier?: string | null };

/** What the admin needs of the orders module (services.orders). */
export interface OrdersForAdmin {
  listOrders(filter: OrderFilter): Promise<AdminOrder[]>;
  listOrdersPage(filter: OrderFilter, page: { limit: number; offset: number }): Promise<{ orders: AdminOrder[]; total: number }>;
  updateStatus(orderId: string, status: OrderStatus, tracking?: Tracking): Promise<AdminOrder | null>;
  updateStatusMany(orderIds: readonly string[], status: OrderStatus): Promise<{ updated: number }>;
}

/** What the admin reads of the alerts module (services.alerts): Notify-me demand, read only. */
export interface AlertsForAdmin {
  countSignupsByProduct(): Promise<Array<{ productId: string; count: number }>>;
  listSignups(productId: string): Promise<NotifySignupList>;
}

export function createAdminService(deps: {
  db: Db;
  log: FastifyBaseLogger;
  adminPassword?: string;
  catalog: CatalogService;
  cart: CartService;
  checkout: CheckoutService;
  inventory: InventoryService;
  discounts: DiscountsService;
  newsletter: NewsletterService;
  images: ImagesService;
  orders: OrdersForAdmin;
  alerts?: AlertsForAdmin;
}) {
  const auth = createAdminAuthService({ db: deps.db, adminPassword: deps.adminPassword, log: deps.log });
  const products = createAdminProductsService({
    db: deps.db,
    catalog: deps.catalog,
    inventory: deps.inventory,
    isOwnImageUrl: deps.images.isOwnImageUrl,
  });

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
    images: deps.images,

    /** Login gives the browser a new session id: the shopper's cart and saved details follow it, together. */
    async moveShopperData(fromSid: string, toSid: string): Promise<void> {
      await deps.db.transaction(async (tx) => {
        await deps.cart.moveToSession(tx, fromSid, toSid);
        await deps.checkout.moveCustomerInfo(tx, fromSid, toSid);
      });
    },

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
    updateOrdersStatus: (orderIds: readonly string[], status: OrderStatus) => deps.orders.updateStatusMany(orderIds, status),
    /** The same filters as the list: the export is what the owner sees (every page of it). */
    async ordersCsv(filter: OrderFilter): Promise<string> {
      return ordersCsv(await deps.orders.listOrders(filter));
    },

    /** Notify-me signups per product, most wanted first (products deleted since are left out). */
    async notifyDemand(): Promise<NotifyDemand> {
      const counts = (await deps.alerts?.countSignupsByProduct()) ?? [];
      const names = new Map((await deps.catalog.listProductsFresh()).map((p) => [p.id, p.name]));
      return counts.flatMap((c) => (names.has(c.productId) ? [{ ...c, productName: names.get(c.productId)! }] : []));
    },
    async notifySignups(productId: string): Promise<NotifySignupList> {
      if (!isUuid(productId) || !(await deps.catalog.getProductFresh(productId))) throw notFound('Product not found');
      return (await deps.alerts?.listSignups(productId)) ?? [];
    },
    async notifySignupsCsv(productId: string): Promise<string> {
      return notifySignupsCsv(await this.notifySignups(productId));
    },

    listSignups,
    async signupsCsv(): Promise<string> {
      return newsletterCsv(await listSignups());
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
