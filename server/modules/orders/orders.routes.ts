import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paymentSuccessBody } from '../../../common/contracts/checkout';
import { notFound } from '../../plugins/http-error';
import type { FulfilmentService } from './fulfilment.service';
import type { OrdersService } from './orders.service';

export async function ordersRoutes(
  app: FastifyInstance,
  opts: { fulfilment: FulfilmentService; orders: OrdersService },
): Promise<void> {
  const { fulfilment, orders } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/payment-success', { schema: { body: paymentSuccessBody } }, async (request) =>
    fulfilment.fulfilForSession((await request.getSession())?.sid ?? null, request.body.paymentIntentId),
  );

  // The order-success page shows this session's latest order (number and edition numbers).
  r.get('/api/orders/latest', async (request) => {
    const order = await orders.latestForSession((await request.getSession())?.sid ?? null);
    if (!order) throw notFound('No order found');
    return order;
  });

  app.addHook('onClose', async () => {
    await fulfilment.drain();
  });
}
