import type { FastifyInstance, preValidationHookHandler, RouteOptions } from 'fastify';
import { findUnsafeText, INVALID_TEXT_MESSAGE } from '../../common/contracts/safe-string';
import { badRequest } from '../lib/http-error';

const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A route that can be sent a body (any method but GET, HEAD and OPTIONS). */
export function takesBody(route: Pick<RouteOptions, 'method'>): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.some((m) => !BODILESS.has(m.toUpperCase()));
}

const refuse = (where: string[]) => badRequest(`${where.slice(1).join('.') || where[0]}: ${INVALID_TEXT_MESSAGE}`);

/** A route that takes a body: NUL or a lone surrogate in the path parameters, the query or the JSON body is a 400. */
const screenAll: preValidationHookHandler = (request, _reply, done) => {
  const where =
    findUnsafeText(request.params, ['params']) ??
    findUnsafeText(request.query, ['query']) ??
    findUnsafeText(request.body, ['body']);
  done(where ? refuse(where) : undefined);
};

/** A read with path parameters: the parameters, and the query when the URL has one. */
const screenParamsAndQuery: preValidationHookHandler = (request, _reply, done) => {
  const where = findUnsafeText(request.params, ['params']) ?? (request.url.includes('?') ? findUnsafeText(request.query, ['query']) : null);
  done(where ? refuse(where) : undefined);
};

/** A read without path parameters (a catalogue list): only a query, when the URL has one. */
const screenQuery: preValidationHookHandler = (request, _reply, done) => {
  const where = request.url.includes('?') ? findUnsafeText(request.query, ['query']) : null;
  done(where ? refuse(where) : undefined);
};

/**
 * Every route, with or without a contract: a NUL or a lone surrogate in a path parameter, the query (any
 * key, named by the contract or not) or a JSON body is a 400 before any handler runs (the contracts'
 * safeString says the same per field). Chosen per route as routes are registered (bench/README.md,
 * "Every hook earns its cost"): a read screens no body and a list without a query string costs one
 * string search; synchronous, so no promise per request.
 */
export function registerSafeInput(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const screen = takesBody(route) ? screenAll : /[:*]/.test(route.url) ? screenParamsAndQuery : screenQuery;
    const existing = route.preValidation;
    route.preValidation = [screen, ...(Array.isArray(existing) ? existing : existing ? [existing] : [])];
  });
}
