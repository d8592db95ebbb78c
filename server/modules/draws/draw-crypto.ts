import crypto from 'node:crypto';
import type { HmacSha256, Sha256 } from '../../../common/domain/draw';

// The random values of a draw and the server's own hashes for common/domain/draw.ts (node:crypto,
// synchronous; the pure code defaults to Web Crypto for the browser).

/** 32 random bytes as hex: a draw's seed. */
export const newSeed = (): string => crypto.randomBytes(32).toString('hex');

/** 128 random bits as hex: an entry's public id (what the published results name). */
export const newPublicId = (): string => crypto.randomBytes(16).toString('hex');

/**
 * An entry's link token, keyed by the shop's secret from the entry's public id (256 bits, base64url, 43
 * characters): only its SHA-256 is stored, yet the shop can mail the same link again
 * to an entrant whose first mail never came (docs/draw.md, Entering). Unguessable without the secret.
 */
export const linkTokenOf = (secret: string, publicId: string): string =>
  crypto.createHmac('sha256', secret).update(`draw entry link|${publicId}`).digest('base64url');

export const hashToken = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');

export const nodeSha256 = (hex: string): string => crypto.createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');

export const nodeHmac = (keyHex: string, message: string): string =>
  crypto.createHmac('sha256', Buffer.from(keyHex, 'hex')).update(message, 'utf8').digest('hex');

/** A keyed hash of a folded identity (ADR 013): comparable across entries, meaningless without the key. */
export function identityKey(secret: string, kind: 'mailbox' | 'delivery' | 'card', folded: string): string {
  return crypto.createHmac('sha256', secret).update(`draw ${kind}|${folded}`).digest('hex');
}

// Both fit the pure code's injected hash types.
export const serverHashes: { sha256: Sha256; hmac: HmacSha256 } = { sha256: nodeSha256, hmac: nodeHmac };
