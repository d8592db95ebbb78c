import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { offlineConfirmBody, offlineConfirmResult, stripeWebhookResult } from '../../../common/contracts/checkout';
import { errorResponses } from '../../../common/contracts/api-error';
import {
  offlineAuthenticateBody,
  offlineAuthenticateParams,
  offlineAuthenticateResult,
} from '../../../common/contracts/draws';
import type { RequestGate } from '../../lib/request-gate';
import type { PaymentsService } from './payments.service';

export async function paymentsRoutes(
  app: FastifyInstance,
  opts: { payments: PaymentsService; gate: RequestGate },
): Promise<void> {
  const { payments, gate } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/payments/offline/confirm', { schema: { body: offlineConfirmBody, response: { 200: offlineConfirmResult, ...errorResponses } } }, async (request) =>
    gate.run('settle', () => payments.confirmOffline(request.body)),
  );

  // A draw entry's 3-D Secure step with the offline gateway: the page plays the bank (the client secret proves
  // it is the shopper who started the entry).
  r.post(
    '/api/payments/offline/authorisations/:id/authenticate',
    {
      schema: {
        params: offlineAuthenticateParams,
        body: offlineAuthenticateBody,
        response: { 200: offlineAuthenticateResult, ...errorResponses },
      },
    },
    async (request) =>
      gate.run('settle', () => payments.authenticateOffline({ authorisationId: request.params.id, ...request.body })),
  );

  // Stripe signs the exact bytes it sent: this scope keeps the body raw instead of parsing JSON.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post('/api/webhooks/stripe', { schema: { response: { 200: stripeWebhookResult, ...errorResponses } } }, async (request) => {
      const signature = request.headers['stripe-signature'];
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return gate.run('settle', () =>
        payments.handleStripeWebhook(raw, Array.isArray(signature) ? signature[0] : signature),
      );
    });
  });
}
