import { describe, expect, test } from 'vitest';
import {
  commitmentOf,
  orderByDigest,
  rankEntries,
  rankKey,
  seedMatchesCommitment,
  uniformFromDigest,
  webCryptoHmac,
  webCryptoSha256,
} from './draw';

const SEED = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const ENTRIES = [
  { publicId: '0a1b2c3d4e5f60718293a4b5c6d7e8f9', weight: 1 },
  { publicId: '11111111111111111111111111111111', weight: 1 },
  { publicId: '22222222222222222222222222222222', weight: 3 },
  { publicId: '33333333333333333333333333333333', weight: 1 },
  { publicId: '44444444444444444444444444444444', weight: 1 },
  { publicId: 'ffffffffffffffffffffffffffffffff', weight: 1 },
];

const utf8Hex = (s: string) => [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, '0')).join('');

describe('the draw: commitment and ranking (golden values from an independent node:crypto computation)', () => {
  test('commitment = SHA-256 of the seed bytes; only the committed seed matches it', async () => {
    const commitment = await commitmentOf(SEED);
    expect(commitment).toBe('630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd');
    expect(await seedMatchesCommitment(SEED, commitment)).toBe(true);
    expect(await seedMatchesCommitment(SEED.replace(/f$/, 'e'), commitment)).toBe(false);
    expect(await seedMatchesCommitment('not a seed', commitment)).toBe(false);
    await expect(commitmentOf('ABC')).rejects.toThrow(/64 lowercase hex/);
  });

  test('HMAC-SHA256 through Web Crypto matches RFC 4231 test case 2', async () => {
    const hmac = webCryptoHmac();
    expect(await hmac(utf8Hex('Jefe'), 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  test('a fixed seed gives a fixed order, with fixed digests, u and keys', async () => {
    const ranked = await rankEntries(SEED, ENTRIES);
    expect(ranked.map((r) => [r.rank, r.publicId])).toEqual([
      [1, '22222222222222222222222222222222'],
      [2, '44444444444444444444444444444444'],
      [3, 'ffffffffffffffffffffffffffffffff'],
      [4, '11111111111111111111111111111111'],
      [5, '33333333333333333333333333333333'],
      [6, '0a1b2c3d4e5f60718293a4b5c6d7e8f9'],
    ]);
    const first = ranked[0]!;
    expect(first.digest.slice(0, 13)).toBe('976998796a7d1');
    expect(first.u).toBe(0.5914550110269271);
    expect(first.key).toBe(0.17505655252747063);
    // The same input in another order ranks the same.
    expect((await rankEntries(SEED, [...ENTRIES].reverse())).map((r) => r.publicId)).toEqual(ranked.map((r) => r.publicId));
    // Another seed, another order.
    const other = await rankEntries(SEED.replace(/^00/, '01'), ENTRIES);
    expect(other.map((r) => r.publicId)).not.toEqual(ranked.map((r) => r.publicId));
  });

  test('u is strictly inside (0, 1) at both ends; keys refuse bad weights', () => {
    expect(uniformFromDigest('0000000000000')).toBeGreaterThan(0);
    expect(uniformFromDigest('fffffffffffff')).toBeLessThan(1);
    expect(uniformFromDigest('8000000000000ffff')).toBe((2 ** 51 + 0.5) / 2 ** 52);
    expect(() => rankKey(0.5, 0.5)).toThrow(/weight/);
    expect(() => rankKey(0.5, Number.POSITIVE_INFINITY)).toThrow(/weight/);
    expect(() => rankKey(0, 1)).toThrow(/inside/);
    expect(rankKey(Math.exp(-2), 2)).toBeCloseTo(1, 12);
  });

  test('equal keys are ordered by public id; a public id may appear once', () => {
    const d = 'abcdef0123456' + '0'.repeat(51);
    const ranked = orderByDigest([
      { publicId: 'b', weight: 1, digest: d },
      { publicId: 'a', weight: 1, digest: d },
      { publicId: 'B', weight: 1, digest: d },
    ]);
    // Code-unit order: upper case before lower case.
    expect(ranked.map((r) => r.publicId)).toEqual(['B', 'a', 'b']);
    expect(() => orderByDigest([{ publicId: 'a', weight: 1, digest: d }, { publicId: 'a', weight: 1, digest: d }])).toThrow(/twice/);
  });

  test('weights shift the odds: over 4,000 fixed seeds, weight 3 of 6 is first about half the time', async () => {
    const entries = [
      { publicId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', weight: 3 },
      { publicId: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', weight: 1 },
      { publicId: 'cccccccccccccccccccccccccccccccc', weight: 1 },
      { publicId: 'dddddddddddddddddddddddddddddddd', weight: 1 },
    ];
    const hmac = webCryptoHmac();
    const firsts = new Map<string, number>();
    const lasts = new Map<string, number>();
    const runs = 4000;
    for (let i = 0; i < runs; i++) {
      // Deterministic seeds: the test gives the same counts on every run.
      const seed = await webCryptoSha256(utf8Hex(`fifty draw odds ${i}`));
      const ranked = await rankEntries(seed, entries, hmac);
      firsts.set(ranked[0]!.publicId, (firsts.get(ranked[0]!.publicId) ?? 0) + 1);
      lasts.set(ranked[3]!.publicId, (lasts.get(ranked[3]!.publicId) ?? 0) + 1);
    }
    const share = (m: Map<string, number>, id: string) => (m.get(id) ?? 0) / runs;
    // P(first) = w / Σw: 3/6 for the heavy entry, 1/6 for each other (±5 standard errors).
    expect(share(firsts, entries[0]!.publicId)).toBeGreaterThan(0.46);
    expect(share(firsts, entries[0]!.publicId)).toBeLessThan(0.54);
    for (const e of entries.slice(1)) {
      expect(share(firsts, e.publicId)).toBeGreaterThan(1 / 6 - 0.03);
      expect(share(firsts, e.publicId)).toBeLessThan(1 / 6 + 0.03);
    }
    // And the heavy entry is rarely last: the three others first, in any order, is 3! · (1/6 · 1/5 · 1/4) = 1/20.
    expect(share(lasts, entries[0]!.publicId)).toBeLessThan(0.08);
    expect(share(lasts, entries[0]!.publicId)).toBeGreaterThan(0.025);
  });
});
