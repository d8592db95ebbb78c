import { describe, expect, test } from 'vitest';
import { formatEditionNumbers } from '../../../common/domain/stock';
import {
  formatOrderDate,
  formatShipping,
  matchesOrderSearch,
  orderStatusBadgeClass,
  orderStatusLabel,
} from './order-display';

describe('order display', () => {
  test('dates are en-US short month, day, year, hour, minute', () => {
    expect(formatOrderDate('2026-11-22T15:04:00Z', 'UTC')).toBe('Nov 22, 2026, 3:04 PM');
    expect(formatOrderDate('not a date')).toBe('not a date');
  });

  test('shipping of 0 reads FREE', () => {
    expect(formatShipping('0.00')).toBe('FREE');
    expect(formatShipping('8.99')).toBe('$8.99');
  });

  test('edition numbers read the same as on the order page, e-mail and CSV (one formatter)', () => {
    expect(formatEditionNumbers([17], 50)).toBe('No. 17 of 50');
    expect(formatEditionNumbers([3, 4], 50)).toBe('Nos. 3, 4 of 50');
    expect(formatEditionNumbers([], 50)).toBe('');
  });

  test('badge colours per status; unknown is grey', () => {
    expect(orderStatusBadgeClass('pending')).toContain('yellow');
    expect(orderStatusBadgeClass('confirmed')).toContain('blue');
    expect(orderStatusBadgeClass('processing')).toContain('purple');
    expect(orderStatusBadgeClass('shipped')).toContain('green-100');
    expect(orderStatusBadgeClass('delivered')).toContain('green-800');
    expect(orderStatusBadgeClass('cancelled')).toContain('red');
    expect(orderStatusBadgeClass('refunded')).toContain('neutral');
    expect(orderStatusLabel('shipped')).toBe('Shipped');
  });

  test('search by order number or e-mail', () => {
    const order = { orderNumber: 'FIFTY-AB12', customerEmail: 'Jo@Example.com' };
    expect(matchesOrderSearch(order, 'ab12')).toBe(true);
    expect(matchesOrderSearch(order, 'jo@example')).toBe(true);
    expect(matchesOrderSearch(order, '  ')).toBe(true);
    expect(matchesOrderSearch(order, 'nope')).toBe(false);
  });
});
