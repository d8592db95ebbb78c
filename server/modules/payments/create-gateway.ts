import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { createOfflineGateway } from './offline-gateway';
import type { PaymentGateway } from './payment-gateway';
import { createStripeGateway } from './stripe-gateway';

/** Stripe unless PAYMENTS=offline (config: Stripe when STRIPE_SECRET_KEY is set), else the offline test gateway. */
export function createPaymentGateway(
  config: Config,
  db: Db,
  log: FastifyBaseLogger,
  runOutside?: <T>(fn: () => Promise<T>) => Promise<T>,
): PaymentGateway {
  if (config.PAYMENTS === 'stripe' && config.STRIPE_SECRET_KEY) {
    return createStripeGateway(
      {
        secretKey: config.STRIPE_SECRET_KEY,
        webhookSecret: config.STRIPE_WEBHOOK_SECRET,
        host: config.STRIPE_API_HOST,
        port: config.STRIPE_API_PORT,
        protocol: config.STRIPE_API_PROTOCOL,
        runOutside,
      },
      log,
    );
  }
  return createOfflineGateway(db, log);
}
