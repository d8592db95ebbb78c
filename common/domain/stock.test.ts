import { describe, expect, test } from 'vitest';
import {
  checkCartQuantity,
  editionNumbersFor,
  formatEditionNumbers,
  isAvailable,
  quantitiesByProduct,
} from './stock';

const tee = { name: 'Drop Tee', stock: 3, inStock: true };

describe('stock', () => {
  test('available only when flagged in stock and units are left', () => {
    expect(isAvailable(tee)).toBe(true);
    expect(isAvailable({ ...tee, stock: 0 })).toBe(false);
    expect(isAvailable({ ...tee, inStock: false })).toBe(false);
  });

  test('the cart may hold up to what is left', () => {
    expect(checkCartQuantity(tee, 3)).toEqual({ ok: true });
    expect(checkCartQuantity(tee, 4)).toEqual({ ok: false, message: 'Only 3 left' });
    expect(checkCartQuantity({ ...tee, stock: 0 }, 1)).toEqual({
      ok: false,
      message: 'Sorry, Drop Tee is sold out',
    });
    expect(checkCartQuantity({ ...tee, inStock: false }, 1)).toEqual({
      ok: false,
      message: 'Sorry, Drop Tee is sold out',
    });
  });

  test('lowering a quantity is always allowed', () => {
    expect(checkCartQuantity({ ...tee, stock: 1 }, 2, 5)).toEqual({ ok: true });
    expect(checkCartQuantity({ ...tee, stock: 0 }, 1, 2)).toEqual({ ok: true });
  });

  test('quantities are summed per product and sorted by id', () => {
    expect(
      quantitiesByProduct([
        { productId: 'b', quantity: 1 },
        { productId: 'a', quantity: 2 },
        { productId: 'b', quantity: 3 },
      ]),
    ).toEqual([
      ['a', 2],
      ['b', 4],
    ]);
  });

  test('edition numbers follow the sold count', () => {
    expect(editionNumbersFor(1, 1)).toEqual([1]);
    expect(editionNumbersFor(18, 2)).toEqual([17, 18]);
    // Returned numbers first: No. 12 came back and is sold again; with it gone, a new number follows the sold count.
    expect(editionNumbersFor(50, 1, [12])).toEqual([12]);
    expect(editionNumbersFor(49, 2, [12])).toEqual([12, 49]);
    expect(editionNumbersFor(30, 2, [3, 7])).toEqual([3, 7]);
    expect(formatEditionNumbers([17])).toBe('No. 17 of 50');
    expect(formatEditionNumbers([17, 18], 50)).toBe('Nos. 17, 18 of 50');
    expect(formatEditionNumbers([])).toBe('');
  });
});
