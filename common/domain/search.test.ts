import { describe, expect, test } from 'vitest';
import { normalizeQuery, rankBySearch } from './search';

const items = [
  { name: 'Concrete Bloom Tee', description: 'A heavyweight tee.', materials: 'Organic cotton', categoryName: 'T-Shirts' },
  { name: 'Night Shift Hoodie', description: 'Fleece with a tee-shirt print.', materials: 'Recycled polyester', categoryName: 'Hoodies' },
  { name: 'Canvas Tote', description: 'Carries everything.', materials: 'Organic cotton canvas', categoryName: 'Accessories' },
];

describe('search ranking', () => {
  test('normalizes case and punctuation', () => {
    expect(normalizeQuery('  HOODIE, tee! ')).toEqual(['hoodie', 'tee']);
  });
  test('name matches come before description matches', () => {
    expect(rankBySearch(items, 'tee', (i) => i).map((i) => i.name)).toEqual(['Concrete Bloom Tee', 'Night Shift Hoodie']);
  });
  test('matches materials and category, case-insensitively', () => {
    expect(rankBySearch(items, 'ORGANIC', (i) => i)).toHaveLength(2);
    expect(rankBySearch(items, 'hoodies', (i) => i).map((i) => i.name)).toEqual(['Night Shift Hoodie']);
  });
  test('all terms must match; nothing for gibberish', () => {
    expect(rankBySearch(items, 'tote canvas', (i) => i).map((i) => i.name)).toEqual(['Canvas Tote']);
    expect(rankBySearch(items, 'zzzz', (i) => i)).toEqual([]);
    expect(rankBySearch(items, '   ', (i) => i)).toEqual([]);
  });
});
