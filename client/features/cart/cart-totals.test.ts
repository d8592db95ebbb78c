import { describe, expect, test } from 'vitest';
import {
  cartItemCount,
  cartTotalCents,
  formatThresholdUsd,
  itemCountLabel,
  lineTotalCents,
} from './cart-totals';

const line = (price: string, salePrice: string | null, quantity: number) => ({
  quantity,
  product: { price, salePrice },
});

describe('cart totals', () => {
  test('a line uses the sale price when present, else the price', () => {
    expect(lineTotalCents(line('45.00', null, 2))).toBe(9000);
    expect(lineTotalCents(line('45.00', '35.50', 3))).toBe(10650);
  });
  test('the total sums the lines without float error', () => {
    expect(cartTotalCents([line('0.10', null, 3), line('0.20', null, 1)])).toBe(50);
    expect(cartTotalCents([])).toBe(0);
  });
  test('item count is the sum of quantities, labelled singular or plural', () => {
    expect(cartItemCount([line('1.00', null, 2), line('1.00', null, 3)])).toBe(5);
    expect(itemCountLabel(1)).toBe('1 item');
    expect(itemCountLabel(0)).toBe('0 items');
    expect(itemCountLabel(2)).toBe('2 items');
  });
  test('the free-shipping threshold drops cents only when whole', () => {
    expect(formatThresholdUsd('60.00')).toBe('$60');
    expect(formatThresholdUsd('75.5')).toBe('$75.50');
    expect(formatThresholdUsd('0.99')).toBe('$0.99');
  });
});
