import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  calculateShippingBody,
  createPaymentIntentBody,
  createPaymentIntentResult,
  customerInfoBody,
  customerInfoSchema,
  discountResult,
  savedCustomerInfoSchema,
  totalsSchema,
  validateDiscountBody,
} from '../../../common/contracts/checkout';
import { errorResponses } from '../../../common/contracts/api-error';
import type { CheckoutService } from './checkout.service';
import type { RequestGate } from '../../lib/request-gate';
import type { AdmissionGuard } from '../cart/cart.routes';
import type { ReservationGuard } from '../cart/cart.service';
import { CLAIM_COOKIE } from '../alerts/alerts.service';

const sid = async (request: FastifyRequest) => (await request.getSession())?.sid ?? null;

export async function checkoutRoutes(
  app: FastifyInstance,
  opts: { checkout: CheckoutService; gate: RequestGate; admission?: AdmissionGuard; reservations?: ReservationGuard },
): Promise<void> {
  const { checkout, gate, admission, reservations } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const inCheckout = <T>(fn: () => Promise<T>) => gate.run('checkout', fn);

  // 200 with null when nothing is saved yet (the client treats any non-OK answer as an error).
  r.get('/api/customer-info', { schema: { response: { 200: savedCustomerInfoSchema, ...errorResponses } } }, async (request) =>
    inCheckout(async () => checkout.getCustomerInfo(await sid(request))),
  );

  r.post('/api/customer-info', { schema: { body: customerInfoBody, response: { 200: customerInfoSchema, ...errorResponses } }, config: { rateLimited: 'customer-info' } }, async (request) =>
    inCheckout(async () => checkout.saveCustomerInfo((await request.ensureSession()).sid, request.body)),
  );

  r.post('/api/validate-discount', { schema: { body: validateDiscountBody, response: { 200: discountResult, ...errorResponses } }, config: { rateLimited: 'discount' } }, async (request) =>
    inCheckout(async () => checkout.validateDiscount(await sid(request), request.body.code)),
  );

  r.post('/api/calculate-shipping', { schema: { body: calculateShippingBody, response: { 200: totalsSchema, ...errorResponses } } }, async (request) =>
    inCheckout(async () => checkout.calculateTotals(await sid(request), request.body)),
  );

  r.post('/api/create-payment-intent', { schema: { body: createPaymentIntentBody, response: { 200: createPaymentIntentResult, ...errorResponses } }, config: { rateLimited: 'payment-intent' } }, async (request) =>
    gate.run('payment', async () => {
      const sessionId = await sid(request);
      // Drop products inside their window need this session's admission pass (ADR 010).
      const admitted = admission && ((ids: readonly string[]) => admission.assertAdmitted(sessionId, ids, request.headers.cookie));
      // A piece kept for the waiting list (ADR 011) is held only by its claimant, whatever the cart says.
      const claim = reservations ? request.readSignedCookie(CLAIM_COOKIE) : null;
      const allowed =
        admitted || reservations
          ? async (ids: readonly string[]) => {
              await admitted?.(ids);
              for (const id of ids) await reservations?.assertNotReserved(id, claim);
            }
          : undefined;
      return checkout.createPaymentIntent(sessionId, request.body, allowed);
    }),
  );
}
