import { describe, expect, test } from 'vitest';
import {
  assertRedemption,
  canRedemption,
  creditBalance,
  creditExpiresAt,
  creditToApply,
  drawFromGrants,
  expiredLeft,
  IllegalTransitionError,
  redemptionSourcesOf,
  creditOnlyIntentId,
  isCreditOnlyIntent,
} from './store-credit';

const DAY = 86_400_000;
const now = Date.UTC(2026, 11, 7, 12);

describe('store credit rules', () => {
  test('a grant is valid one calendar year', () => {
    expect(creditExpiresAt(now).toISOString()).toBe('2027-12-07T12:00:00.000Z');
    expect(creditExpiresAt(Date.UTC(2028, 1, 29)).toISOString()).toBe('2029-03-01T00:00:00.000Z');
  });

  test('the balance counts only what is left of unexpired grants', () => {
    const grants = [
      { id: 'a', leftCents: 1000, expiresAtMs: now + DAY },
      { id: 'b', leftCents: 500, expiresAtMs: now },
      { id: 'c', leftCents: 0, expiresAtMs: now + 2 * DAY },
      { id: 'd', leftCents: 250, expiresAtMs: now + 3 * DAY },
    ];
    expect(creditBalance(grants, now)).toBe(1250);
    expect(creditBalance(grants, now - 1)).toBe(1750);
    expect(expiredLeft(grants, now)).toEqual([{ grantId: 'b', cents: 500 }]);
  });

  test('credit pays at most the total and at most the balance', () => {
    expect(creditToApply(1500, 4000)).toBe(1500);
    expect(creditToApply(9000, 4000)).toBe(4000);
    expect(creditToApply(0, 4000)).toBe(0);
    expect(creditToApply(-5, 4000)).toBe(0);
  });

  test('a redemption draws from the oldest-expiring grants first and skips the expired', () => {
    const grants = [
      { id: 'late', leftCents: 1000, expiresAtMs: now + 300 * DAY },
      { id: 'gone', leftCents: 9999, expiresAtMs: now - 1 },
      { id: 'soon', leftCents: 700, expiresAtMs: now + 10 * DAY },
    ];
    expect(drawFromGrants(grants, 1200, now)).toEqual([
      { grantId: 'soon', cents: 700 },
      { grantId: 'late', cents: 500 },
    ]);
    expect(drawFromGrants(grants, 0, now)).toEqual([]);
    expect(() => drawFromGrants(grants, 1701, now)).toThrow(RangeError);
    expect(() => drawFromGrants(grants, 1.5, now)).toThrow(RangeError);
  });

  test('a checkout paid wholly by credit is keyed by an id no gateway issues', () => {
    expect(creditOnlyIntentId('abc')).toBe('credit_abc');
    expect(isCreditOnlyIntent('credit_abc')).toBe(true);
    expect(isCreditOnlyIntent('pi_123')).toBe(false);
    expect(isCreditOnlyIntent(null)).toBe(false);
  });

  test('a redemption is held, then spent or released, and never moves again', () => {
    expect(canRedemption('held', 'spent')).toBe(true);
    expect(canRedemption('held', 'released')).toBe(true);
    expect(canRedemption('spent', 'released')).toBe(false);
    expect(canRedemption('released', 'spent')).toBe(false);
    expect(() => assertRedemption('released', 'held')).toThrow(IllegalTransitionError);
    expect(redemptionSourcesOf('released')).toEqual(['held']);
    expect(() => redemptionSourcesOf('held')).toThrow(IllegalTransitionError);
  });
});
