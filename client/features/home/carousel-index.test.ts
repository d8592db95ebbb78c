import { describe, expect, test } from 'vitest';
import { wrapIndex } from './carousel-index';

describe('wrapIndex', () => {
  test('stays in range', () => {
    expect(wrapIndex(3, 7)).toBe(3);
  });
  test('wraps forward past the last slide', () => {
    expect(wrapIndex(7, 7)).toBe(0);
    expect(wrapIndex(15, 7)).toBe(1);
  });
  test('wraps backward before the first slide', () => {
    expect(wrapIndex(-1, 7)).toBe(6);
    expect(wrapIndex(-1, 3)).toBe(2);
  });
  test('an empty carousel stays at 0', () => {
    expect(wrapIndex(5, 0)).toBe(0);
  });
});
