import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RequestGate } from '../../lib/request-gate';
import { errorResponses } from '../../../common/contracts/api-error';
import { adminOrderIdParams } from '../../../common/contracts/admin';
import { orderNumberParams, orderViewQuery } from '../../../common/contracts/orders';
import {
  adminReturnBody,
  adminReturnParams,
  returnListSchema,
  returnRequestBody,
  returnsViewSchema,
  type ReturnAction,
  type ReturnRecord,
  type ReturnRequestBody,
  type ReturnsView,
} from '../../../common/contracts/returns';

/** The return-order flow (server/flows/return-order.ts) as these routes ask it. */
export interface OrderReturns {
  listByBuyer(orderNumber: string, key: string | undefined): Promise<ReturnsView>;
  requestByBuyer(orderNumber: string, key: string | undefined, body: ReturnRequestBody): Promise<ReturnsView>;
  listByOwner(orderId: string): Promise<ReturnRecord[]>;
  act(orderId: string, returnId: string, action: ReturnAction, note?: string | null): Promise<ReturnRecord[]>;
}

const answer = { 200: returnListSchema, ...errorResponses };
const buyerAnswer = { 200: returnsViewSchema, ...errorResponses };

/** The buyer's returns from the order page's signed link (docs/product.md "Returns"). */
export async function orderReturnsRoutes(app: FastifyInstance, opts: { returns: OrderReturns; gate: RequestGate }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/orders/:orderNumber/returns', { schema: { params: orderNumberParams, querystring: orderViewQuery, response: buyerAnswer } }, async (request, reply) => {
    const list = await opts.returns.listByBuyer(request.params.orderNumber, request.query.key);
    void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return list;
  });
  r.post(
    '/api/orders/:orderNumber/returns',
    { schema: { params: orderNumberParams, querystring: orderViewQuery, body: returnRequestBody, response: buyerAnswer } },
    async (request, reply) => {
      // Through the buying path's gate, as the order page's other changes: each holds the order's row lock.
      const list = await opts.gate.run('checkout', () => opts.returns.requestByBuyer(request.params.orderNumber, request.query.key, request.body));
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return list;
    },
  );
}

/** The owner's returns on the admin order card (registered behind the admin login, server/app.ts). */
export async function adminOrderReturnsRoutes(app: FastifyInstance, opts: { returns: OrderReturns }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/admin/orders/:orderId/returns', { schema: { params: adminOrderIdParams, response: answer } }, async (request) =>
    opts.returns.listByOwner(request.params.orderId),
  );
  r.post(
    '/api/admin/orders/:orderId/returns/:returnId/:action',
    { schema: { params: adminReturnParams, body: adminReturnBody, response: answer } },
    async (request) => opts.returns.act(request.params.orderId, request.params.returnId, request.params.action, request.body?.note ?? null),
  );
}
