import { describe, expect, test } from 'vitest';
import { isLimitedEdition, needsSignature, PO_BOX_MESSAGE } from './fulfilment-promises';

describe('signature required over $200', () => {
  test('over 20000 cents only', () => {
    expect(needsSignature(25_000)).toBe(true);
    expect(needsSignature(20_001)).toBe(true);
    expect(needsSignature(20_000)).toBe(false);
    expect(needsSignature(19_999)).toBe(false);
    expect(needsSignature(0)).toBe(false);
  });
});

describe('limited editions', () => {
  const plain = { releaseAt: null, soldByDraw: false };
  const drop = { releaseAt: '2026-12-07T17:00:00.000Z', soldByDraw: false };
  const drawn = { releaseAt: null, soldByDraw: true };

  test('a scheduled release or a draw makes a limited edition', () => {
    expect(isLimitedEdition(plain)).toBe(false);
    expect(isLimitedEdition(drop)).toBe(true);
    expect(isLimitedEdition(drawn)).toBe(true);
  });

  test('the refusal in the shipping page\'s words', () => {
    expect(PO_BOX_MESSAGE).toBe("We can't ship limited editions to a P.O. Box. Please use a street address.");
  });
});
