import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { createOfflineGateway } from './offline-gateway';
import type { PaymentGateway } from './payment-gateway';

/**
 * Stripe unless PAYMENTS=offline (config: Stripe when STRIPE_SECRET_KEY is set), else the offline test gateway.
 * The Stripe SDK is imported only when it is used (a separate chunk of the compiled server: idle memory).
 */
export async function createPaymentGateway(
  config: Config,
  db: Db,
  log: FastifyBaseLogger,
  runOutside?: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<PaymentGateway> {
  if (config.PAYMENTS === 'stripe' && config.STRIPE_SECRET_KEY) {
    const { createStripeGateway } = await import('./stripe-gateway');
    return createStripeGateway(
      {
        secretKey: config.STRIPE_SECRET_KEY,
        webhookSecret: config.STRIPE_WEBHOOK_SECRET,
        host: config.TEST_STRIPE_API_HOST,
        port: config.TEST_STRIPE_API_PORT,
        protocol: config.TEST_STRIPE_API_PROTOCOL,
        runOutside,
      },
      log,
    );
  }
  return createOfflineGateway(db, log);
}
