import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onSendHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { mailboxKey } from '../../../common/domain/identity';
import { watchStreamSlot } from '../../lib/event-stream-hub';
import { DEFAULT_IPV6_PREFIX, networkKey } from '../../lib/network-address';
import { HttpError } from '../../lib/http-error';
import { SESSION_COOKIE } from '../../lib/cookies';
import type { RateLimitCounter } from './rate-limit.store';

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
  | 'stock-status'
  | 'order-lookup';

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
  /** Strict: the shopper's identity named in the request (the e-mail address, as its folded mailbox). */
  identity?: Limit & { of: (request: FastifyRequest) => string | null };
  /** Generous: a network address (IPv6 by IPV6_PREFIX), shared by everyone behind one NAT; × RATE_LIMIT_ADDRESS_FACTOR. */
  address: Limit;
}

/** The e-mail of a request's body as one folded mailbox (common/domain/identity.ts): `a+1@` and `a+2@` are one. */
const mailboxOfBody = (request: FastifyRequest): string | null => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email ? mailboxKey(email) : null;
};

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
  // 'Notify me' signups: one address may ask about several pieces.
  alerts: {
    session: { max: 10, windowMs: MINUTE },
    identity: {
      max: 10,
      windowMs: 10 * MINUTE,
      of: mailboxOfBody,
    },
    address: { max: 100, windowMs: MINUTE },
  },
  // "Find my order" (order number + e-mail → the link by mail): per mailbox a few a quarter of an hour, so
  // nobody can flood a buyer's inbox with links or try order numbers against one address at speed.
  'order-lookup': {
    session: { max: 5, windowMs: MINUTE },
    identity: {
      max: 3,
      windowMs: 15 * MINUTE,
      of: mailboxOfBody,
    },
    address: { max: 100, windowMs: MINUTE },
  },
  newsletter: {
    session: { max: 5, windowMs: MINUTE },
    identity: {
      max: 3,
      windowMs: 10 * MINUTE,
      of: mailboxOfBody,
    },
    address: { max: 100, windowMs: MINUTE },
  },
};

export const tooManyRequestsMessage = (seconds: number) => `Too many requests. Please try again in ${seconds} seconds.`;

type LimitKind = 'session' | 'identity' | 'address';

/**
 * The counter's key: action and kind, then the value (session id, folded mailbox, network: IPv6 by
 * IPV6_PREFIX, server/lib/network-address.ts) only as a hash, so the table holds no session ids, e-mail
 * or network addresses.
 */
export const rateLimitKey = (action: LimitedAction, kind: LimitKind, value: string, ipv6Prefix = DEFAULT_IPV6_PREFIX) =>
  `${action}:${kind}:${crypto
    .createHash('sha256')
    .update(kind === 'address' ? networkKey(value, ipv6Prefix) : value)
    .digest('base64url')
    .slice(0, 22)}`;

/**
 * Answers that cost the shop next to nothing and therefore spend no budget: refused by validation, the
 * proof of work, a missing thing, a busy gate or a limit. Everything else (a success, a 409 after the
 * locks and reads of a real try, a declined card) is counted (ADR 013, "Only costly requests count").
 */
const UNCOUNTED = new Set([400, 401, 403, 404, 405, 406, 413, 414, 415, 429, 431, 503]);
export const isCountedStatus = (status: number) => !UNCOUNTED.has(status);

export interface RateLimitOptions {
  counter: RateLimitCounter;
  /** Multiplies every per-address budget (RATE_LIMIT_ADDRESS_FACTOR). */
  addressFactor?: number;
  /** false turns every limit off (RATE_LIMITS=off: a proxy or CDN in front does it). */
  enabled?: boolean;
  /** IPv6 addresses count by this prefix (IPV6_PREFIX, default 48). */
  ipv6Prefix?: number;
  /** Keys whose count this instance keeps in memory at most (the oldest are forgotten first). */
  maxKnownKeys?: number;
}

