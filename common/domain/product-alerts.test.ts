import { describe, expect, it } from 'vitest';
import { alertKindFor, isReservedForOthers, reservedMessage } from './product-alerts';

describe('notify me', () => {
  const now = new Date('2025-06-01T12:00:00Z');
  it('is a release alert before the release, a restock alert when sold out, nothing while on sale', () => {
    expect(alertKindFor({ releaseAt: '2025-06-02T18:00:00Z', inStock: true, stock: 50 }, now)).toBe('release');
    expect(alertKindFor({ releaseAt: null, inStock: true, stock: 0 }, now)).toBe('restock');
    expect(alertKindFor({ releaseAt: '2025-05-01T18:00:00Z', inStock: false, stock: 3 }, now)).toBe('restock');
    expect(alertKindFor({ releaseAt: null, inStock: true, stock: 1 }, now)).toBeNull();
  });

  it('keeps reserved pieces for their claimants only', () => {
    expect(isReservedForOthers({ stock: 1, reservations: [], claimToken: null })).toBe(false);
    expect(isReservedForOthers({ stock: 1, reservations: ['a'], claimToken: null })).toBe(true);
    expect(isReservedForOthers({ stock: 1, reservations: ['a'], claimToken: 'b' })).toBe(true);
    expect(isReservedForOthers({ stock: 1, reservations: ['a'], claimToken: 'a' })).toBe(false);
    // A piece nobody holds a reservation for is anyone's.
    expect(isReservedForOthers({ stock: 2, reservations: ['a'], claimToken: null })).toBe(false);
  });

  it('says how long the reservation lasts', () => {
    expect(reservedMessage(new Date(now.getTime() + 14 * 60_000 + 1), now)).toBe(
      'This piece is reserved for someone on the waiting list for another 15 minutes.',
    );
    expect(reservedMessage(new Date(now.getTime() + 10_000), now)).toBe(
      'This piece is reserved for someone on the waiting list for another 1 minute.',
    );
  });
});
