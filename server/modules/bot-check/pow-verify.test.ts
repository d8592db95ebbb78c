import { createChallenge, solveChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, test } from 'vitest';
import { POW_ALGORITHM, POW_COST } from './bot-check.service';
import { verifySignedSolution } from './pow-verify';

// The fast check must give the library's answer for every input: solved, tampered, expired, malformed.
const secrets = { hmacSignatureSecret: 'signature-secret-0123456789', hmacKeySignatureSecret: 'key-secret-0123456789' };

async function solved(expiresInMs = 60_000): Promise<{ challenge: Challenge; solution: Solution }> {
  const challenge = await createChallenge({
    algorithm: POW_ALGORITHM,
    cost: POW_COST,
    counter: 3,
    deriveKey,
    expiresAt: new Date(Date.now() + expiresInMs),
    ...secrets,
  });
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('not solved');
  return { challenge, solution };
}

async function libraryVerdict(challenge: Challenge, solution: Solution) {
  const r = await verifySolution({ challenge, solution, deriveKey, ...secrets });
  return { expired: r.expired, verified: r.verified };
}

describe('proof-of-work check with node:crypto (pow-verify.ts) gives the library verdict', () => {
  test('a solved challenge is verified, by both', async () => {
    const { challenge, solution } = await solved();
    expect(verifySignedSolution(challenge, solution, secrets)).toEqual({ expired: false, verified: true });
    expect(await libraryVerdict(challenge, solution)).toEqual({ expired: false, verified: true });
  });

  test('every tampering and malformed answer: same verdict as the library, never verified', async () => {
    const { challenge, solution } = await solved();
    const other = await solved();
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    const cases: Array<[string, Challenge, Solution]> = [
      ['wrong derived key', challenge, { ...solution, derivedKey: flip(solution.derivedKey) }],
      ['upper-case derived key', challenge, { ...solution, derivedKey: solution.derivedKey.toUpperCase() }],
      ['odd-length derived key', challenge, { ...solution, derivedKey: solution.derivedKey.slice(1) }],
      ['non-hex derived key', challenge, { ...solution, derivedKey: 'zz' + solution.derivedKey.slice(2) }],
      ['derived key not a string', challenge, { ...solution, derivedKey: 42 as unknown as string }],
      ['negative counter', challenge, { ...solution, counter: -1 }],
      ['fractional counter', challenge, { ...solution, counter: 1.5 }],
      ['counter past uint32', challenge, { ...solution, counter: 2 ** 32 }],
      ['forged signature', { ...challenge, signature: flip(challenge.signature!) }, solution],
      ['no signature', { ...challenge, signature: undefined }, solution],
      ['raised cost, same signature', { ...challenge, parameters: { ...challenge.parameters, cost: 1 } }, solution],
      ['another challenge’s key signature', { ...challenge, parameters: { ...challenge.parameters, keySignature: other.challenge.parameters.keySignature } }, solution],
      ['another challenge’s solution', challenge, other.solution],
      ['an extra parameter', { ...challenge, parameters: { ...challenge.parameters, extra: 'x' } as Challenge['parameters'] }, solution],
    ];
    for (const [what, c, s] of cases) {
      const fast = verifySignedSolution(c, s, secrets);
      expect(fast, what).toEqual(await libraryVerdict(c, s));
      expect(fast?.verified, what).toBe(false);
    }
  });

  test('an expired challenge is expired, by both', async () => {
    const { challenge, solution } = await solved(-5_000);
    expect(verifySignedSolution(challenge, solution, secrets)).toEqual({ expired: true, verified: false });
    expect(await libraryVerdict(challenge, solution)).toEqual({ expired: true, verified: false });
  });

  test('a challenge without a key signature is left to the library (null)', async () => {
    const { challenge, solution } = await solved();
    const { keySignature: _dropped, ...parameters } = challenge.parameters;
    expect(verifySignedSolution({ ...challenge, parameters }, solution, secrets)).toBeNull();
  });
});
