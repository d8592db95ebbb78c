import { describe, expect, test } from 'vitest';
import {
  AFTER_SALE_LIFECYCLES,
  afterSaleSourcesOf,
  assertAfterSale,
  canAfterSale,
  DISPUTE_STATUSES,
  disputeStatusOf,
  IllegalTransitionError,
  isCancellable,
  isDisputeOpen,
  isRefundPending,
  linesRefundCents,
  REFUND_STATUSES,
  refundableCents,
} from './after-sale';
import { ORDER_STATUSES } from './order-status';

describe('refund and dispute lifecycles', () => {
  test('every status has a row and edges lead only to its own statuses', () => {
    const sets = { refund: REFUND_STATUSES, dispute: DISPUTE_STATUSES } as const;
    for (const [name, table] of Object.entries(AFTER_SALE_LIFECYCLES) as Array<[keyof typeof sets, Record<string, readonly string[]>]>) {
      expect(Object.keys(table).sort()).toEqual([...sets[name]].sort());
      for (const targets of Object.values(table)) for (const t of targets) expect(sets[name]).toContain(t);
    }
  });

  test('a refund is requested before the gateway is asked and ends once: succeeded and failed are final', () => {
    expect(afterSaleSourcesOf('refund', 'succeeded')).toEqual(['requested']);
    expect(afterSaleSourcesOf('refund', 'failed')).toEqual(['requested']);
    expect(canAfterSale('refund', 'succeeded', 'failed')).toBe(false);
    expect(canAfterSale('refund', 'failed', 'succeeded')).toBe(false);
    expect(() => afterSaleSourcesOf('refund', 'requested')).toThrow(IllegalTransitionError);
    expect(() => assertAfterSale('refund', 'succeeded', 'failed')).toThrow('Illegal refund transition: succeeded → failed');
  });

  test('a dispute opens and closes once, won or lost', () => {
    expect(afterSaleSourcesOf('dispute', 'won')).toEqual(['open']);
    expect(afterSaleSourcesOf('dispute', 'lost')).toEqual(['open']);
    expect(canAfterSale('dispute', 'won', 'lost')).toBe(false);
    expect(() => assertAfterSale('dispute', 'lost', 'open' as 'won')).toThrow(IllegalTransitionError);
  });

  test("Stripe's dispute statuses fold into open, won and lost", () => {
    expect(['warning_needs_response', 'warning_under_review', 'needs_response', 'under_review'].map(disputeStatusOf)).toEqual([
      'open',
      'open',
      'open',
      'open',
    ]);
    expect(disputeStatusOf('won')).toBe('won');
    expect(disputeStatusOf('warning_closed')).toBe('won');
    expect(disputeStatusOf('lost')).toBe('lost');
  });

  test('the six order statuses stay; only unshipped orders can be cancelled', () => {
    expect(ORDER_STATUSES).toHaveLength(6);
    expect(ORDER_STATUSES.filter(isCancellable)).toEqual(['pending', 'confirmed', 'processing', 'cancelled']);
    expect(isCancellable('shipped') || isCancellable('delivered')).toBe(false);
  });
});

describe('refund amounts', () => {
  test('what is left to refund counts requested and succeeded refunds, not failed ones, and never goes below 0', () => {
    expect(refundableCents(5399, [])).toBe(5399);
    expect(
      refundableCents(5399, [
        { amountCents: 1000, status: 'succeeded' },
        { amountCents: 500, status: 'requested' },
        { amountCents: 3000, status: 'failed' },
      ]),
    ).toBe(3899);
    expect(refundableCents(100, [{ amountCents: 150, status: 'succeeded' }])).toBe(0);
  });

  test('a line gives back what the buyer paid for it: discount and tax spread in proportion, rounded down', () => {
    const plain = { subtotalCents: 9000, discountAmountCents: 0, taxCents: 0 };
    expect(linesRefundCents(plain, [{ unitPriceCents: 4500, quantity: 1 }])).toBe(4500);
    const discounted = { subtotalCents: 9000, discountAmountCents: 1350, taxCents: 0 };
    expect(linesRefundCents(discounted, [{ unitPriceCents: 4500, quantity: 1 }])).toBe(3825);
    const odd = { subtotalCents: 3000, discountAmountCents: 1, taxCents: 0 };
    const thirds = [1, 2, 3].map(() => linesRefundCents(odd, [{ unitPriceCents: 1000, quantity: 1 }]));
    expect(thirds.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2999);
    expect(linesRefundCents({ subtotalCents: 0, discountAmountCents: 0, taxCents: 0 }, [{ unitPriceCents: 0, quantity: 1 }])).toBe(0);
  });
});

describe('pending refunds and open disputes, read from the lifecycle table', () => {
  test('only a requested refund is pending; only an open dispute is open', () => {
    expect(REFUND_STATUSES.filter(isRefundPending)).toEqual(['requested']);
    expect(DISPUTE_STATUSES.filter(isDisputeOpen)).toEqual(['open']);
    expect(isRefundPending('unknown')).toBe(false);
    expect(isDisputeOpen('unknown')).toBe(false);
  });
});
