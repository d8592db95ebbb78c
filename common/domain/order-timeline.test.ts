import { expect, test } from 'vitest';
import { ORDER_STATUSES } from './order-status';
import { orderStatusLabel, orderTimeline } from './order-timeline';

test('every step before the current status is done, the rest upcoming', () => {
  expect(orderTimeline('processing').map((s) => [s.status, s.state])).toEqual([
    ['pending', 'done'],
    ['confirmed', 'done'],
    ['processing', 'current'],
    ['shipped', 'upcoming'],
    ['delivered', 'upcoming'],
  ]);
  expect(orderTimeline('pending')[0]!.state).toBe('current');
  expect(orderTimeline('delivered').filter((s) => s.state === 'done')).toHaveLength(4);
});

test('a cancelled order ends at "Cancelled"; every one of the six statuses has a label and one current step', () => {
  expect(orderTimeline('cancelled').map((s) => s.label)).toEqual(['Order placed', 'Cancelled']);
  for (const status of ORDER_STATUSES) {
    expect(orderTimeline(status).filter((s) => s.state === 'current')).toHaveLength(1);
    expect(orderStatusLabel(status)).not.toBe(status);
  }
});
