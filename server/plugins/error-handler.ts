import type { FastifyError, FastifyInstance, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { HttpError } from '../lib/http-error';
import { INVALID_TEXT_MESSAGE } from '../../common/contracts/safe-string';
import { constraintOf, isDatabaseUnavailable, isStorageFailure, sqlState } from '../db/db-errors';
import { noteStorageFailure } from '../db/write-probe';

/** Seconds a client should wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_S = 5;
export const DATABASE_UNAVAILABLE_MESSAGE = 'The shop is briefly unavailable. Please try again in a few seconds.';
/** Disk full or an I/O error: the same advice, the shop cannot save anything right now. */
export const STORAGE_UNAVAILABLE_MESSAGE = 'The shop cannot save anything right now. Please try again in a few moments.';

const plainMessages: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send application/json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid content length',
};

function describeZodIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  const first = issues[0];
  if (!first) return 'Invalid request';
  const field = first.path.map(String).join('.');
  // Our own schemas carry user-facing messages; zod's defaults get the field name in front.
  return field && /^(Invalid|Expected|Too|Required|Unrecognized)/.test(first.message)
    ? `${field}: ${first.message}`
    : first.message;
}

/** Every failure answers JSON { message }: 4xx says what was wrong, 5xx hides internals. */
export function registerErrorHandler(app: FastifyInstance, opts: { notFoundCheck?: onRequestHookHandler } = {}): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof HttpError) {
      return reply.headers(error.headers).status(error.statusCode).send({ message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.split('/').filter(Boolean),
        message: v.message ?? 'Invalid value',
      }));
      return reply.status(400).send({ message: describeZodIssues(issues) });
    }
    if (error instanceof ZodError) {
      return reply.status(400).send({ message: describeZodIssues(error.issues) });
    }
    const fe = error as FastifyError;
    const status = fe.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = (fe.code && plainMessages[fe.code]) || fe.message || 'Bad request';
      return reply.status(status).send({ message });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ code: sqlState(error) ?? (error as { code?: string }).code }, 'database unavailable: answered 503');
      return reply
        .header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .header('cache-control', 'no-store')
        .status(503)
        .send({ message: DATABASE_UNAVAILABLE_MESSAGE });
    }
    if (isStorageFailure(error)) {
      // Disk full, an I/O error, out of memory: nothing the caller did; the write can be tried again.
      // /healthz turns red for a while too (db/write-probe.ts).
      noteStorageFailure();
      request.log.error({ code: sqlState(error) ?? (error as { code?: string }).code }, 'storage failure: answered 503');
      return reply
        .header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .header('cache-control', 'no-store')
        .status(503)
        .send({ message: STORAGE_UNAVAILABLE_MESSAGE });
    }
    const state = sqlState(error);
    // Text PostgreSQL cannot store (should have been refused by the contracts already).
    if (state === '22021' || state === '22P05') return reply.status(400).send({ message: INVALID_TEXT_MESSAGE });
    if (state === '23514' && constraintOf(error) === 'products_within_edition')
      return reply.status(409).send({ message: 'This edition has no pieces left to make' });
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });

  // An unknown path runs the checks every known route of its kind runs first (a foreign write is a 403, not a 404).
  const notFoundOptions = opts.notFoundCheck ? { preHandler: opts.notFoundCheck as unknown as preHandlerHookHandler } : {};
  app.setNotFoundHandler(notFoundOptions, (request, reply) => {
    reply.status(404).send({ message: `Not found: ${request.method} ${request.url.split('?')[0]}` });
  });
}
