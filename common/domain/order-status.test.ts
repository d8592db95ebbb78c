import { describe, expect, test } from 'vitest';
import { orderStatusSchema } from '../contracts/checkout';
import {
  isOrderStatus,
  ORDER_STATUSES,
  orderStatusTone,
} from './order-status';

describe('order status', () => {
  test('matches the contract enum', () => {
    expect([...ORDER_STATUSES]).toEqual(orderStatusSchema.options);
  });

  test('recognises the six statuses only', () => {
    expect(isOrderStatus('shipped')).toBe(true);
    expect(isOrderStatus('lost')).toBe(false);
    expect(isOrderStatus('PENDING')).toBe(false);
  });

  test('badge tones per docs/product.md §4', () => {
    expect(orderStatusTone('pending')).toBe('yellow');
    expect(orderStatusTone('confirmed')).toBe('blue');
    expect(orderStatusTone('processing')).toBe('purple');
    expect(orderStatusTone('shipped')).toBe('green');
    expect(orderStatusTone('delivered')).toBe('dark-green');
    expect(orderStatusTone('cancelled')).toBe('red');
    expect(orderStatusTone('whatever')).toBe('grey');
  });
});
