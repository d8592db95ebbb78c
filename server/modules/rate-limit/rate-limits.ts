import crypto from 'node:crypto';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { HttpError } from '../../plugins/http-error';
import { SESSION_COOKIE } from '../../plugins/session';
import { pgRateLimitStore, type RateLimitCounter } from './rate-limit.store';

/** The routes that are rate-limited; a route names its own with `config: { rateLimited: '…' }`. */
export type LimitedAction =
  | 'cart-add'
  | 'payment-intent'
  | 'customer-info'
  | 'discount'
  | 'newsletter'
  | 'alerts'
  | 'drop-join'
  | 'drop-status'
  | 'stock-status';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Applies the limits of this action (rate-limits.ts) before the handler. */
    rateLimited?: LimitedAction;
  }
}

interface Limit {
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

interface ActionLimits {
  /** Strict: one shopper's session (the signed session cookie; requests without one skip it). */
  session: Limit;
  /** Strict: the shopper's identity named in the request (the newsletter's e-mail address). */
  identity?: Limit & { of: (request: FastifyRequest) => string | null };
  /** Generous: a network address (IPv6 by /64), shared by everyone behind one NAT; × RATE_LIMIT_ADDRESS_FACTOR. */
  address: Limit;
}

const MINUTE = 60_000;

/**
 * The numbers (docs/security.md, "Rate limits"). Per address they let 50 shoppers behind one address
 * (carrier NAT, campus, office) all go through a checkout in the same minute, several tries each.
 */
export const RATE_LIMITS: Record<LimitedAction, ActionLimits> = {
  'cart-add': { session: { max: 30, windowMs: MINUTE }, address: { max: 600, windowMs: MINUTE } },
  'customer-info': { session: { max: 10, windowMs: MINUTE }, address: { max: 300, windowMs: MINUTE } },
  discount: { session: { max: 10, windowMs: MINUTE }, address: { max: 300, windowMs: MINUTE } },
  'payment-intent': { session: { max: 10, windowMs: MINUTE }, address: { max: 300, windowMs: MINUTE } },
  // Joining a waiting room (each try also costs a proof of work; places per address are capped separately).
  'drop-join': { session: { max: 10, windowMs: MINUTE }, address: { max: 300, windowMs: MINUTE } },
  // Waiting-room status reads and stream opens (GET /api/drops/:id and …/events): the 2 s fallback poll of a
  // shopper whose stream was refused is 30 a minute; 50 such shoppers behind one NAT stay well inside.
  'drop-status': { session: { max: 120, windowMs: MINUTE }, address: { max: 3000, windowMs: MINUTE } },
  // Live stock reads and stream opens (GET /api/products/:id/stock and …/stock/events), the same budget.
  'stock-status': { session: { max: 120, windowMs: MINUTE }, address: { max: 3000, windowMs: MINUTE } },
  // 'Notify me' signups (issue 14 item 7): one address may ask about several pieces.
  alerts: {
    session: { max: 10, windowMs: MINUTE },
    identity: {
      max: 10,
      windowMs: 10 * MINUTE,
      of: (request) => {
        const email = (request.body as { email?: unknown } | undefined)?.email;
        return typeof email === 'string' && email ? email.toLowerCase() : null;
      },
    },
    address: { max: 100, windowMs: MINUTE },
  },
  newsletter: {
    session: { max: 5, windowMs: MINUTE },
    identity: {
      max: 3,
      windowMs: 10 * MINUTE,
      of: (request) => {
        const email = (request.body as { email?: unknown } | undefined)?.email;
        return typeof email === 'string' && email ? email.toLowerCase() : null;
      },
    },
    address: { max: 100, windowMs: MINUTE },
  },
};

export const tooManyRequestsMessage = (seconds: number) => `Too many requests. Please try again in ${seconds} seconds.`;

type LimitKind = 'session' | 'identity' | 'address';

/**
 * The counter's key: action and kind, then the value (session id, e-mail, address: IPv6 by its /64)
 * only as a hash, so the table holds no session ids, e-mail or network addresses.
 */
export const rateLimitKey = (action: LimitedAction, kind: LimitKind, value: string) =>
  `${action}:${kind}:${crypto
    .createHash('sha256')
    .update(kind === 'address' ? normalizeIP(value) : value)
    .digest('base64url')
    .slice(0, 22)}`;

export interface RateLimitOptions {
  counter: RateLimitCounter;
  /** Multiplies every per-address budget (RATE_LIMIT_ADDRESS_FACTOR). */
  addressFactor?: number;
  /** false turns every limit off (RATE_LIMITS=off: a proxy or CDN in front does it). */
  enabled?: boolean;
}

/**
 * @fastify/rate-limit with the PostgreSQL store, and the limits of each `rateLimited` route as a
 * preHandler (after validation, so the body is there): the strict limits (session, identity) are counted
 * first, and the address only when they pass, so one hammering session does not use up the budget of
 * everyone behind its address. A refusal is 429 with Retry-After and `{ message }`. When the store
 * fails (database away) the request goes through uncounted (`skipOnError`); the route itself then
 * decides (503 when it needs the database).
 */
export async function registerRateLimits(app: FastifyInstance, opts: RateLimitOptions): Promise<void> {
  if (opts.enabled === false) return;
  const addressFactor = opts.addressFactor ?? 1;
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    store: pgRateLimitStore(opts.counter),
    skipOnError: true,
  });

  type Check = ReturnType<FastifyInstance['createRateLimit']>;
  const limiter = (action: LimitedAction, kind: LimitKind, limit: Limit, value: (r: FastifyRequest) => string | null) => {
    const check: Check = app.createRateLimit({
      max: limit.max,
      timeWindow: limit.windowMs,
      keyGenerator: (request) => rateLimitKey(action, kind, value(request) ?? ''),
    });
    return async (request: FastifyRequest) => (value(request) === null ? null : check(request));
  };

  const handlers = new Map<LimitedAction, preHandlerAsyncHookHandler>();
  for (const [action, limits] of Object.entries(RATE_LIMITS) as Array<[LimitedAction, ActionLimits]>) {
    const strict = [
      limiter(action, 'session', limits.session, (r) => r.readSignedCookie(SESSION_COOKIE)),
      ...(limits.identity ? [limiter(action, 'identity', limits.identity, limits.identity.of)] : []),
    ];
    const address = limiter(
      action,
      'address',
      { max: Math.max(1, Math.round(limits.address.max * addressFactor)), windowMs: limits.address.windowMs },
      (r) => r.ip,
    );
    handlers.set(action, async (request) => {
      const refuse = (results: Array<Awaited<ReturnType<Check>> | null>) => {
        const exceeded = results.filter((r) => r && !r.isAllowed && r.isExceeded);
        if (exceeded.length === 0) return;
        const seconds = Math.max(1, ...exceeded.map((r) => (r && !r.isAllowed ? r.ttlInSeconds : 1)));
        throw new HttpError(429, tooManyRequestsMessage(seconds), {
          'retry-after': String(seconds),
          'cache-control': 'no-store',
        });
      };
      refuse(await Promise.all(strict.map((check) => check(request))));
      refuse([await address(request)]);
    });
  }

  app.addHook('onRoute', (route) => {
    const action = route.config?.rateLimited;
    if (!action) return;
    const handler = handlers.get(action);
    if (!handler) throw new Error(`Unknown rate-limited action ${action}`);
    const existing = route.preHandler;
    route.preHandler = [handler, ...(Array.isArray(existing) ? existing : existing ? [existing] : [])];
  });
}
