import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny local stand-in for api.stripe.com, driven through the official SDK (host/port/protocol):
 * POST /v1/payment_intents, GET /v1/payment_intents/:id, POST /v1/payment_intents/:id/cancel, POST /v1/refunds
 * (whole or `amount`, with `metadata`), GET /v1/refunds?payment_intent=.
 * Idempotency-Key replays the first answer, like Stripe. Tests flip intents to succeeded with `succeed()`.
 * Manual capture (draw entries): a create with `confirm=true`, `capture_method=manual` and a `payment_method`
 * is authorised at once (`requires_capture`), or declined with a 402 for DECLINED_AT_AUTHORISATION;
 * POST /v1/payment_intents/:id/capture charges it, or declines with a 402 for DECLINED_AT_CAPTURE.
 * 3-D Secure: a payment method in REQUIRES_AUTHENTICATION leaves the intent in `requires_action` (nothing
 * held, no charge yet); `authenticate()` plays the shopper's step in Stripe.js (held, or back to
 * `requires_payment_method` when it fails).
 * Prepared (a draw entry's card before its confirmation): a create with a `payment_method` and no `confirm`
 * waits in `requires_confirmation` (no charge, nothing held); POST /v1/payment_intents/:id/confirm then
 * answers as a create with `confirm=true` would.
 */

export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
  /** The charge that paid it (an id; the object itself with `expand[]=latest_charge`). */
  latest_charge: string | null;
  capture_method?: string;
  payment_method?: string | null;
  next_action?: { type: 'use_stripe_sdk'; use_stripe_sdk: Record<string, string> } | null;
  last_payment_error?: { type: 'card_error'; code: string; message: string } | null;
}

/** Payment methods declined when confirmed (Stripe's test PaymentMethods of the same name). */
export const DECLINED_AT_AUTHORISATION = new Set(['pm_card_chargeDeclined', 'pm_card_visa_chargeDeclined']);
/** Authorised, then declined at capture (Stripe's 4000 0000 0000 0341, "attach succeeds, charge fails"). */
export const DECLINED_AT_CAPTURE = new Set(['pm_card_chargeCustomerFail']);
/** The bank asks for 3-D Secure (Stripe's 4000 0027 6000 3184 and 4000 0025 0000 3155). */
export const REQUIRES_AUTHENTICATION = new Set(['pm_card_threeDSecure2Required', 'pm_card_authenticationRequired']);

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  payment_intent: string;
  status: 'succeeded';
  metadata?: Record<string, string>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: Record<string, string>;
}

function parseForm(body: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(body)) out[k] = v;
  return out;
}

/** `metadata[checkoutId]=x` → { checkoutId: 'x' } */
function nested(params: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    const m = new RegExp(`^${prefix}\\[(.+)\\]$`).exec(k);
    if (m) out[m[1]!] = v;
  }
  return out;
}

