import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RequestGate } from '../../lib/request-gate';
import { errorResponses } from '../../../common/contracts/api-error';
import { adminOrderIdParams, adminOrderSchema } from '../../../common/contracts/admin';
import type { Order } from '../../../common/contracts/checkout';
import { orderAddressBody, type OrderAddressBody } from '../../../common/contracts/order-address';
import {
  orderNumberParams,
  orderViewQuery,
  orderViewSchema,
  type OrderView,
} from '../../../common/contracts/orders';

/** The change-order-address flow (server/flows/change-order-address.ts) as these routes ask it. */
export interface OrderChanges {
  changeByBuyer(orderNumber: string, key: string | undefined, next: OrderAddressBody): Promise<OrderView>;
  changeByOwner(orderId: string, next: OrderAddressBody): Promise<Order>;
  cancelByBuyer(orderNumber: string, key: string | undefined): Promise<OrderView>;
}

/** The buyer's hour after ordering, from the order page's signed link (docs/product.md "Order page"). */
export async function orderChangesRoutes(
  app: FastifyInstance,
  opts: { changes: OrderChanges; gate: RequestGate },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Through the buying path's gate: changes of one order wait for its row lock in turn, each holding a
  // database connection, so they queue for a slot instead of taking the whole pool.
  const gated = <T>(fn: () => Promise<T>) => opts.gate.run('checkout', fn);
  const answer = { 200: orderViewSchema, ...errorResponses };

  r.post(
    '/api/orders/:orderNumber/address',
    {
      schema: {
        params: orderNumberParams,
        querystring: orderViewQuery,
        body: orderAddressBody,
        response: answer,
      },
    },
    async (request, reply) => {
      const view = await gated(() =>
        opts.changes.changeByBuyer(request.params.orderNumber, request.query.key, request.body),
      );
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return view;
    },
  );

  r.post(
    '/api/orders/:orderNumber/cancel',
    { schema: { params: orderNumberParams, querystring: orderViewQuery, response: answer } },
    async (request, reply) => {
      const view = await gated(() =>
        opts.changes.cancelByBuyer(request.params.orderNumber, request.query.key),
      );
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return view;
    },
  );
}

/** The owner's address change from the admin order card (registered behind the admin login, server/app.ts). */
export async function adminOrderAddressRoutes(
  app: FastifyInstance,
  opts: { changes: OrderChanges },
): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/admin/orders/:orderId/address',
    {
      schema: {
        params: adminOrderIdParams,
        body: orderAddressBody,
        response: { 200: adminOrderSchema, ...errorResponses },
      },
    },
    async (request) => opts.changes.changeByOwner(request.params.orderId, request.body),
  );
}
