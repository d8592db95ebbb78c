import { describe, expect, test } from 'vitest';
import { PO_BOX_MESSAGE } from './fulfilment-promises';
import { isPoBoxAddress, poBoxRefusal } from './po-box';

describe('P.O. box addresses', () => {
  test.each([
    'PO Box 12',
    'P.O. Box 12',
    'p.o. box 12',
    'P. O. Box 4410',
    'P O Box 7',
    'POBox 7',
    'P.O.Box 7',
    'PO. Box 88',
    'P-O Box 3',
    'Post Office Box 12',
    'post office box 99',
    'POB 12',
    'P.O.B. 12',
    'POB #12',
    'Box 12',
    'box #5',
    '12 Main St, Box 4',
    'Postal Box 9',
    'ＰＯ Ｂｏｘ 12',
    // Look-alike and invisible spellings read as a person reads them.
    '\u0420\u041E Box 12',
    'P\u200B.O. Box 3',
    'P.Ó. Bóx 3',
  ])('%s is a P.O. box', (line) => {
    expect(isPoBoxAddress(line)).toBe(true);
  });

  test.each([
    '12 Boxwood Lane',
    '1 Box Elder Street',
    '40 Box Hill Road',
    '9 Boxer Ave',
    '77 Post Office Road',
    '5 Post Box Lane',
    '3 Pobble Way',
    '221B Baker Street',
    '10 Hippo Boxing Club Rd',
    '100 Top Box Way',
    '14 Poplar Blvd',
    'Apt 4B, 22 Elm St',
  ])('%s is a street address', (line) => {
    expect(isPoBoxAddress(line)).toBe(false);
  });
});

describe('no P.O. box for limited editions', () => {
  const plain = { releaseAt: null, soldByDraw: false };
  const drop = { releaseAt: '2026-12-07T17:00:00.000Z', soldByDraw: false };
  const drawn = { releaseAt: null, soldByDraw: true };

  test('refused only when a limited edition goes to a P.O. box', () => {
    expect(poBoxRefusal('PO Box 12', [plain, drop])).toBe(PO_BOX_MESSAGE);
    expect(poBoxRefusal('PO Box 12', [drawn])).toBe(PO_BOX_MESSAGE);
    expect(poBoxRefusal('PO Box 12', [plain])).toBeNull();
    expect(poBoxRefusal('12 Boxwood Lane', [drop])).toBeNull();
    expect(PO_BOX_MESSAGE).toBe("We can't ship limited editions to a P.O. Box. Please use a street address.");
  });
});
