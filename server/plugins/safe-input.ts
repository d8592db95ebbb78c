import type { FastifyInstance } from 'fastify';
import { findUnsafeText, INVALID_TEXT_MESSAGE } from '../../common/contracts/safe-string';
import { badRequest } from './http-error';

/**
 * Every route, with or without a contract: a NUL or a lone surrogate in a path parameter, the query
 * or a JSON body is a 400 before any handler runs (the contracts' safeString says the same per field).
 */
export function registerSafeInput(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const where =
      findUnsafeText(request.params, ['params']) ??
      findUnsafeText(request.query, ['query']) ??
      findUnsafeText(request.body, ['body']);
    if (where) throw badRequest(`${where.slice(1).join('.') || where[0]}: ${INVALID_TEXT_MESSAGE}`);
  });
}
