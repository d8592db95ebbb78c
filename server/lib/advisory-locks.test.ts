import { describe, expect, test } from 'vitest';
import { HASHED_LOCK_SEEDS, PROCESS_LOCKS, XACT_LOCK_CLASSES } from './advisory-locks';

const distinct = (values: readonly number[]) => new Set(values).size === values.length;

describe('advisory-lock keys', () => {
  test('every lock of a key space has its own number', () => {
    expect(distinct(Object.values(PROCESS_LOCKS))).toBe(true);
    expect(distinct(Object.values(XACT_LOCK_CLASSES))).toBe(true);
    expect(distinct(Object.values(HASHED_LOCK_SEEDS))).toBe(true);
  });

  test('the numbers running instances use are unchanged (an older and a newer instance must collide)', () => {
    expect(PROCESS_LOCKS).toEqual({ migration: 505050, embeddedOwner: 505051, shopPresence: 505052 });
    expect(XACT_LOCK_CLASSES).toEqual({
      checkoutSession: 5050,
      dropJoinAddress: 5051,
      productReservation: 5057,
    });
    expect(HASHED_LOCK_SEEDS).toEqual({ purchaseClaim: 5051, cartLine: 5052, wishlist: 0 });
  });

  test('process locks sit in the bigint space as whole numbers PostgreSQL takes', () => {
    for (const key of Object.values(PROCESS_LOCKS)) expect(Number.isSafeInteger(key)).toBe(true);
    // The two-integer form takes int4 classes.
    for (const key of Object.values(XACT_LOCK_CLASSES)) expect(key).toBeLessThanOrEqual(2 ** 31 - 1);
  });
});