interface Known {
  /** The shared count the last answer of the table gave, plus this instance's requests not yet counted. */
  count: number;
  /** Requests of this window under way on this instance (at most the window's max: each one passed the check). */
  inFlight: number;
  resetAt: number;
}

interface ChargedKey {
  key: string;
  windowMs: number;
  /** The window the request was let in under: its in-flight place is that window's only. */
  window: Known;
  /** Still holds its in-flight place. */
  held: boolean;
}

interface Charge {
  keys: ChargedKey[];
  /** Its cost is known: counted (a stream once it holds a slot, else by its answer's status) or not. */
  settled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The limits this request passed, counted once its answer shows what it cost (rate-limits.ts). */
    rateLimitCharge?: Charge;
  }
}

/**
 * The limits of each `rateLimited` route, in two halves (ADR 009, amended by ADR 013):
 * - a preHandler (after validation) refuses with 429 + Retry-After when a key's window is already full,
 *   reading only what this instance knows of the shared counts: a refusal writes nothing, reads nothing;
 * - once the answer is known (onSend, before it leaves), a request that cost something is counted in the
 *   PostgreSQL table, one batched upsert per key (rate-limit.store.ts), whose answer refreshes what this
 *   instance knows. A request refused by validation, by the proof of work (checked after this preHandler
 *   but before any work), or by a limit is never counted, so junk cannot spend the budget of the real
 *   shoppers behind its address, and writes no row.
 * The strict limits (session, identity) come first and the address only when they pass. Requests of this
 * instance still under way count against the window too, so a burst cannot pass all at once; such an
 * in-flight place belongs to its window (a new window starts with none) and is given back as its count
 * lands (or at once when it costs nothing), or when the connection closes. A stream is counted once, when it
 * takes its slot (server/lib/event-stream-hub.ts): its reply is hijacked, so onSend and onResponse never
 * see it, and the hub's caps hold it from then on (docs/security.md, "Streams"). When the store fails
 * (database away) the request goes through uncounted; the route itself then decides.
 */
