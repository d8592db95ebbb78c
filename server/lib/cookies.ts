import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';

/**
 * Every cookie the shop sets, by its base name (prefixed `__Host-` on https shops, `cookieName`). The names
 * are what browsers already hold: renaming one logs every shopper out of it.
 */
/** The shopper's session (signed, ADR 012). */
export const SESSION_COOKIE = 'fifty_sid';
/** A shopper's drop admission passes, `~`-separated tokens signed by the drops module (ADR 010). */
export const PASS_COOKIE = 'fifty_pass';
/**
 * The signed claims on returned pieces kept for the waiting list (ADR 011): set by a claim link, it makes
 * this browser's cart the only one that may take the reserved piece.
 */
export const CLAIM_COOKIE = 'fifty_claim';
/** The owner's known-device cookie (signed): a device seen before skips the new-device mail. */
export const KNOWN_DEVICE_COOKIE = 'fifty_admin_device';

/**
 * On an https shop (PUBLIC_URL https://…) cookies carry the `__Host-` prefix: the browser then only
 * accepts them Secure, for path /, without a Domain, so no sibling subdomain can plant or override one.
 */
export function cookieName(base: string, secureCookies: boolean): string {
  return secureCookies ? `__Host-${base}` : base;
}

type CookieSerializeOptions = NonNullable<Parameters<FastifyInstance['serializeCookie']>[2]>;

/**
 * The options every cookie of ours is written with: the whole site, never read by scripts, sent on
 * top-level navigations from elsewhere (lax), Secure when the shop or this request is on https (the
 * browser is on TLS even when the proxy talks plain HTTP to us). `maxAge` in whole seconds, rounded as the
 * caller's lifetime asks (the session rounds down, a pass up so it never lapses before its ticket).
 */
export function cookieOptions(
  request: FastifyRequest,
  secureCookies: boolean,
  maxAgeMs: number,
  round: (seconds: number) => number = Math.floor,
): CookieSerializeOptions & { sameSite: 'lax' } {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies || request.protocol === 'https',
    maxAge: round(maxAgeMs / 1000),
  };
}

/** The options that clear a cookie of ours (logout). */
export function clearedCookieOptions(request: FastifyRequest, secureCookies: boolean): CookieSerializeOptions {
  return { path: '/', secure: secureCookies || request.protocol === 'https', expires: new Date(0), maxAge: 0 };
}

// The parsed Cookie header lives in a decorated property (registerCookieCache), not a WeakMap keyed by
// request: WeakMap entries for short-lived objects are costly for the garbage collector on every request.
const kCookies = Symbol('fifty.cookies');
type CookieRequest = FastifyRequest & { [kCookies]: Record<string, string | undefined> | null };

/** Declares the per-request slot `requestCookies` fills (once, by the session plugin). */
export function registerCookieCache(app: FastifyInstance): void {
  app.decorateRequest(kCookies, null);
}

/**
 * This request's cookies, the Cookie header parsed once on first use (by @fastify/cookie's parser,
 * registered without its hook so a request that never asks parses nothing). The session, the signed
 * cookies and the request-scoped shopper all read from here.
 */
export function requestCookies(request: FastifyRequest): Readonly<Record<string, string | undefined>> {
  const req = request as CookieRequest;
  if (!req[kCookies]) {
    const header = request.headers.cookie;
    req[kCookies] = header ? request.server.parseCookie(header) : {};
  }
  return req[kCookies];
}
