import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  calculateShippingBody,
  createPaymentIntentBody,
  createPaymentIntentResult,
  type CreatePaymentIntentResult,
  customerInfoBody,
  type CustomerInfo,
  type CustomerInfoBody,
  customerInfoSchema,
  discountResult,
  savedCustomerInfoSchema,
  totalsSchema,
  validateDiscountBody,
} from '../../../common/contracts/checkout';
import { errorResponses } from '../../../common/contracts/api-error';
import type { CheckoutService, PaymentIntentBody } from './checkout.service';
import type { RequestGate } from '../../lib/request-gate';
import type { Shopper } from '../../plugins/shopper';

/** The start-payment flow (server/flows/start-payment.ts): assertMayBuy, then the hold and the intent. */
export interface PaymentFlows {
  startPayment(shopper: Shopper, body: PaymentIntentBody): Promise<CreatePaymentIntentResult>;
  /** The save-customer-info flow (server/flows/ship-to-address.ts): a limited edition never ships to a P.O. box. */
  saveCustomerInfo(sessionId: string, body: CustomerInfoBody): Promise<CustomerInfo>;
}

const sid = (request: FastifyRequest) => request.shopper.sessionId();

export async function checkoutRoutes(
  app: FastifyInstance,
  opts: { checkout: CheckoutService; flows: PaymentFlows; gate: RequestGate },
): Promise<void> {
  const { checkout, flows, gate } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const inCheckout = <T>(fn: () => Promise<T>) => gate.run('checkout', fn);

  // 200 with null when nothing is saved yet (the client treats any non-OK answer as an error).
  r.get('/api/customer-info', { schema: { response: { 200: savedCustomerInfoSchema, ...errorResponses } } }, async (request) =>
    inCheckout(async () => checkout.getCustomerInfo(await sid(request))),
  );

  r.post('/api/customer-info', { schema: { body: customerInfoBody, response: { 200: customerInfoSchema, ...errorResponses } }, config: { rateLimited: 'customer-info' } }, async (request) =>
    inCheckout(async () => flows.saveCustomerInfo((await request.ensureSession()).sid, request.body)),
  );

  r.post('/api/validate-discount', { schema: { body: validateDiscountBody, response: { 200: discountResult, ...errorResponses } }, config: { rateLimited: 'discount' } }, async (request) =>
    inCheckout(async () => checkout.validateDiscount(await sid(request), request.body.code)),
  );

  r.post('/api/calculate-shipping', { schema: { body: calculateShippingBody, response: { 200: totalsSchema, ...errorResponses } } }, async (request) =>
    inCheckout(async () => checkout.calculateTotals(await sid(request), request.body)),
  );

  r.post('/api/create-payment-intent', { schema: { body: createPaymentIntentBody, response: { 200: createPaymentIntentResult, ...errorResponses } }, config: { rateLimited: 'payment-intent' } }, async (request) =>
    gate.run('payment', () => flows.startPayment(request.shopper, request.body)),
  );
}
