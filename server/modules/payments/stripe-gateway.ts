import Stripe from 'stripe';
import type { FastifyBaseLogger } from 'fastify';
import {
  RefundRefusedError,
  WebhookSignatureError,
  authorisationStateOf,
  type GatewayRefund,
  type AuthorisationView,
  type GatewayIntent,
  type CaptureResult,
  type IntentStatus,
  type PaymentGateway,
  type VoidResult,
} from './payment-gateway';

export interface StripeGatewayOptions {
  secretKey: string;
  webhookSecret?: string;
  /** Tests point the SDK at a local fake Stripe server. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  /** Runs a network call outside the request gate (see request-gate.ts); default: as is. */
  runOutside?: <T>(fn: () => Promise<T>) => Promise<T>;
}

/** Stripe's signature timestamps older than this are refused (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

function toIntent(pi: Stripe.PaymentIntent): GatewayIntent {
  // Retrieved with `expand: ['latest_charge']`: the card's fingerprint is on the charge that paid.
  const charge = pi.latest_charge && typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  return {
    id: pi.id,
    clientSecret: pi.client_secret,
    status: pi.status as IntentStatus,
    amount: pi.amount,
    metadata: (pi.metadata ?? {}) as Record<string, string>,
    cardFingerprint: charge?.payment_method_details?.card?.fingerprint ?? null,
  };
}

function toRefund(r: Stripe.Refund): GatewayRefund {
  return { id: r.id, amount: r.amount, status: (r.status ?? 'pending') as GatewayRefund['status'], metadata: (r.metadata ?? {}) as Record<string, string> };
}

/** Stripe's answer when an intent is not in a state the call needs (captured, cancelled…). */
function isUnexpectedState(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeError && err.code === 'payment_intent_unexpected_state';
}

function isMissing(err: unknown): boolean {
  return (
    err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing')
  );
}

