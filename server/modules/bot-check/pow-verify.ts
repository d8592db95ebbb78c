import crypto from 'node:crypto';
import type { Challenge, Solution } from 'altcha-lib';

/**
 * altcha-lib's `verifySolution` (v2), the signed-key path, with node:crypto's HMAC instead of WebCrypto.
 *
 * Why: every join, entry and signup checks one proof of work, and the library's check runs two WebCrypto HMACs
 * (importKey + sign each, through the thread pool), many times the cost of node:crypto's one synchronous HMAC
 * of the same bytes (bench/README.md, "Figures that were in code comments"). ADR 009 (amendment) says why
 * this one function is ours.
 *
 * The steps and their answers are the library's (node_modules/altcha-lib/dist/esm/v2/pow.js, verifySolution):
 *   1. expired    — parameters.expiresAt (seconds) is in the past
 *   2. signature  — HMAC-SHA256(canonical JSON of the parameters, signature secret) must equal the signature
 *   3. solution   — a lower-case hex derived key and a uint32 counter
 *   4. key        — HMAC-SHA256(derived key bytes, key-signature secret) must equal parameters.keySignature
 * A challenge without a key signature (never one of ours: bot-check.service signs every key) answers null, and
 * the caller asks the library. pow-verify.test.ts holds this function to the library's answers.
 */
export type FastVerdict = { expired: boolean; verified: boolean } | null;

export function verifySignedSolution(
  challenge: Challenge,
  solution: Solution,
  secrets: { hmacSignatureSecret: string; hmacKeySignatureSecret: string },
  nowMs: number = Date.now(),
): FastVerdict {
  const params = challenge.parameters;
  if (!params.keySignature) return null;
  if (params.expiresAt && params.expiresAt < nowMs / 1_000) return { expired: true, verified: false };
  if (!challenge.signature) return { expired: false, verified: false };
  const signature = hmacHex(secrets.hmacSignatureSecret, canonicalJSON(params));
  if (!equalText(challenge.signature, signature)) return { expired: false, verified: false };
  if (
    typeof solution?.derivedKey !== 'string' ||
    !/^(?:[0-9a-f]{2})+$/.test(solution.derivedKey) ||
    !Number.isInteger(solution.counter) ||
    solution.counter < 0 ||
    solution.counter > 0xffffffff
  ) {
    return { expired: false, verified: false };
  }
  const keySignature = hmacHex(secrets.hmacKeySignatureSecret, Buffer.from(solution.derivedKey, 'hex'));
  return { expired: false, verified: equalText(params.keySignature, keySignature) };
}

function hmacHex(secret: string, data: string | Buffer): string {
  return crypto.createHmac('sha256', secret).update(data).digest('hex');
}

/** Equal strings, compared in constant time (the library's constantTimeEqual). */
function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** The library's canonicalJSON: keys sorted at every depth, undefined values left out. */
function canonicalJSON(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  // Object.fromEntries as the library does (an own "__proto__" key stays a key).
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .flatMap((key) => {
        const v = (value as Record<string, unknown>)[key];
        return v === undefined ? [] : [[key, sortKeys(v)]];
      }),
  );
}
