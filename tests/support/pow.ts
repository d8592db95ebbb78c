import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

/** Solves a GET /api/pow-challenge answer as the storefront's worker does; returns the `altcha` field. */
export async function solvePow(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('proof-of-work challenge not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
