import { describe, expect, test } from 'vitest';
import { itemCountLabel } from './cart-totals';

// Line totals, the cart total and the threshold's wording are tested in common/domain (pricing, shipping).
describe('cart totals', () => {
  test('the item count is labelled singular or plural', () => {
    expect(itemCountLabel(1)).toBe('1 item');
    expect(itemCountLabel(0)).toBe('0 items');
    expect(itemCountLabel(2)).toBe('2 items');
  });
});
