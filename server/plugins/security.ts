import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { takesBody } from './safe-input';
import type { Config } from '../config';
import { forbidden } from '../lib/http-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Paths called by other servers (signed by them), not by browsers on our pages. */
const ORIGIN_EXEMPT = [/^\/api\/webhooks\//];

function ownOrigins(config: Config, request: FastifyRequest): Set<string> {
  const origins = new Set<string>();
  if (config.PUBLIC_URL) origins.add(new URL(config.PUBLIC_URL).origin);
  // request.host honours X-Forwarded-Host only from a TRUST_PROXY peer; anyone else gets their Host.
  const host = request.host;
  if (host) origins.add(`${request.protocol}://${host}`);
  return origins;
}

/** HSTS once the owner has said the shop lives on https (PUBLIC_URL): browsers then never try plain HTTP. */
export function hstsHeader(config: Config): Record<string, string> {
  return config.PUBLIC_URL?.startsWith('https:') ? { 'strict-transport-security': 'max-age=31536000' } : {};
}

/** `{ defaultSrc: ["'self'"] }` → `default-src 'self'` */
function serializeCsp(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${values.join(' ')}`)
    .join('; ');
}

/**
 * Helmet's header set, computed once. @fastify/helmet rebuilds the helmet middleware (and re-parses
 * the CSP) on every request, which cost as much as Fastify itself (bench/README.md, "Before and what changed").
 */
export function securityHeaders(config: Config): Record<string, string> {
  const stripe = config.PAYMENTS === 'stripe';
  const s3 = config.S3_ENDPOINT ? [new URL(config.S3_ENDPOINT).origin] : [];
  const csp = serializeCsp({
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...(stripe ? ['https://js.stripe.com'] : [])],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...s3, ...(stripe ? ['https://*.stripe.com'] : [])],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...s3, ...(stripe ? ['https://api.stripe.com'] : [])],
    frameSrc: stripe ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : ["'none'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  });
  return {
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    // HSTS only when PUBLIC_URL is https: sent from a plain-HTTP self-hosted shop it would break it.
    ...hstsHeader(config),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

/**
 * JSON answers are never rendered as documents: the OWASP REST set (nothing may load, nothing may
 * frame, no sniffing, no cross-origin reads) in 5 headers instead of 11. Every header costs time on
 * every response of the hottest endpoints.
 */
export const API_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * Cross-site request forgery: a state change (any method but GET, HEAD, OPTIONS) must come from our own
 * pages. Per route for the routes that take a body (registerSecurity), and for unknown paths through the
 * not-found handler (plugins/error-handler.ts), so a foreign write is a 403 wherever it is aimed.
 */
export function foreignOriginCheck(config: Config): onRequestHookHandler {
  return (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const origin = request.headers.origin;
    const foreign = origin ? !ownOrigins(config, request).has(origin) : request.headers['sec-fetch-site'] === 'cross-site';
    done(foreign ? forbidden('Cross-origin request refused') : undefined);
  };
}

/** The images an order or drop mail embeds: uploads (product photos, demo art) and the shop's mark. */
export function isMailImage(url: string): boolean {
  return url.startsWith('/uploads/') || url === '/mail-mark.png';
}

export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const pageHeaders = securityHeaders(config);
  const apiHeaders = { ...API_SECURITY_HEADERS, ...hstsHeader(config) };
  // Every response, errors and unknown paths included, so the one hook that stays global.
  // Synchronous: no promise per request on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : pageHeaders);
    // Product images and the mail mark are shown inside mail clients: a webmail page on another
    // origin must be allowed to load them (the piece's picture in an order mail), nothing else.
    if (isMailImage(request.url)) reply.header('cross-origin-resource-policy', 'cross-origin');
    done();
  });

  // Cross-site request forgery: a state change must come from our own pages. Only routes that change
  // state (any method but GET, HEAD, OPTIONS) get the check, as they are registered: a catalogue read
  // or a page runs no hook for it (bench/README.md, "Every hook earns its cost").
  const refuseForeign = foreignOriginCheck(config);
  app.addHook('onRoute', (route) => {
    if (!takesBody(route) || ORIGIN_EXEMPT.some((re) => re.test(route.url))) return;
    const existing = route.onRequest;
    route.onRequest = [refuseForeign, ...(Array.isArray(existing) ? existing : existing ? [existing] : [])];
  });
}
