import crypto from 'node:crypto';

/**
 * The one key service: every key the shop signs or hashes with comes from the session secret through
 * here, so two instances sharing the secret derive the same keys (a per-process random fallback would
 * let purchase limits, mailed links and cookies stop matching across instances). Built once per app
 * (server/services.ts) from the required session secret and handed to each module that needs a key.
 */
export interface KeyService {
  /**
   * HMAC-SHA256(secret, purpose): one independent key per purpose. The purpose strings are part of
   * stored hashes, mailed links and issued cookies: never rename one (server/lib/keys.test.ts pins them).
   */
  derive(purpose: string): Buffer;
  /**
   * The draw's entry-link tokens and identity hashes were keyed with the raw secret before keys were
   * derived per purpose; tokens are mailed and hashes are stored, so the draw keeps that one key to keep
   * them valid. Nothing else may use it.
   */
  drawEntrySecret(): string;
}

export function createKeyService(secret: string): KeyService {
  if (!secret) throw new Error('The key service needs the session secret');
  const keys = new Map<string, Buffer>();
  return {
    derive(purpose) {
      let key = keys.get(purpose);
      if (!key) {
        key = crypto.createHmac('sha256', secret).update(purpose).digest();
        keys.set(purpose, key);
      }
      // A copy: a caller that writes into its key never changes another's.
      return Buffer.from(key);
    },
    drawEntrySecret: () => secret,
  };
}
