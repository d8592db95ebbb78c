import type { FastifyBaseLogger } from 'fastify';
import { isUuid, type AdminOrder, type NewsletterSignup } from '../../../common/contracts/admin';
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
import { newsletterCsv, ordersCsv } from './csv-export';

/** What the admin needs of the orders module (services.orders). */
export interface OrdersForAdmin {
  listOrders(filter: { status?: OrderStatus; q?: string }): Promise<AdminOrder[]>;
  updateStatus(orderId: string, status: OrderStatus): Promise<AdminOrder | null>;
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

    listOrders: (filter: { status?: OrderStatus; q?: string }) => deps.orders.listOrders(filter),
    async updateOrderStatus(orderId: string, status: OrderStatus): Promise<AdminOrder> {
      const order = isUuid(orderId) ? await deps.orders.updateStatus(orderId, status) : null;
      if (!order) throw notFound('Order not found');
      return order;
    },
    async ordersCsv(filter: { status?: OrderStatus; q?: string }): Promise<string> {
      return ordersCsv(await deps.orders.listOrders(filter));
    },

    listSignups,
    async signupsCsv(): Promise<string> {
      return newsletterCsv(await listSignups());
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
