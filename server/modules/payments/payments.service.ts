import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-error';
import type { OfflineAuthenticateInput, OfflineConfirmInput, OfflineGateway } from './offline-gateway';
import { WebhookSignatureError, type GatewayEvent, type PaymentGateway } from './payment-gateway';
import { paymentEvents } from './payments.tables';

/** Whoever turns a succeeded intent into an order (the orders module's fulfil): payments does not depend on it. */
export interface SucceededPaymentHandler {
  fulfil(intentId: string): Promise<{ kind: string }>;
}

/**
 * Whoever records a payment's refunds and disputes (the refund-order flow, ADR 021): payments does not depend
 * on it. `refunded` re-reads the payment's refunds at the provider (an event may not carry them all).
 */
export interface AfterSaleEvents {
  refunded(intentId: string): Promise<void>;
  disputed(intentId: string, dispute: NonNullable<GatewayEvent['dispute']>): Promise<void>;
}

/** The payment provider's own calls into the shop: offline confirm and Stripe webhooks. */
export function createPaymentsService(deps: {
  db: Db;
  gateway: PaymentGateway;
  fulfilment: SucceededPaymentHandler;
  log: FastifyBaseLogger;
  afterSale?: AfterSaleEvents;
}) {
  const { db, gateway, fulfilment, log } = deps;

  return {
    provider: gateway.provider,

    confirmOffline(input: OfflineConfirmInput) {
      if (gateway.provider !== 'offline')
        throw notFound('The offline test gateway is disabled: this shop takes payments through Stripe');
      return (gateway as OfflineGateway).confirm(input);
    },

    /** The offline stand-in for a bank's 3-D Secure page (a draw entry's authorisation). */
    authenticateOffline(input: OfflineAuthenticateInput) {
      if (gateway.provider !== 'offline')
        throw notFound('The offline test gateway is disabled: this shop takes payments through Stripe');
      return (gateway as OfflineGateway).authenticate(input);
    },

    /** Verified, each event id handled once; a succeeded intent becomes an order through fulfil. */
    async handleStripeWebhook(
      rawBody: Buffer,
      signature: string | undefined,
    ): Promise<{ received: true; duplicate?: true }> {
      if (gateway.provider !== 'stripe') throw notFound('Stripe is not configured');
      let event;
      try {
        event = gateway.parseWebhook(rawBody, signature);
      } catch (err) {
        if (err instanceof WebhookSignatureError)
          throw new HttpError(400, `Webhook signature verification failed: ${err.message}`);
        throw err;
      }
      const [fresh] = await db
        .insert(paymentEvents)
        .values({ id: event.id, type: event.type, paymentIntentId: event.intentId })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.id });
      if (!fresh) return { received: true, duplicate: true };
      try {
        if (event.type === 'payment_intent.succeeded' && event.intentId) {
          const result = await fulfilment.fulfil(event.intentId);
          log.info(
            { eventId: event.id, intentId: event.intentId, result: result.kind },
            'stripe webhook handled',
          );
        } else if (event.type === 'charge.refunded' && event.intentId && deps.afterSale) {
          await deps.afterSale.refunded(event.intentId);
          log.info({ eventId: event.id, intentId: event.intentId }, 'stripe refund recorded');
        } else if (event.type.startsWith('charge.dispute.') && event.intentId && event.dispute && deps.afterSale) {
          await deps.afterSale.disputed(event.intentId, event.dispute);
          log.info({ eventId: event.id, intentId: event.intentId, status: event.dispute.status }, 'stripe dispute recorded');
        }
      } catch (err) {
        // Forget the event so Stripe's retry is handled again.
        await db.delete(paymentEvents).where(eq(paymentEvents.id, event.id));
        throw err;
      }
      return { received: true };
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
