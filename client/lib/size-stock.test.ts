import { describe, expect, it } from 'vitest';
import { isCutInSizes, leftOfSize, linesNamedIn, sizesLeft } from './size-stock';

describe('size stock as the storefront reads it', () => {
  it('a product without sizeStock, or with only the one run, is one pool', () => {
    expect(isCutInSizes(undefined)).toBe(false);
    expect(isCutInSizes([])).toBe(false);
    expect(isCutInSizes([{ size: null, colour: null, left: 12 }])).toBe(false);
    expect(isCutInSizes([{ size: 'M', colour: null, left: 0 }])).toBe(true);
  });

  it('each size its own pieces, in the product order; a listed size without stock reads sold out', () => {
    const run = [
      { size: 'L', colour: null, left: 2 },
      { size: 'M', colour: null, left: 0 },
      { size: 'XS', colour: null, left: 5 },
    ];
    expect(sizesLeft(['XS', 'M', 'L', 'XL'], run)).toEqual([
      { size: 'XS', left: 5 },
      { size: 'M', left: 0 },
      { size: 'L', left: 2 },
      { size: 'XL', left: 0 },
    ]);
  });

  it('sizes match case-insensitively, and a size only the stock names is listed after the product’s', () => {
    expect(sizesLeft(['m'], [{ size: 'M', colour: null, left: 3 }, { size: 'XXL', colour: null, left: 1 }])).toEqual([
      { size: 'm', left: 3 },
      { size: 'XXL', left: 1 },
    ]);
  });

  it('pieces still on the one run count for every listed size', () => {
    const run = [
      { size: null, colour: null, left: 1 },
      { size: 'M', colour: null, left: 0 },
    ];
    expect(sizesLeft(['M', 'L'], run)).toEqual([
      { size: 'M', left: 1 },
      { size: 'L', left: 1 },
    ]);
  });

  it('colours stocked apart: the chosen colour’s pieces; no colour chosen: all of them', () => {
    const run = [
      { size: 'M', colour: 'Black', left: 0 },
      { size: 'M', colour: 'Bone', left: 4 },
      { size: 'L', colour: 'Black', left: 2 },
    ];
    expect(sizesLeft(['M', 'L'], run, 'Black')).toEqual([
      { size: 'M', left: 0 },
      { size: 'L', left: 2 },
    ]);
    expect(sizesLeft(['M', 'L'], run, 'bone')).toEqual([
      { size: 'M', left: 4 },
      { size: 'L', left: 0 },
    ]);
    expect(sizesLeft(['M', 'L'], run)).toEqual([
      { size: 'M', left: 4 },
      { size: 'L', left: 2 },
    ]);
  });

  it('leftOfSize: a choice’s pieces, 0 for none or an unknown size', () => {
    const options = [{ size: 'M', left: 2 }];
    expect(leftOfSize(options, 'm')).toBe(2);
    expect(leftOfSize(options, 'XL')).toBe(0);
    expect(leftOfSize(options, null)).toBe(0);
  });
});

describe('the cart lines a refusal names', () => {
  const line = (id: string, productId: string, name: string, size: string | null) => ({
    id,
    productId,
    selectedSize: size,
    product: { name },
  });
  const lines = [
    line('1', 'a', 'Run Tee', 'M'),
    line('2', 'a', 'Run Tee', 'L'),
    line('3', 'b', 'Deck', '8.0"'),
    line('4', 'c', 'Cap', null),
  ];

  it('the line of the size the message names, not the other sizes of that product', () => {
    expect(linesNamedIn('Sorry, Run Tee in M is sold out', lines).map((l) => l.id)).toEqual(['1']);
    expect(linesNamedIn('Sorry, M of Run Tee just sold out', lines).map((l) => l.id)).toEqual(['1']);
    expect(linesNamedIn('Only 2 left in L of Run Tee', lines).map((l) => l.id)).toEqual(['2']);
    expect(linesNamedIn('Sorry, Deck 8.0" just sold out', lines).map((l) => l.id)).toEqual(['3']);
  });

  it('a product named without a size: all its lines; a product not named: none', () => {
    expect(linesNamedIn('Sorry, Run Tee just sold out', lines).map((l) => l.id)).toEqual(['1', '2']);
    expect(linesNamedIn('Sorry, Cap just sold out', lines).map((l) => l.id)).toEqual(['4']);
    expect(linesNamedIn('Your cart changed; please review the total', lines)).toEqual([]);
  });
});
