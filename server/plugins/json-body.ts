import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-error';

/**
 * JSON only: text/plain (what a cross-site HTML form can send without a preflight) is refused with 415.
 * An empty JSON body is read as {} because the spec's logout posts a JSON content type with no body.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HttpError(400, 'Request body is not valid JSON'), undefined);
    }
  });
}
