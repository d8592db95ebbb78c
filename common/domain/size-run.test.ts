import { describe, expect, test } from 'vitest';
import {
  apportion,
  demoSizeRun,
  demoSizeStock,
  MAX_SIZES,
  presetForCategory,
  sizedSellOutStory,
  sizeOptionLabel,
  validateSizeRun,
  type SizeRunEntry,
} from './size-run';

const run = (...pairs: Array<[string, number]>): SizeRunEntry[] =>
  pairs.map(([size, pieces]) => ({ size, pieces }));

describe('presets', () => {
  test('by category, decks only for skate decks', () => {
    expect(presetForCategory('tshirts').sizes).toEqual(['XS', 'S', 'M', 'L', 'XL', 'XXL']);
    expect(presetForCategory('hoodies').sizes).toEqual(['S', 'M', 'L', 'XL', 'XXL']);
    expect(presetForCategory('accessories', 'Skate Decks').sizes).toEqual(['7.5"', '8.0"', '8.25"', '8.5"']);
    expect(presetForCategory('accessories', 'Caps').id).toBe('one-size');
    // A jacket filed under accessories is no longer given deck widths.
    expect(presetForCategory('accessories', 'Jackets').id).toBe('one-size');
    expect(presetForCategory('accessories').id).toBe('one-size');
  });
});

describe('validateSizeRun', () => {
  test('a run adding up to the edition is valid', () => {
    const check = validateSizeRun(run(['XS', 5], ['M', 15], ['XXL', 30]), 50);
    expect(check).toMatchObject({ ok: true, sum: 50, target: 50, issues: [] });
  });

  test('the inline sum message when the pieces fall short or run over', () => {
    const short = validateSizeRun(run(['S', 20], ['M', 25]), 50);
    expect(short.ok).toBe(false);
    expect(short.sumMessage).toBe('Sizes add up to 45 of 50 pieces.');
    expect(short.issues).toEqual([
      { index: null, field: 'run', message: 'Sizes add up to 45 of 50 pieces.' },
    ]);
    expect(validateSizeRun(run(['S', 30], ['M', 25]), 50).sumMessage).toBe(
      'Sizes add up to 55 of 50 pieces.',
    );
  });

  test('pieces kept on the one run (sold before the split) come off the target', () => {
    const check = validateSizeRun(run(['S', 10], ['M', 13]), 50, 27);
    expect(check).toMatchObject({ ok: true, target: 23, sumMessage: 'Sizes add up to 23 of 23 pieces.' });
  });

  test('labels are trimmed, required, short and unique case-insensitively', () => {
    const check = validateSizeRun(run([' m ', 10], ['M', 10], ['', 10], ['x'.repeat(21), 20]), 50);
    expect(check.issues).toEqual([
      { index: 1, field: 'size', message: 'M is listed twice.' },
      { index: 2, field: 'size', message: 'Enter a size.' },
      { index: 3, field: 'size', message: 'A size is at most 20 characters.' },
    ]);
    expect(validateSizeRun(run(['x'.repeat(20), 50]), 50).ok).toBe(true);
  });

  test('pieces are whole numbers, 0 or more', () => {
    const check = validateSizeRun(run(['S', -1], ['M', 2.5], ['L', 50]), 50);
    expect(check.issues.filter((i) => i.field === 'pieces').map((i) => i.index)).toEqual([0, 1]);
    expect(validateSizeRun(run(['S', 0], ['M', 50]), 50).ok).toBe(true);
  });

  test('at most 12 sizes; at least one', () => {
    const many = Array.from({ length: MAX_SIZES + 1 }, (_, i) => ({
      size: `W${i}`,
      pieces: i === 0 ? 50 : 0,
    }));
    expect(validateSizeRun(many, 50).issues).toContainEqual({
      index: null,
      field: 'run',
      message: 'A run has at most 12 sizes.',
    });
    expect(validateSizeRun(many.slice(0, MAX_SIZES), 50).ok).toBe(true);
    expect(validateSizeRun([], 50).issues[0]!.message).toBe('Add at least one size.');
  });

  test('colours: the same size in two colours is two rows; a mix of coloured and plain rows is refused', () => {
    const grid: SizeRunEntry[] = [
      { size: 'M', colour: 'Black', pieces: 25 },
      { size: 'M', colour: 'White', pieces: 25 },
    ];
    expect(validateSizeRun(grid, 50).ok).toBe(true);
    expect(
      validateSizeRun([...grid.slice(0, 1), { size: 'm', colour: 'black', pieces: 25 }], 50).issues[0]!
        .message,
    ).toBe('m is listed twice.');
    expect(validateSizeRun([grid[0]!, { size: 'L', pieces: 25 }], 50).issues).toContainEqual({
      index: null,
      field: 'colour',
      message: 'Give every size a colour, or none.',
    });
  });
});

test('shopper labels: sold out, few left (≤ 3), plain', () => {
  expect(sizeOptionLabel('M', 0)).toBe('M — sold out');
  expect(sizeOptionLabel('L', 2)).toBe('L — 2 left');
  expect(sizeOptionLabel('L', 3)).toBe('L — 3 left');
  expect(sizeOptionLabel('M', 4)).toBe('M');
});

test('sell-out story names the first size to go', () => {
  expect(sizedSellOutStory(50, 192, { size: 'M', seconds: 41 })).toBe(
    'All 50 sold in 3 min 12 s — M first, in 41 s',
  );
  expect(sizedSellOutStory(50, 192, { size: 'M', seconds: null })).toBe(
    'All 50 sold in 3 min 12 s — M first',
  );
  expect(sizedSellOutStory(50, null, null)).toBe('All 50 sold');
});

describe('demo runs', () => {
  test('5/10/15/10/5/5 over XS–XXL for 50; every run adds up to the edition', () => {
    expect(demoSizeRun(['XS', 'S', 'M', 'L', 'XL', 'XXL'], 50).map((e) => e.pieces)).toEqual([
      5, 10, 15, 10, 5, 5,
    ]);
    for (const sizes of [['S', 'M', 'L', 'XL', 'XXL'], ['7.5"', '8.0"', '8.25"', '8.5"'], ['One Size']]) {
      const r = demoSizeRun(sizes, 50);
      expect(r.map((e) => e.size)).toEqual(sizes);
      expect(validateSizeRun(r, 50).ok).toBe(true);
    }
  });

  test('stock left per size adds up to what is left, popular sizes go first, never below 0', () => {
    const r = demoSizeRun(['XS', 'S', 'M', 'L', 'XL', 'XXL'], 50);
    for (const left of [0, 1, 6, 23, 49, 50]) {
      const perSize = demoSizeStock(r, left);
      expect(perSize.reduce((a, b) => a + b, 0)).toBe(left);
      perSize.forEach((n, i) => {
        expect(n).toBeGreaterThanOrEqual(0);
        expect(n).toBeLessThanOrEqual(r[i]!.pieces);
      });
    }
    const half = demoSizeStock(r, 23);
    // M (15 made) has sold a larger share than XS (5 made).
    expect(half[2]! / 15).toBeLessThan(half[0]! / 5);
  });

  test('apportion keeps the total', () => {
    expect(apportion(50, [2, 3, 2, 1, 1])).toEqual([11, 17, 11, 6, 5]);
    expect(apportion(7, [0, 0])).toEqual([7, 0]);
  });
});