export class FakeStripeServer {
  readonly intents = new Map<string, FakeIntent>();
  readonly refunds: FakeRefund[] = [];
  /** Card fingerprints of the charges `succeed()` made, by charge id. */
  readonly chargeCards = new Map<string, string>();
  readonly requests: RecordedRequest[] = [];
  private readonly replays = new Map<string, { status: number; body: unknown }>();
  private server: http.Server | null = null;
  port = 0;
  /** Answer this many upcoming intent creations with a 500 (an outage at the provider). */
  failCreates = 0;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const { status, payload } = this.handle(req, body);
        res.writeHead(status, {
          'content-type': 'application/json',
          'request-id': `req_${crypto.randomBytes(6).toString('hex')}`,
        });
        res.end(JSON.stringify(payload));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Environment for buildTestApp: the SDK talks to this server. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
      STRIPE_WEBHOOK_SECRET: 'whsec_test_fake',
      TEST_STRIPE_API_HOST: '127.0.0.1',
      TEST_STRIPE_API_PORT: String(this.port),
      TEST_STRIPE_API_PROTOCOL: 'http',
      ...extra,
    };
  }

  /** The shopper's card went through (what Stripe.js + the Payment Element would do). */
  succeed(id: string, card: { fingerprint?: string } = {}): FakeIntent {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`no fake intent ${id}`);
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    const chargeId = `ch_${crypto.randomBytes(12).toString('hex')}`;
    // Stripe gives every card its fingerprint; by default each payment here is a different card.
    this.chargeCards.set(chargeId, card.fingerprint ?? `fp_${crypto.randomBytes(8).toString('hex')}`);
    intent.latest_charge = chargeId;
    return intent;
  }

  /**
   * The shopper's 3-D Secure step in Stripe.js (handleNextAction): `complete` holds the amount (its charge
   * made, `requires_capture`), `fail` sends the intent back to `requires_payment_method` with nothing held.
   */
  authenticate(id: string, outcome: 'complete' | 'fail'): FakeIntent {
    const intent = this.intents.get(id);
    if (!intent || intent.status !== 'requires_action') throw new Error(`fake intent ${id} awaits no action`);
    intent.next_action = null;
    if (outcome === 'fail') {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = {
        type: 'card_error',
        code: 'payment_intent_authentication_failure',
        message:
          'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      };
      return intent;
    }
    const chargeId = `ch_${crypto.randomBytes(12).toString('hex')}`;
    this.chargeCards.set(chargeId, `fp_${intent.payment_method ?? 'card'}`);
    intent.latest_charge = chargeId;
    intent.status = intent.capture_method === 'manual' ? 'requires_capture' : 'succeeded';
    if (intent.status === 'succeeded') intent.amount_received = intent.amount;
    return intent;
  }

  /** The intent as GET answers it: `expand[]=latest_charge` puts the charge object in place of its id. */
  private expanded(intent: FakeIntent, query: URLSearchParams): unknown {
    const wanted = [...query.entries()].some(([k, v]) => k.startsWith('expand') && v === 'latest_charge');
    if (!wanted || !intent.latest_charge) return intent;
    const fingerprint = this.chargeCards.get(intent.latest_charge)!;
    return {
      ...intent,
      latest_charge: {
        id: intent.latest_charge,
        object: 'charge',
        amount: intent.amount,
        payment_intent: intent.id,
        payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242', fingerprint } },
      },
    };
  }

  /** A `payment_intent.succeeded` event payload as Stripe would post it. */
  event(
    id: string,
    type = 'payment_intent.succeeded',
    eventId = `evt_${crypto.randomBytes(8).toString('hex')}`,
  ): string {
    const intent = this.intents.get(id);
    return JSON.stringify({
      id: eventId,
      object: 'event',
      type,
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: intent ?? { id, object: 'payment_intent' } },
    });
  }

  /** A refund made by hand in the Stripe dashboard (no metadata of the shop's). */
  dashboardRefund(intentId: string, amount: number): FakeRefund {
    const refund: FakeRefund = { id: `re_${crypto.randomBytes(12).toString('hex')}`, object: 'refund', amount, payment_intent: intentId, status: 'succeeded', metadata: {} };
    this.refunds.push(refund);
    return refund;
  }

  /** A `charge.refunded` event of an intent's charge (as recent API versions send it: no refunds list on the charge). */
  chargeRefundedEvent(intentId: string, eventId = `evt_${crypto.randomBytes(8).toString('hex')}`): string {
    const intent = this.intents.get(intentId);
    const refunded = this.refunds.filter((r) => r.payment_intent === intentId).reduce((a, r) => a + r.amount, 0);
    return this.wrap(eventId, 'charge.refunded', {
      id: intent?.latest_charge ?? `ch_${crypto.randomBytes(8).toString('hex')}`,
      object: 'charge',
      amount: intent?.amount ?? 0,
      amount_refunded: refunded,
      refunded: refunded >= (intent?.amount ?? 0),
      payment_intent: intentId,
    });
  }

  /** A `charge.dispute.*` event: `created` opens it (needs_response), `closed` with `won` or `lost`. */
  disputeEvent(
    intentId: string,
    type: 'charge.dispute.created' | 'charge.dispute.closed' | 'charge.dispute.updated',
    dispute: { id: string; status?: string; amount?: number; reason?: string },
    eventId = `evt_${crypto.randomBytes(8).toString('hex')}`,
  ): string {
    const intent = this.intents.get(intentId);
    return this.wrap(eventId, type, {
      id: dispute.id,
      object: 'dispute',
      amount: dispute.amount ?? intent?.amount ?? 0,
      charge: intent?.latest_charge ?? null,
      payment_intent: intentId,
      reason: dispute.reason ?? 'fraudulent',
      status: dispute.status ?? 'needs_response',
    });
  }

  private wrap(eventId: string, type: string, object: unknown): string {
    return JSON.stringify({
      id: eventId,
      object: 'event',
      type,
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
    });
  }

  private handle(req: http.IncomingMessage, body: string): { status: number; payload: unknown } {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const params = parseForm(body);
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, idempotencyKey, params });
    if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_test_')) {
      return {
        status: 401,
        payload: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
      };
    }
    const replayKey = idempotencyKey ? `${req.method} ${url.pathname} ${idempotencyKey}` : null;
    if (replayKey && this.replays.has(replayKey)) {
      const r = this.replays.get(replayKey)!;
      return { status: r.status, payload: r.body };
    }
    const result = this.route(req.method ?? 'GET', url.pathname, params, url.searchParams);
    if (replayKey) this.replays.set(replayKey, { status: result.status, body: result.payload });
    return result;
  }

  private route(
    method: string,
    path: string,
    params: Record<string, string>,
    query: URLSearchParams = new URLSearchParams(),
  ): { status: number; payload: unknown } {
    const missing = (id: string) => ({
      status: 404,
      payload: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such payment_intent: '${id}'`,
          param: 'intent',
        },
      },
    });
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/payment_intents' && this.failCreates > 0) {
      this.failCreates--;
      return {
        status: 500,
        payload: { error: { type: 'api_error', message: 'Something went wrong on our end.' } },
      };
    }
    const cardError = (message: string) => ({
      status: 402,
      payload: { error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message } },
    });
    if (method === 'POST' && path === '/v1/payment_intents' && params.confirm === 'true' && params.payment_method) {
      const pm = params.payment_method;
      if (DECLINED_AT_AUTHORISATION.has(pm)) return cardError('Your card was declined.');
      const id = `pi_${crypto.randomBytes(12).toString('hex')}`;
      if (REQUIRES_AUTHENTICATION.has(pm)) {
        const waiting: FakeIntent = {
          id,
          object: 'payment_intent',
          amount: Number(params.amount),
          amount_received: 0,
          currency: params.currency ?? 'usd',
          status: 'requires_action',
          client_secret: `${id}_secret_${crypto.randomBytes(12).toString('hex')}`,
          metadata: nested(params, 'metadata'),
          created: Math.floor(Date.now() / 1000),
          livemode: false,
          latest_charge: null,
          capture_method: params.capture_method ?? 'automatic',
          payment_method: pm,
          next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } },
        };
        this.intents.set(id, waiting);
        return { status: 200, payload: waiting };
      }
      const chargeId = `ch_${crypto.randomBytes(12).toString('hex')}`;
      // The same PaymentMethod is the same card.
      this.chargeCards.set(chargeId, `fp_${pm}`);
      const manual = params.capture_method === 'manual';
      const intent: FakeIntent = {
        id,
        object: 'payment_intent',
        amount: Number(params.amount),
        amount_received: manual ? 0 : Number(params.amount),
        currency: params.currency ?? 'usd',
        status: manual ? 'requires_capture' : 'succeeded',
        client_secret: `${id}_secret_${crypto.randomBytes(12).toString('hex')}`,
        metadata: nested(params, 'metadata'),
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        latest_charge: chargeId,
        capture_method: params.capture_method ?? 'automatic',
        payment_method: pm,
      };
      this.intents.set(id, intent);
      return { status: 200, payload: this.expanded(intent, new URLSearchParams(params)) };
    }
    if (method === 'POST' && path === '/v1/payment_intents' && params.payment_method && params.confirm !== 'true') {
      const id = `pi_${crypto.randomBytes(12).toString('hex')}`;
      const pm = params.payment_method;
      const intent: FakeIntent = {
        id,
        object: 'payment_intent',
        amount: Number(params.amount),
        amount_received: 0,
        currency: params.currency ?? 'usd',
        status: 'requires_confirmation',
        client_secret: `${id}_secret_${crypto.randomBytes(12).toString('hex')}`,
        metadata: nested(params, 'metadata'),
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        latest_charge: null,
        capture_method: params.capture_method ?? 'automatic',
        payment_method: pm,
      };
      this.intents.set(id, intent);
      const wantsMethod = Object.entries(params).some(([k, v]) => k.startsWith('expand') && v === 'payment_method');
      return {
        status: 200,
        payload: wantsMethod
          ? { ...intent, payment_method: { id: pm, object: 'payment_method', card: { fingerprint: `fp_${pm}` } } }
          : intent,
      };
    }
    m = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path);
    if (m && method === 'POST') {
      const intent = this.intents.get(m[1]!);
      if (!intent) return missing(m[1]!);
      if (intent.status !== 'requires_confirmation') {
        return {
          status: 400,
          payload: {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: `This PaymentIntent's status is ${intent.status}.`,
            },
          },
        };
      }
      const pm = intent.payment_method ?? '';
      if (DECLINED_AT_AUTHORISATION.has(pm)) {
        intent.status = 'requires_payment_method';
        intent.last_payment_error = { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' };
        return cardError('Your card was declined.');
      }
      if (REQUIRES_AUTHENTICATION.has(pm)) {
        intent.status = 'requires_action';
        intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
        return { status: 200, payload: intent };
      }
      const chargeId = `ch_${crypto.randomBytes(12).toString('hex')}`;
      this.chargeCards.set(chargeId, `fp_${pm}`);
      intent.latest_charge = chargeId;
      intent.status = intent.capture_method === 'manual' ? 'requires_capture' : 'succeeded';
      if (intent.status === 'succeeded') intent.amount_received = intent.amount;
      return { status: 200, payload: this.expanded(intent, new URLSearchParams(params)) };
    }
    m = /^\/v1\/payment_intents\/([^/]+)\/capture$/.exec(path);
    if (m && method === 'POST') {
      const intent = this.intents.get(m[1]!);
      if (!intent) return missing(m[1]!);
      if (intent.status !== 'requires_capture') {
        return {
          status: 400,
          payload: {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: `This PaymentIntent could not be captured because it has a status of ${intent.status}.`,
            },
          },
        };
      }
      if (DECLINED_AT_CAPTURE.has(intent.payment_method ?? '')) return cardError('Your card was declined.');
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      return { status: 200, payload: intent };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const id = `pi_${crypto.randomBytes(12).toString('hex')}`;
      const intent: FakeIntent = {
        id,
        object: 'payment_intent',
        amount: Number(params.amount),
        amount_received: 0,
        currency: params.currency ?? 'usd',
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${crypto.randomBytes(12).toString('hex')}`,
        metadata: nested(params, 'metadata'),
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        latest_charge: null,
      };
      this.intents.set(id, intent);
      return { status: 200, payload: intent };
    }
    m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (m && method === 'GET') {
      const intent = this.intents.get(m[1]!);
      return intent ? { status: 200, payload: this.expanded(intent, query) } : missing(m[1]!);
    }
    m = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (m && method === 'POST') {
      const intent = this.intents.get(m[1]!);
      if (!intent) return missing(m[1]!);
      if (intent.status === 'succeeded' || (intent.status === 'canceled' && intent.capture_method === 'manual')) {
        return {
          status: 400,
          payload: {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: `This PaymentIntent has already ${intent.status === 'succeeded' ? 'succeeded' : 'been canceled'}.`,
            },
          },
        };
      }
      intent.status = 'canceled';
      return { status: 200, payload: intent };
    }
    if (method === 'GET' && path === '/v1/refunds') {
      const data = this.refunds.filter((r) => r.payment_intent === query.get('payment_intent'));
      return { status: 200, payload: { object: 'list', data, has_more: false, url: '/v1/refunds' } };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = this.intents.get(params.payment_intent ?? '');
      if (!intent) return missing(params.payment_intent ?? '');
      // A partial refund names its amount; never beyond what is left of the charge (Stripe's 400).
      const left = intent.amount - this.refunds.filter((r) => r.payment_intent === intent.id).reduce((a, r) => a + r.amount, 0);
      const amount = params.amount ? Number(params.amount) : left;
      if (amount > left || amount <= 0) {
        return {
          status: 400,
          payload: { error: { type: 'invalid_request_error', code: 'amount_too_large', message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})` } },
        };
      }
      const refund: FakeRefund = {
        id: `re_${crypto.randomBytes(12).toString('hex')}`,
        object: 'refund',
        amount,
        payment_intent: intent.id,
        status: 'succeeded',
        metadata: nested(params, 'metadata'),
      };
      this.refunds.push(refund);
      return { status: 200, payload: refund };
    }
    return {
      status: 404,
      payload: {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` },
      },
    };
  }
}
