import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_IPV6_PREFIX, networkKey } from '../lib/network-address';
import { CLAIM_COOKIE, cookieName, PASS_COOKIE, requestCookies } from '../lib/cookies';

/**
 * Who is asking, as the buying path needs it (docs/architecture.md, Flows): read from the request once,
 * so services never read cookies. Every field is computed on first use: a catalogue read that never asks
 * pays nothing.
 */
export interface Shopper {
  /** The live session's id, or null (never creates one; the session plugin caches the read). */
  sessionId(): Promise<string | null>;
  /** The session's id, created (and its cookie set) when there is none. */
  ensureSessionId(): Promise<string>;
  /** The raw admission-pass cookie (`~`-separated tokens), or null; the drops module verifies each token. */
  readonly passes: string | null;
  /** The verified claim cookie (returned-piece claims), or null when absent or forged. */
  readonly claimToken: string | null;
  /** The network the request counts against: IPv4 as is, IPv6 by its prefix (server/lib/network-address.ts). */
  readonly address: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's shopper, parsed once on first use (server/plugins/shopper.ts). */
    readonly shopper: Shopper;
  }
}

const kShopper = Symbol('fifty.shopper');
type ShopperRequest = FastifyRequest & { [kShopper]: Shopper | null };

const UNSET = Symbol('unset');

function createShopper(request: FastifyRequest, passCookie: string, ipv6Prefix: number): Shopper {
  let passes: string | null | typeof UNSET = UNSET;
  let claimToken: string | null | typeof UNSET = UNSET;
  let address: string | null = null;
  return {
    sessionId: async () => (await request.getSession())?.sid ?? null,
    ensureSessionId: async () => (await request.ensureSession()).sid,
    get passes() {
      if (passes === UNSET) passes = requestCookies(request)[passCookie] || null;
      return passes;
    },
    get claimToken() {
      if (claimToken === UNSET) claimToken = request.readSignedCookie(CLAIM_COOKIE);
      return claimToken;
    },
    get address() {
      address ??= networkKey(request.ip, ipv6Prefix);
      return address;
    },
  };
}

/** Decorates every request with a lazy `request.shopper` (after registerSession: it reads the session). */
export function registerShopper(app: FastifyInstance, opts: { secureCookies?: boolean; ipv6Prefix?: number } = {}): void {
  const passCookie = cookieName(PASS_COOKIE, opts.secureCookies ?? false);
  const ipv6Prefix = opts.ipv6Prefix ?? DEFAULT_IPV6_PREFIX;
  app.decorateRequest(kShopper, null);
  app.decorateRequest('shopper', {
    getter(this: FastifyRequest) {
      const req = this as ShopperRequest;
      req[kShopper] ??= createShopper(this, passCookie, ipv6Prefix);
      return req[kShopper];
    },
  });
}
