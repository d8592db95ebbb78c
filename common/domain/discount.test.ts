import { describe, expect, test } from 'vitest';
import {
  checkDiscountCode,
  discountAmountCents,
  DISCOUNT_MESSAGES,
  isLimitedCode,
  normalizeDiscountCode,
  type DiscountCodeState,
} from './discount';

const now = new Date('2026-03-01T12:00:00Z');
const code = (over: Partial<DiscountCodeState> = {}): DiscountCodeState => ({
  code: 'WELCOME10',
  discountPercent: 10,
  isActive: true,
  usageCount: 0,
  maxUsage: 1,
  expiresAt: null,
  ...over,
});

describe('discount codes', () => {
  test('are case-insensitive', () => {
    expect(normalizeDiscountCode('  fall15 ')).toBe('FALL15');
  });

  test('a valid code gives its percent', () => {
    expect(checkDiscountCode(code(), now)).toEqual({ ok: true, code: 'WELCOME10', discountPercent: 10 });
    expect(checkDiscountCode(code({ maxUsage: null, usageCount: 999 }), now).ok).toBe(true);
  });

  test('unknown or inactive codes are not valid', () => {
    expect(checkDiscountCode(null, now)).toMatchObject({ ok: false, message: DISCOUNT_MESSAGES.invalid });
    expect(checkDiscountCode(code({ isActive: false }), now)).toMatchObject({ ok: false, reason: 'invalid' });
  });

  test('expired codes say so', () => {
    expect(checkDiscountCode(code({ expiresAt: new Date('2026-03-01T11:59:59Z') }), now)).toMatchObject({
      ok: false,
      message: 'This discount code has expired',
    });
    expect(checkDiscountCode(code({ expiresAt: new Date('2026-03-02T00:00:00Z') }), now).ok).toBe(true);
  });

  test('used-up codes say so, unless the usage is this shopper’s own claim', () => {
    expect(checkDiscountCode(code({ usageCount: 1 }), now)).toMatchObject({
      ok: false,
      message: 'This discount code has already been used',
    });
    expect(checkDiscountCode(code({ usageCount: 1 }), now, 1).ok).toBe(true);
    expect(checkDiscountCode(code({ usageCount: 3, maxUsage: 3 }), now, 1).ok).toBe(true);
    expect(checkDiscountCode(code({ usageCount: 3, maxUsage: 3 }), now, 0)).toMatchObject({
      ok: false,
      reason: 'used',
    });
  });

  test('amount is percent of the subtotal rounded to the cent', () => {
    expect(discountAmountCents(4500, 15)).toBe(675);
    expect(discountAmountCents(3333, 15)).toBe(500); // 499.95 rounds half up
    expect(discountAmountCents(1000, 100)).toBe(1000);
    expect(discountAmountCents(0, 15)).toBe(0);
  });

  test('limited vs unlimited', () => {
    expect(isLimitedCode({ maxUsage: 1 })).toBe(true);
    expect(isLimitedCode({ maxUsage: null })).toBe(false);
  });
});
