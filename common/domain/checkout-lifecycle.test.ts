import { describe, expect, test } from 'vitest';
import {
  assertTransition,
  canFulfilCheckout,
  canTransition,
  checkoutHoldsStock,
  CHECKOUT_STATUSES,
  IllegalTransitionError,
  LIFECYCLES,
  sourcesOf,
  STOCK_HOLD_STATUSES,
} from './checkout-lifecycle';
import { ORDER_STATUSES } from './order-status';

describe('checkout lifecycle', () => {
  test('every status of each lifecycle has a row, and edges lead only to its statuses', () => {
    const sets = { checkout: CHECKOUT_STATUSES, stockHold: STOCK_HOLD_STATUSES, order: ORDER_STATUSES } as const;
    for (const [name, table] of Object.entries(LIFECYCLES) as Array<[keyof typeof sets, Record<string, readonly string[]>]>) {
      expect(Object.keys(table).sort()).toEqual([...sets[name]].sort());
      for (const targets of Object.values(table)) for (const t of targets) expect(sets[name]).toContain(t);
    }
  });

  test('a checkout ends exactly once: fulfilled and refunded are final, nothing goes back to open', () => {
    expect(LIFECYCLES.checkout.fulfilled).toEqual([]);
    expect(LIFECYCLES.checkout.refunded).toEqual([]);
    for (const from of CHECKOUT_STATUSES) expect(canTransition('checkout', from, 'open')).toBe(false);
    expect(() => sourcesOf('checkout', 'open')).toThrow(IllegalTransitionError);
  });

  test('the edges the purchase workflow uses, and their sources', () => {
    expect(sourcesOf('checkout', 'cancelled')).toEqual(['open']);
    expect(sourcesOf('checkout', 'expired')).toEqual(['open']);
    expect(sourcesOf('checkout', 'fulfilled')).toEqual(['open', 'expired', 'cancelled']);
    expect(sourcesOf('checkout', 'refunded')).toEqual(['open', 'expired', 'cancelled']);
    expect(sourcesOf('stockHold', 'consumed')).toEqual(['held']);
    expect(sourcesOf('stockHold', 'released')).toEqual(['held']);
  });

  test('assertTransition refuses an illegal move with the lifecycle, from and to', () => {
    expect(() => assertTransition('checkout', 'open', 'fulfilled')).not.toThrow();
    expect(() => assertTransition('checkout', 'fulfilled', 'refunded')).toThrow('Illegal checkout transition: fulfilled → refunded');
    expect(() => assertTransition('checkout', 'refunded', 'fulfilled')).toThrow(IllegalTransitionError);
    expect(() => assertTransition('checkout', 'bogus', 'expired')).toThrow(IllegalTransitionError);
    expect(() => assertTransition('stockHold', 'released', 'consumed')).toThrow(IllegalTransitionError);
  });

  test('the owner may set any order status regardless of the current one', () => {
    for (const from of ORDER_STATUSES) for (const to of ORDER_STATUSES) expect(canTransition('order', from, to)).toBe(true);
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