/** The real provider, through the official SDK; used when STRIPE_SECRET_KEY is set. */
export function createStripeGateway(opts: StripeGatewayOptions, log: FastifyBaseLogger): PaymentGateway {
  const remote = opts.runOutside ?? (<T>(fn: () => Promise<T>) => fn());
  const stripe = new Stripe(opts.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(opts.host ? { host: opts.host } : {}),
    ...(opts.port ? { port: opts.port } : {}),
    ...(opts.protocol ? { protocol: opts.protocol } : {}),
  });

  async function retrieveIntent(id: string): Promise<GatewayIntent | null> {
    try {
      return toIntent(await remote(() => stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] })));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  return {
    provider: 'stripe',
    retrieveIntent,

    async createIntent({ amountCents, metadata, idempotencyKey }) {
      const pi = await remote(() =>
        stripe.paymentIntents.create(
          { amount: amountCents, currency: 'usd', metadata, automatic_payment_methods: { enabled: true } },
          { idempotencyKey },
        ),
      );
      return toIntent(pi);
    },

    async cancelIntent(id) {
      try {
        await remote(() => stripe.paymentIntents.cancel(id, {}, { idempotencyKey: `cancel-${id}` }));
      } catch (err) {
        log.warn({ err, intentId: id }, 'stripe: could not cancel a replaced payment intent');
      }
    },

    async refund(id) {
      await remote(() => stripe.refunds.create({ payment_intent: id }, { idempotencyKey: `refund-${id}` }));
    },

    // Partial refunds (after the sale, ADR 021): the shop's record id rides in the refund's metadata, so the
    // charge.refunded event and the refund list name the record it settles.
    async refundPayment({ intentId, amountCents, idempotencyKey, metadata }) {
      try {
        const r = await remote(() =>
          stripe.refunds.create({ payment_intent: intentId, amount: amountCents, metadata }, { idempotencyKey }),
        );
        return toRefund(r);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && !isMissing(err)) throw new RefundRefusedError(err.message);
        throw err;
      }
    },

    async listRefunds(intentId) {
      return remote(async () => {
        const refunds: GatewayRefund[] = [];
        for await (const r of stripe.refunds.list({ payment_intent: intentId, limit: 100 })) refunds.push(toRefund(r));
        return refunds;
      });
    },

    // Manual capture (docs/draw.md): the entry's card is authorised with capture_method=manual and confirmed at
    // once with the PaymentMethod Stripe.js made; capture and cancel are idempotent per intent.
    async authorise({ amountCents, metadata, idempotencyKey, card }) {
      if (card.kind !== 'stripe') {
        return { ok: false, code: 'invalid_request', message: 'Please pay with a card through the payment form.' };
      }
      let pi: Stripe.PaymentIntent;
      try {
        pi = await remote(() =>
          stripe.paymentIntents.create(
            {
              amount: amountCents,
              currency: 'usd',
              metadata,
              capture_method: 'manual',
              confirm: true,
              payment_method: card.paymentMethodId,
              // No redirect away from the shop: a bank's 3-D Secure check runs in Stripe.js's own dialog
              // (handleNextAction with the client secret), so the next action is Stripe.js's.
              automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
              use_stripe_sdk: true,
              expand: ['latest_charge'],
            },
            { idempotencyKey },
          ),
        );
      } catch (err) {
        if (err instanceof Stripe.errors.StripeCardError) {
          return { ok: false, code: err.code ?? 'card_declined', message: err.message };
        }
        throw err;
      }
      if (pi.status === 'requires_action' && pi.client_secret) {
        // The bank asks for 3-D Secure: nothing is held until the shopper confirms in the browser. The intent
        // stays as it is (cancelling it would end the check); an unused one is voided by the entry flow.
        return { ok: 'requires_action', authorisationId: pi.id, clientSecret: pi.client_secret };
      }
      if (pi.status !== 'requires_capture') {
        // Any other extra step (none is expected for cards): nothing stays held.
        await remote(() => stripe.paymentIntents.cancel(pi.id, {}, { idempotencyKey: `void-${pi.id}` })).catch(() => undefined);
        return { ok: false, code: 'authentication_required', message: 'Your card needs an extra check we cannot do here. Please try another card.' };
      }
      const intent = toIntent(pi);
      return { ok: true, authorisationId: pi.id, amount: pi.amount, cardFingerprint: intent.cardFingerprint ?? null };
    },

    // A draw entry's card until its confirmation (docs/draw.md): the intent is created with the PaymentMethod
    // and not confirmed, so no charge or authorisation reaches the card network; confirmAuthorisation does.
    async prepareAuthorisation({ amountCents, metadata, idempotencyKey, card }) {
      if (card.kind !== 'stripe') {
        return { ok: false, code: 'invalid_request', message: 'Please pay with a card through the payment form.' };
      }
      try {
        const pi = await remote(() =>
          stripe.paymentIntents.create(
            {
              amount: amountCents,
              currency: 'usd',
              metadata,
              capture_method: 'manual',
              payment_method: card.paymentMethodId,
              automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
              expand: ['payment_method'],
            },
            { idempotencyKey },
          ),
        );
        const pm = pi.payment_method && typeof pi.payment_method === 'object' ? pi.payment_method : null;
        return { ok: true, authorisationId: pi.id, cardFingerprint: pm?.card?.fingerprint ?? null };
      } catch (err) {
        // An unusable PaymentMethod id (made for another account, used before): nothing reached the bank.
        if (err instanceof Stripe.errors.StripeInvalidRequestError || err instanceof Stripe.errors.StripeCardError) {
          return { ok: false, code: err.code ?? 'invalid_request', message: 'Please enter your card again.' };
        }
        throw err;
      }
    },

    async confirmAuthorisation(authorisationId) {
      let pi = await remote(() => stripe.paymentIntents.retrieve(authorisationId, { expand: ['latest_charge'] }));
      if (pi.status === 'requires_confirmation') {
        try {
          pi = await remote(() =>
            stripe.paymentIntents.confirm(
              authorisationId,
              { use_stripe_sdk: true, expand: ['latest_charge'] },
              { idempotencyKey: `confirm-${authorisationId}` },
            ),
          );
        } catch (err) {
          if (err instanceof Stripe.errors.StripeCardError) {
            return { ok: false, code: err.code ?? 'card_declined', message: err.message };
          }
          throw err;
        }
      }
      if (pi.status === 'requires_capture' || pi.status === 'succeeded') {
        return { ok: true, authorisationId: pi.id, amount: pi.amount, cardFingerprint: toIntent(pi).cardFingerprint ?? null };
      }
      if (pi.status === 'requires_action' && pi.client_secret) {
        return { ok: 'requires_action', authorisationId: pi.id, clientSecret: pi.client_secret };
      }
      // Declined before (back to requires_payment_method), released, or a step we cannot do here.
      return { ok: false, code: pi.last_payment_error?.code ?? 'card_declined', message: 'Your card was declined.' };
    },

    async retrieveAuthorisation(authorisationId): Promise<AuthorisationView | null> {
      const intent = await retrieveIntent(authorisationId);
      if (!intent) return null;
      return {
        id: intent.id,
        state: authorisationStateOf(intent.status),
        amount: intent.amount,
        metadata: intent.metadata,
        cardFingerprint: intent.cardFingerprint ?? null,
      };
    },

    async capture(authorisationId): Promise<CaptureResult> {
      const before = await remote(() => stripe.paymentIntents.retrieve(authorisationId));
      if (before.status === 'succeeded') return { kind: 'already_captured', amount: before.amount_received };
      if (before.status !== 'requires_capture') {
        return { kind: 'failed', code: 'authorisation_voided', message: 'This authorisation was released and can no longer be captured.' };
      }
      try {
        const pi = await remote(() =>
          stripe.paymentIntents.capture(authorisationId, {}, { idempotencyKey: `capture-${authorisationId}` }),
        );
        return { kind: 'captured', amount: pi.amount_received };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeCardError) {
          return { kind: 'failed', code: err.code ?? 'card_declined', message: err.message };
        }
        if (!isUnexpectedState(err)) throw err;
        // Captured (or released) by another call in the meantime: say which.
        const after = await remote(() => stripe.paymentIntents.retrieve(authorisationId));
        if (after.status === 'succeeded') return { kind: 'already_captured', amount: after.amount_received };
        return { kind: 'failed', code: 'authorisation_voided', message: 'This authorisation was released and can no longer be captured.' };
      }
    },

    async voidAuthorisation(authorisationId): Promise<VoidResult> {
      try {
        await remote(() => stripe.paymentIntents.cancel(authorisationId, {}, { idempotencyKey: `void-${authorisationId}` }));
        return 'voided';
      } catch (err) {
        if (!isUnexpectedState(err)) throw err;
        const pi = await remote(() => stripe.paymentIntents.retrieve(authorisationId));
        return pi.status === 'succeeded' ? 'captured' : 'already_voided';
      }
    },

    async listSucceeded(ids) {
      const found: string[] = [];
      // A handful at a time: stay far below Stripe's rate limit.
      for (let i = 0; i < ids.length; i += 5) {
        const batch = await Promise.all(
          ids.slice(i, i + 5).map((id) => retrieveIntent(id).catch(() => null)),
        );
        for (const intent of batch) if (intent?.status === 'succeeded') found.push(intent.id);
      }
      return found;
    },

    parseWebhook(rawBody, signature) {
      if (!opts.webhookSecret) throw new WebhookSignatureError('STRIPE_WEBHOOK_SECRET is not configured');
      if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          opts.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
        );
      } catch (err) {
        throw new WebhookSignatureError((err as Error).message);
      }
      const object = event.data.object as {
        object?: string;
        id?: string;
        payment_intent?: string | { id: string } | null;
        amount?: number;
        reason?: string;
        status?: string;
      };
      // A charge's or a dispute's payment (charge.refunded, charge.dispute.*) is its payment_intent.
      const paidBy = typeof object.payment_intent === 'string' ? object.payment_intent : (object.payment_intent?.id ?? null);
      return {
        id: event.id,
        type: event.type,
        intentId: object.object === 'payment_intent' && object.id ? object.id : paidBy,
        ...(object.object === 'dispute' && object.id
          ? { dispute: { id: object.id, amount: object.amount ?? 0, reason: object.reason ?? 'general', status: object.status ?? 'needs_response' } }
          : {}),
      };
    },

    onSucceeded() {
      // Stripe tells the shop through its webhook instead.
    },
  };
}
