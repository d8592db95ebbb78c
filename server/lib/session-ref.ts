import crypto from 'node:crypto';

/**
 * What answers show as `sessionId` (docs/product.md §3 cart item and customer info): a one-way digest of the
 * session id, stable for the session, so the raw id (a bearer credential) never appears in a body
 * that a script, a log or a browser extension could read.
 */
export function publicSessionRef(sid: string): string {
  return crypto.createHash('sha256').update(`fifty-session-ref:${sid}`).digest('base64url').slice(0, 32);
}
