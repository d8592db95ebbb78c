import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paymentSuccessBody, paymentSuccessResult } from '../../../common/contracts/checkout';
import {
  CERTIFICATE_NOT_FOUND,
  certificateParams,
  certificateSchema,
  FIND_ORDER_ANSWER,
  findOrderBody,
  findOrderResult,
  latestOrderSchema,
  ORDER_NOT_FOUND,
  orderNumberParams,
  orderViewQuery,
  orderViewSchema,
} from '../../../common/contracts/orders';
import { errorResponses } from '../../../common/contracts/api-error';
import { notFound } from '../../lib/http-error';
import type { RequestGate } from '../../lib/request-gate';
import type { OrdersService } from './orders.service';

/** The complete-purchase flow (server/flows/complete-purchase.ts) as payment-success asks it. */
export interface PaymentSuccess {
  /** Only the session that paid may ask, and only for its own intent. */
  fulfilForSession(sessionId: string | null, intentId: string): Promise<{ orderNumber: string }>;
  /** Waits for confirmation e-mails still being sent. */
  drain(): Promise<void>;
}

const sid = (request: FastifyRequest) => request.shopper.sessionId();

export async function ordersRoutes(
  app: FastifyInstance,
  opts: { fulfilment: PaymentSuccess; orders: OrdersService; gate: RequestGate },
): Promise<void> {
  const { fulfilment, orders, gate } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/payment-success', { schema: { body: paymentSuccessBody, response: { 200: paymentSuccessResult, ...errorResponses } } }, async (request) =>
    gate.run('settle', async () =>
      fulfilment.fulfilForSession(await sid(request), request.body.paymentIntentId),
    ),
  );

  // The order-success page shows this session's latest order (number and edition numbers) and links its order page.
  r.get('/api/orders/latest', { schema: { response: { 200: latestOrderSchema, ...errorResponses } } }, async (request, reply) =>
    gate.run('settle', async () => {
      const order = await orders.latestForSession(await sid(request));
      if (!order) throw notFound('No order found');
      void reply.header('cache-control', 'no-store');
      return { ...order, orderPath: orders.orderPath(order.orderNumber) };
    }),
  );

  // "Find my order": the same 202 whether or not the pair matched; the link goes only to the order's own address.
  r.post(
    '/api/orders/find',
    { schema: { body: findOrderBody, response: { 202: findOrderResult, ...errorResponses } }, config: { rateLimited: 'order-lookup' } },
    async (request, reply) => {
      await orders.requestLink(request.body);
      return reply.code(202).send({ message: FIND_ORDER_ANSWER });
    },
  );

  // The buyer's order page (docs/product.md "Order page"): only with the key signed for viewing this order.
  r.get(
    '/api/orders/:orderNumber',
    { schema: { params: orderNumberParams, querystring: orderViewQuery, response: { 200: orderViewSchema, ...errorResponses } } },
    async (request, reply) => {
      const view = await orders.viewOrder(request.params.orderNumber, request.query.key);
      if (!view) throw notFound(ORDER_NOT_FOUND);
      // Personal data behind a bearer link: no shared cache keeps it, no referrer carries the key away.
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return view;
    },
  );

  // A piece's public certificate: nothing personal on it, so it may be shared and cached briefly.
  r.get(
    '/api/certificates/:id',
    { schema: { params: certificateParams, response: { 200: certificateSchema, ...errorResponses } } },
    async (request, reply) => {
      const certificate = await orders.certificate(request.params.id);
      if (!certificate) throw notFound(CERTIFICATE_NOT_FOUND);
      void reply.header('cache-control', 'public, max-age=300');
      return certificate;
    },
  );

  app.addHook('onClose', async () => {
    await Promise.all([fulfilment.drain(), orders.drainMail()]);
  });
}
