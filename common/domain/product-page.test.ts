import { describe, expect, test } from 'vitest';
import { gridSearch, pageLinks, parseGridQuery, pickFeatured, slicePage, type PageableProduct } from './product-page';

const product = (i: number, over: Partial<PageableProduct> = {}) => ({
  id: i,
  category: i % 3 === 0 ? 'hoodies' : 'tshirts',
  inStock: true,
  stock: 5,
  isNew: false,
  isOnSale: false,
  ...over,
});

describe('parseGridQuery', () => {
  test.each([
    ['', { category: null, page: 1 }],
    ['page=3', { category: null, page: 3 }],
    ['category=Hoodies&page=2', { category: 'hoodies', page: 2 }],
    ['category=all', { category: null, page: 1 }],
    ['page=0', { category: null, page: 1 }],
    ['page=-2', { category: null, page: 1 }],
    ['page=2.5', { category: null, page: 1 }],
    ['page=abc', { category: null, page: 1 }],
    ['page=999999999', { category: null, page: 1 }],
    ['page=50000', { category: null, page: 100 }],
    ['category=%3Cscript%3E', { category: null, page: 1 }],
  ])('%s', (search, expected) => {
    expect(parseGridQuery(search, 100)).toEqual(expected);
  });
});

test('gridSearch leaves out the defaults', () => {
  expect(gridSearch({ category: null, page: 1 })).toBe('');
  expect(gridSearch({ category: 'hoodies', page: 1 })).toBe('category=hoodies');
  expect(gridSearch({ category: 'hoodies', page: 3 })).toBe('category=hoodies&page=3');
  expect(gridSearch({ category: null, page: 2 })).toBe('page=2');
});

describe('slicePage', () => {
  const list = Array.from({ length: 50 }, (_, i) => product(i));
  test('pages through the list in order', () => {
    const p2 = slicePage(list, { category: null, page: 2 }, 24);
    expect(p2).toMatchObject({ page: 2, pageCount: 3, total: 50, pageSize: 24 });
    expect(p2.products.map((p) => p.id)).toEqual(list.slice(24, 48).map((p) => p.id));
    expect(slicePage(list, { category: null, page: 3 }, 24).products).toHaveLength(2);
  });
  test('filters by category before paging; past the end is the last page', () => {
    const hoodies = slicePage(list, { category: 'hoodies', page: 9 }, 10);
    expect(hoodies).toMatchObject({ page: 2, pageCount: 2, total: 17 });
    expect(hoodies.products.every((p) => p.category === 'hoodies')).toBe(true);
    expect(hoodies.products).toHaveLength(7);
  });
  test('an empty list is one empty page', () => {
    expect(slicePage([], { category: 'caps', page: 4 }, 24)).toMatchObject({ page: 1, pageCount: 1, total: 0, products: [] });
  });
});

test('pageLinks keeps first, last and the neighbours of the current page', () => {
  expect(pageLinks(1, 1)).toEqual([1]);
  expect(pageLinks(1, 3)).toEqual([1, 2, 3]);
  expect(pageLinks(1, 42)).toEqual([1, 2, null, 42]);
  expect(pageLinks(5, 42)).toEqual([1, null, 4, 5, 6, null, 42]);
  expect(pageLinks(3, 42)).toEqual([1, 2, 3, 4, null, 42]);
  expect(pageLinks(42, 42)).toEqual([1, null, 41, 42]);
  expect(pageLinks(40, 42)).toEqual([1, null, 39, 40, 41, 42]);
});

test('pickFeatured: buyable new and sale pieces first, list order otherwise', () => {
  const list = [
    product(1),
    product(2, { isOnSale: true }),
    product(3, { isNew: true, stock: 0 }),
    product(4, { isNew: true }),
    product(5),
  ];
  expect(pickFeatured(list).map((p) => p.id)).toEqual([4, 2, 1, 5]);
});
