import { describe, expect, test } from 'vitest';
import { drawActions, drawFigures, winnersCsv } from './draws-counts';

describe('drawFigures', () => {
  test('before the draw: entries, confirmed and released come from the open statuses', () => {
    expect(drawFigures({ pending: 2, confirmed: 5, withdrawn: 1 })).toMatchObject({
      entries: 8,
      confirmed: 5,
      duplicatesRemoved: 0,
      inDraw: 0,
      drawn: 0,
      released: 1,
    });
  });

  test('after the draw: confirmed counts every entry that moved on; a declined card is drawn, failed and released', () => {
    const f = drawFigures({ removed: 1, won: 3, capture_failed: 1, lost: 4, lapsed: 2, waiting: 1 });
    expect(f).toEqual({
      entries: 12,
      confirmed: 10,
      duplicatesRemoved: 1,
      inDraw: 9,
      drawn: 4,
      captured: 3,
      failed: 1,
      released: 8,
      waiting: 1,
    });
  });

  test('no entries: every figure is 0', () => {
    expect(Object.values(drawFigures({})).every((v) => v === 0)).toBe(true);
  });
});

describe('drawActions', () => {
  const closesAt = '2030-01-02T10:00:00.000Z';
  const before = Date.parse(closesAt) - 1;
  const after = Date.parse(closesAt);

  test('run only once the window has closed; cancel until the draw runs', () => {
    expect(drawActions({ status: 'open', closesAt }, before)).toEqual({
      run: false,
      cancel: true,
      winners: false,
    });
    expect(drawActions({ status: 'open', closesAt }, after)).toEqual({
      run: true,
      cancel: true,
      winners: false,
    });
    expect(drawActions({ status: 'closed', closesAt }, before)).toEqual({
      run: true,
      cancel: true,
      winners: false,
    });
  });

  test('a drawn draw only exports its winners; a cancelled one offers nothing', () => {
    expect(drawActions({ status: 'drawn', closesAt }, after)).toEqual({
      run: false,
      cancel: false,
      winners: true,
    });
    expect(drawActions({ status: 'settled', closesAt }, after)).toEqual({
      run: false,
      cancel: false,
      winners: true,
    });
    expect(drawActions({ status: 'cancelled', closesAt }, after)).toEqual({
      run: false,
      cancel: false,
      winners: false,
    });
  });
});

test('the winners CSV has a header, one row per winner with its rank, and defuses formulas', () => {
  const csv = winnersCsv({
    entries: [
      { publicId: 'aa', weight: 1, size: 'M', secondSize: null, rank: 1, outcome: 'won' },
      { publicId: 'bb', weight: 1, size: null, secondSize: null, rank: 2, outcome: 'won' },
    ],
    winners: [
      { publicId: 'aa', size: 'M' },
      { publicId: 'bb', size: '=1+1' },
    ],
  });
  expect(csv).toBe("public_id,size,rank\r\naa,M,1\r\nbb,'=1+1,2\r\n");
});
