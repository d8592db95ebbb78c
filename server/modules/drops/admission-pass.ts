import crypto from 'node:crypto';
import type { KeyService } from '../../lib/keys';

/**
 * Admission passes (ADR 010): a shopper let in gets an HMAC-signed token naming the product, the ticket
 * and its expiry, bound to the session (the session id is part of what is signed, not of the token, so
 * another session's pass does not verify). One httpOnly cookie carries the passes of several drops,
 * `~`-separated (PASS_COOKIE, server/lib/cookies.ts); the key is derived from the session secret for this
 * purpose only.
 */
/** Passes one cookie keeps (the newest; expired ones are dropped when a new one is added). */
const MAX_PASSES = 8;

export interface PassClaims {
  productId: string;
  ticketId: string;
  expiresAtMs: number;
}

export function createPassSigner(keys: KeyService) {
  const key = keys.derive('fifty:drop-admission-pass');
  const mac = (c: PassClaims, sessionId: string) =>
    crypto.createHmac('sha256', key).update(`v1|${c.productId}|${c.ticketId}|${sessionId}|${c.expiresAtMs}`).digest('base64url');

  function parse(token: string): (PassClaims & { mac: string }) | null {
    const parts = token.split('.');
    if (parts.length !== 5 || parts[0] !== 'v1') return null;
    const [, productId, ticketId, exp, signature] = parts as [string, string, string, string, string];
    const expiresAtMs = Number(exp);
    if (!/^\d{1,16}$/.test(exp) || !Number.isSafeInteger(expiresAtMs)) return null;
    return { productId, ticketId, expiresAtMs, mac: signature };
  }

  return {
    sign(claims: PassClaims, sessionId: string): string {
      return `v1.${claims.productId}.${claims.ticketId}.${claims.expiresAtMs}.${mac(claims, sessionId)}`;
    },

    /** The valid, unexpired pass for this product and session in the cookie value, or null. */
    verify(cookie: string | undefined | null, productId: string, sessionId: string | null, now: number): PassClaims | null {
      if (!cookie || !sessionId || cookie.length > 4096) return null;
      for (const token of cookie.split('~')) {
        const claims = parse(token);
        if (!claims || claims.productId !== productId || claims.expiresAtMs <= now) continue;
        const expected = Buffer.from(mac(claims, sessionId));
        const given = Buffer.from(claims.mac);
        if (expected.length === given.length && crypto.timingSafeEqual(expected, given))
          return { productId: claims.productId, ticketId: claims.ticketId, expiresAtMs: claims.expiresAtMs };
      }
      return null;
    },

    /** The cookie value with `token` added: other products' unexpired passes kept, this product's replaced. */
    merge(cookie: string | undefined | null, token: string, productId: string, now: number): string {
      const kept = (cookie && cookie.length <= 4096 ? cookie.split('~') : []).filter((t) => {
        const c = parse(t);
        return c !== null && c.productId !== productId && c.expiresAtMs > now;
      });
      return [...kept.slice(-(MAX_PASSES - 1)), token].join('~');
    },
  };
}

export type PassSigner = ReturnType<typeof createPassSigner>;
