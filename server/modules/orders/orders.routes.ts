import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { orderSchema, paymentSuccessBody, paymentSuccessResult } from '../../../common/contracts/checkout';
import { errorResponses } from '../../../common/contracts/api-error';
import { notFound } from '../../plugins/http-error';
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

  // The order-success page shows this session's latest order (number and edition numbers).
  r.get('/api/orders/latest', { schema: { response: { 200: orderSchema, ...errorResponses } } }, async (request) =>
    gate.run('settle', async () => {
      const order = await orders.latestForSession(await sid(request));
      if (!order) throw notFound('No order found');
      return order;
    }),
  );

  app.addHook('onClose', async () => {
    await Promise.all([fulfilment.drain(), orders.drainMail()]);
  });
}
