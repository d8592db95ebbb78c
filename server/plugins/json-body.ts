import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { HttpError } from './http-error';

export const FORBIDDEN_KEY_MESSAGE = 'Request body contains a forbidden key (__proto__ or constructor.prototype)';

/**
 * JSON only: text/plain (what a cross-site HTML form can send without a preflight) is refused with 415.
 * An empty JSON body is read as {} because the spec's logout posts a JSON content type with no body.
 * Parsed as Fastify's own parser does, refusing `__proto__` and `constructor.prototype` keys, so a body
 * can never reach an object's prototype through a later merge or Object.assign (prototype poisoning).
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, secureJson.parse(text, null, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      const poisoned = /forbidden prototype property/.test((err as Error).message);
      done(new HttpError(400, poisoned ? FORBIDDEN_KEY_MESSAGE : 'Request body is not valid JSON'), undefined);
    }
  });
}
