import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { HttpError } from '../lib/http-error';

export const FORBIDDEN_KEY_MESSAGE = 'Request body contains a forbidden key (__proto__ or constructor.prototype)';
export const TOO_DEEP_MESSAGE = 'Request body is nested too deeply';

/** Every shopper's body (cart, checkout form, draw entry) is well under 2 KB: the default limit of every route. */
export const SHOPPER_BODY_LIMIT = 16 * 1024;
/** The owner's product form (5,000-character description, 20 images, sizes) and a payment provider's signed event. */
export const OWNER_BODY_LIMIT = 256 * 1024;
/** No contract nests past four levels; a deeper body is refused before it is parsed. */
export const MAX_JSON_DEPTH = 16;

/**
 * Routes whose callers send more than a shopper: the owner's (the admin login check runs in onRequest,
 * before any body is read; the login itself is a shopper-sized form) and signed webhooks. Image uploads
 * set their own limit on the route.
 */
export function bodyLimitFor(url: string): number | undefined {
  if (url.startsWith('/api/admin/') && url !== '/api/admin/login') return OWNER_BODY_LIMIT;
  if (url.startsWith('/api/webhooks/')) return OWNER_BODY_LIMIT;
  return undefined;
}

/**
 * Whether the JSON text opens more than `max` arrays or objects inside each other. One pass over the
 * characters that stops at the first level too deep, so a megabyte of `[[[[` costs microseconds, where
 * parsing it (and walking the result) would cost the event loop hundreds of milliseconds.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * JSON only: text/plain (what a cross-site HTML form can send without a preflight) is refused with 415.
 * An empty JSON body is read as {} because the spec's logout posts a JSON content type with no body.
 * Parsed as Fastify's own parser does, refusing `__proto__` and `constructor.prototype` keys, so a body
 * can never reach an object's prototype through a later merge or Object.assign (prototype poisoning).
 * Bodies are small (SHOPPER_BODY_LIMIT, 413 beyond; bodyLimitFor names the larger ones) and shallow.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= bodyLimitFor(route.url);
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(new HttpError(400, TOO_DEEP_MESSAGE), undefined);
    try {
      done(null, secureJson.parse(text, null, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      const poisoned = /forbidden prototype property/.test((err as Error).message);
      done(new HttpError(400, poisoned ? FORBIDDEN_KEY_MESSAGE : 'Request body is not valid JSON'), undefined);
    }
  });
}
