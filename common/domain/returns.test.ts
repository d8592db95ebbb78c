import { describe, expect, test } from 'vitest';
import { IllegalTransitionError } from './lifecycle';
import { assertReturn, canReturn, mayRequestReturn, reminderAt, RETURN_STATUSES, returnSourcesOf, shipBackBy } from './returns';

describe('return lifecycle', () => {
  test('the edges of the policy and nothing else', () => {
    const edges = RETURN_STATUSES.flatMap((from) => RETURN_STATUSES.filter((to) => canReturn(from, to)).map((to) => `${from}→${to}`));
    expect(edges.sort()).toEqual(
      ['requested→approved', 'requested→declined', 'approved→received', 'approved→expired', 'received→accepted', 'received→rejected'].sort(),
    );
    expect(() => assertReturn('requested', 'accepted')).toThrow(IllegalTransitionError);
    expect(() => assertReturn('declined', 'approved')).toThrow(IllegalTransitionError);
    expect(returnSourcesOf('accepted')).toEqual(['received']);
    expect(() => returnSourcesOf('requested')).toThrow(IllegalTransitionError);
  });

  test('the 2-day window after delivery and the 7-day ship-back', () => {
    const delivered = new Date('2026-01-10T12:00:00Z');
    const day = 86_400_000;
    expect(mayRequestReturn({ status: 'delivered', deliveredAt: delivered }, delivered.getTime() + 2 * day)).toBe(true);
    expect(mayRequestReturn({ status: 'delivered', deliveredAt: delivered }, delivered.getTime() + 2 * day + 1)).toBe(false);
    expect(mayRequestReturn({ status: 'shipped', deliveredAt: null }, delivered.getTime())).toBe(false);
    expect(shipBackBy(delivered).toISOString()).toBe('2026-01-17T12:00:00.000Z');
    expect(reminderAt(delivered).toISOString()).toBe('2026-01-16T12:00:00.000Z');
  });
});
