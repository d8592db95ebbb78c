import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { badRequest } from '../../lib/http-error';
import type { KeyService } from '../../lib/keys';
import { spentPowChallenges } from './bot-check.tables';
import { verifySignedSolution } from './pow-verify';

/**
 * The proof of work (ADR 009): PBKDF2/SHA-256 at POW_COST iterations per try; the answer is a counter
 * picked at random in [tries / 2, tries × 1.5] (POW_TRIES, default 2,000), so a browser tries ~2,000 keys (a fraction of a
 * second on a laptop, about a second on a phone), while the server checks a solution with one HMAC.
 */
export const POW_ALGORITHM = 'PBKDF2/SHA-256';
export const POW_COST = 500;
/** Tries a solve takes on average (the POW_TRIES setting; lower only for load tests). */
export const POW_TRIES = 2_000;
/** A challenge must be solved and used within this long. */
export const POW_TTL_MS = 5 * 60_000;

export const BOT_CHECK_MESSAGES = {
  missing: 'The check that you are human is missing. Please try again.',
  invalid: 'The check that you are human failed. Please try again.',
  expired: 'The check that you are human expired. Please try again.',
  reused: 'The check that you are human was already used. Please try again.',
} as const;

/** HMAC keys of the challenges, derived from the session secret that every instance shares. */
function deriveSecret(keys: KeyService, purpose: string): string {
  return keys.derive(`fifty:pow:${purpose}`).toString('base64url');
}

function decodePayload(value: string): Payload | null {
  try {
    const payload = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as Payload;
    const ok =
      payload &&
      typeof payload === 'object' &&
      typeof payload.challenge?.signature === 'string' &&
      typeof payload.challenge.parameters === 'object' &&
      payload.challenge.parameters !== null &&
      typeof payload.solution?.counter === 'number' &&
      typeof payload.solution.derivedKey === 'string';
    return ok ? payload : null;
  } catch {
    return null;
  }
}

/**
 * Proof-of-work bot check with no third-party service (altcha-lib): signed, short-lived challenges,
 * each accepted once on any instance (the signature is spent in `spent_pow_challenges`).
 */
export function createBotCheckService(deps: { db: Db; keys: KeyService; now?: () => number; tries?: number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const tries = deps.tries ?? POW_TRIES;
  const hmacSignatureSecret = deriveSecret(deps.keys, 'signature');
  const hmacKeySignatureSecret = deriveSecret(deps.keys, 'key-signature');
  // Every protected request spends its challenge: built once, prepared on each connection.
  const spend = db
    .insert(spentPowChallenges)
    .values({ signature: sql.placeholder('signature'), expiresAt: sql.placeholder('expiresAt') })
    .onConflictDoNothing()
    .returning({ signature: spentPowChallenges.signature })
    .prepare('spent_pow_challenges_spend');

  return {
    /** A new challenge for GET /api/pow-challenge. */
    async challenge(): Promise<Challenge> {
      return createChallenge({
        algorithm: POW_ALGORITHM,
        cost: POW_COST,
        counter: randomInt(Math.ceil(tries / 2), Math.ceil(tries * 1.5)),
        deriveKey,
        expiresAt: new Date(now() + POW_TTL_MS),
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
    },

    /**
     * Accepts a solved challenge (base64 JSON `{ challenge, solution }`, as altcha sends it) once;
     * throws 400 { message } when it is missing, wrong, expired or already used.
     */
    async verify(value: string | null | undefined): Promise<void> {
      if (!value) throw badRequest(BOT_CHECK_MESSAGES.missing);
      const payload = decodePayload(value);
      if (!payload) throw badRequest(BOT_CHECK_MESSAGES.invalid);
      let result: { expired: boolean; verified: boolean } | null;
      try {
        // The library's check, with node:crypto's HMAC (pow-verify.ts); the library itself for a challenge
        // without a key signature (none of ours).
        result =
          verifySignedSolution(payload.challenge, payload.solution, { hmacSignatureSecret, hmacKeySignatureSecret }) ??
          (await verifySolution({
            challenge: payload.challenge,
            solution: payload.solution,
            deriveKey,
            hmacSignatureSecret,
            hmacKeySignatureSecret,
          }));
      } catch {
        throw badRequest(BOT_CHECK_MESSAGES.invalid);
      }
      if (result.expired) throw badRequest(BOT_CHECK_MESSAGES.expired);
      const expiresAt = payload.challenge.parameters.expiresAt;
      if (!result.verified || typeof expiresAt !== 'number') throw badRequest(BOT_CHECK_MESSAGES.invalid);
      const spent = await spend.execute({
        signature: payload.challenge.signature!,
        expiresAt: new Date(expiresAt * 1000),
      });
      if (spent.length === 0) throw badRequest(BOT_CHECK_MESSAGES.reused);
    },

    /** Forgets spent challenges that have expired anyway (the prune job). */
    async pruneSpent(): Promise<number> {
      const result = await db.delete(spentPowChallenges).where(lt(spentPowChallenges.expiresAt, sql`now()`));
      return result.rowCount ?? 0;
    },
  };
}

export type BotCheckService = ReturnType<typeof createBotCheckService>;