export async function registerRateLimits(app: FastifyInstance, opts: RateLimitOptions): Promise<void> {
  if (opts.enabled === false) return;
  const addressFactor = opts.addressFactor ?? 1;
  const ipv6Prefix = opts.ipv6Prefix ?? DEFAULT_IPV6_PREFIX;
  const maxKnownKeys = opts.maxKnownKeys ?? 100_000;
  const known = new Map<string, Known>();

  /** The key's current window, or none once it ended: an ended window's count and in-flight places go with it. */
  function entryOf(key: string, now: number): Known | undefined {
    const entry = known.get(key);
    if (entry && entry.resetAt <= now) {
      known.delete(key);
      return undefined;
    }
    return entry;
  }

  function forgetOldest(): void {
    if (known.size >= maxKnownKeys) known.delete(known.keys().next().value!);
  }

  function remember(key: string, count: number, ttlMs: number): void {
    const now = Date.now();
    const entry = entryOf(key, now);
    if (entry) {
      entry.count = count;
      entry.resetAt = now + ttlMs;
      return;
    }
    forgetOldest();
    known.set(key, { count, inFlight: 0, resetAt: now + ttlMs });
  }

  /** Counts one request for `key`; `counted` runs as the table answers (or fails), just before the news is kept. */
  function incr(key: string, windowMs: number, counted: () => void): Promise<void> {
    return new Promise((resolve) => {
      opts.counter.incr(key, windowMs, (err, res) => {
        counted();
        // A failed count lets the request through uncounted (fail open, ADR 009).
        if (!err && res) remember(key, res.current, res.ttl);
        resolve();
      });
    });
  }

  /** Seconds until `key` has room for one more request, or 0 when it has room now. */
  function waitFor(key: string, max: number, now: number): number {
    const entry = entryOf(key, now);
    if (!entry || entry.count + entry.inFlight < max) return 0;
    return Math.max(1, Math.ceil((entry.resetAt - now) / 1000));
  }

  function refuse(seconds: number): never {
    throw new HttpError(429, tooManyRequestsMessage(seconds), {
      'retry-after': String(seconds),
      'cache-control': 'no-store',
    });
  }

  /** Gives one in-flight place back, to the window it was taken in (if that window is still the current one). */
  function releaseKey(k: ChargedKey): void {
    if (!k.held) return;
    k.held = false;
    if (known.get(k.key) === k.window && k.window.inFlight > 0) k.window.inFlight--;
  }

  /**
   * The request's cost is known (`status`): counted once if it cost something. Each key's in-flight place
   * is given back in the same turn as the table's count arrives, so a request is never missing from both
   * (a burst cannot slip through between them).
   */
  async function settle(charge: Charge, status: number): Promise<void> {
    if (charge.settled) return;
    charge.settled = true;
    if (!isCountedStatus(status)) {
      for (const k of charge.keys) releaseKey(k);
      return;
    }
    await Promise.all(charge.keys.map((k) => incr(k.key, k.windowMs, () => releaseKey(k))));
  }

  type Check = { key: string; limit: Limit };
  const handlers = new Map<LimitedAction, preHandlerAsyncHookHandler>();
  for (const [action, limits] of Object.entries(RATE_LIMITS) as Array<[LimitedAction, ActionLimits]>) {
    const addressLimit = { max: Math.max(1, Math.round(limits.address.max * addressFactor)), windowMs: limits.address.windowMs };
    handlers.set(action, async (request, reply) => {
      const now = Date.now();
      const session = request.readSignedCookie(SESSION_COOKIE);
      const identity = limits.identity ? limits.identity.of(request) : null;
      const strict: Check[] = [
        ...(session ? [{ key: rateLimitKey(action, 'session', session), limit: limits.session }] : []),
        ...(identity && limits.identity ? [{ key: rateLimitKey(action, 'identity', identity), limit: limits.identity }] : []),
      ];
      const address: Check = { key: rateLimitKey(action, 'address', request.ip, ipv6Prefix), limit: addressLimit };
      const strictWait = Math.max(0, ...strict.map((c) => waitFor(c.key, c.limit.max, now)));
      if (strictWait > 0) refuse(strictWait);
      const addressWait = waitFor(address.key, address.limit.max, now);
      if (addressWait > 0) refuse(addressWait);
      const checks = [...strict, address];
      const keys = checks.map((c): ChargedKey => {
        let window = entryOf(c.key, now);
        if (!window) {
          forgetOldest();
          window = { count: 0, inFlight: 0, resetAt: now + c.limit.windowMs };
          known.set(c.key, window);
        }
        // Never above the window's max (the check above let it in with room for one).
        window.inFlight = Math.min(c.limit.max, window.inFlight + 1);
        return { key: c.key, windowMs: c.limit.windowMs, window, held: true };
      });
      const charge: Charge = { keys, settled: false };
      request.rateLimitCharge = charge;
      // A stream is counted once, as it takes its slot (it cost a slot and a read, even if its client leaves at
      // once); from then on the hub's caps hold it, and the reply may be hijacked (no onSend will run).
      watchStreamSlot(reply.raw, () => void settle(charge, 200));
      // However the request ends (answered, hijacked, the client gone), its places are given back.
      reply.raw.once('close', () => {
        for (const k of keys) releaseKey(k);
      });
    });
  }

  app.addHook('onRoute', (route) => {
    const action = route.config?.rateLimited;
    if (!action) return;
    const handler = handlers.get(action);
    if (!handler) throw new Error(`Unknown rate-limited action ${action}`);
    const existing = route.preHandler;
    route.preHandler = [handler, ...(Array.isArray(existing) ? existing : existing ? [existing] : [])];
    const onSend = route.onSend;
    // Counted before the answer leaves, so the shopper's next request already sees it.
    const counted: onSendHookHandler = async (request, reply, payload) => {
      if (request.rateLimitCharge) await settle(request.rateLimitCharge, reply.statusCode);
      return payload;
    };
    route.onSend = [...(Array.isArray(onSend) ? onSend : onSend ? [onSend] : []), counted];
  });
}
