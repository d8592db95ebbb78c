import { describe, expect, test } from 'vitest';
import { altersShipping, buyerWindowEnds, mayChangeOrder } from './order-address';

describe('the buyer hour after ordering', () => {
  const placedAt = new Date('2026-12-07T10:00:00Z');
  test('the buyer may change within 60 minutes, the owner until it ships', () => {
    expect(buyerWindowEnds(placedAt).toISOString()).toBe('2026-12-07T11:00:00.000Z');
    expect(mayChangeOrder('buyer', { status: 'pending', placedAt }, placedAt.getTime() + 10 * 60_000)).toBe(
      true,
    );
    expect(mayChangeOrder('buyer', { status: 'pending', placedAt }, placedAt.getTime() + 60 * 60_000)).toBe(
      false,
    );
    expect(
      mayChangeOrder('owner', { status: 'processing', placedAt }, placedAt.getTime() + 5 * 3600_000),
    ).toBe(true);
    for (const status of ['shipped', 'delivered', 'cancelled']) {
      expect(mayChangeOrder('owner', { status, placedAt }, placedAt.getTime())).toBe(false);
      expect(mayChangeOrder('buyer', { status, placedAt }, placedAt.getTime())).toBe(false);
    }
  });
  test('another country alters shipping; the same country and method do not', () => {
    expect(altersShipping({ country: 'US', method: 'standard' }, 'us')).toBe(false);
    expect(altersShipping({ country: 'US', method: 'express' }, 'US')).toBe(false);
    expect(altersShipping({ country: 'US', method: 'standard' }, 'CA')).toBe(true);
    expect(altersShipping({ country: 'DE', method: 'international' }, 'FR')).toBe(true);
    expect(altersShipping({ country: 'DE', method: 'international' }, 'DE')).toBe(false);
    // A shop at home in Germany ships standard there: an old international order to DE is another zone.
    expect(altersShipping({ country: 'DE', method: 'international' }, 'DE', 'DE')).toBe(true);
    expect(altersShipping({ country: 'DE', method: 'standard' }, 'DE', 'DE')).toBe(false);
  });
});
