import { describe, expect, test } from 'vitest';
import { orderStatusSchema } from '../contracts/checkout';
import {
  canFulfilCheckout,
  checkoutHoldsStock,
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

  test('only unfinished checkouts can still be fulfilled; only open ones hold stock', () => {
    expect(canFulfilCheckout('open')).toBe(true);
    expect(canFulfilCheckout('expired')).toBe(true);
    expect(canFulfilCheckout('cancelled')).toBe(true);
    expect(canFulfilCheckout('fulfilled')).toBe(false);
    expect(canFulfilCheckout('refunded')).toBe(false);
    expect(checkoutHoldsStock('open')).toBe(true);
    expect(checkoutHoldsStock('expired')).toBe(false);
  });
});
