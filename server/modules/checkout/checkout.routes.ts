import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  calculateShippingBody,
  createPaymentIntentBody,
  customerInfoBody,
  validateDiscountBody,
} from '../../../common/contracts/checkout';
import type { CheckoutService } from './checkout.service';

const sid = async (request: FastifyRequest) => (await request.getSession())?.sid ?? null;

export async function checkoutRoutes(
  app: FastifyInstance,
  opts: { checkout: CheckoutService },
): Promise<void> {
  const { checkout } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // 200 with null when nothing is saved yet (the client treats any non-OK answer as an error).
  r.get('/api/customer-info', async (request) => checkout.getCustomerInfo(await sid(request)));

  r.post('/api/customer-info', { schema: { body: customerInfoBody } }, async (request) => {
    const session = await request.ensureSession();
    return checkout.saveCustomerInfo(session.sid, request.body);
  });

  r.post('/api/validate-discount', { schema: { body: validateDiscountBody } }, async (request) =>
    checkout.validateDiscount(await sid(request), request.body.code),
  );

  r.post('/api/calculate-shipping', { schema: { body: calculateShippingBody } }, async (request) =>
    checkout.calculateTotals(await sid(request), request.body),
  );

  r.post('/api/create-payment-intent', { schema: { body: createPaymentIntentBody } }, async (request) =>
    checkout.createPaymentIntent(await sid(request), request.body),
  );
}
