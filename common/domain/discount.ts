import { percentOf, type Cents } from './money';

export const DISCOUNT_MESSAGES = {
  empty: 'Please enter a discount code',
  invalid: 'This discount code is not valid',
  expired: 'This discount code has expired',
  used: 'This discount code has already been used',
} as const;

/** Codes are case-insensitive and stored upper case (docs/product.md §10). */
export function normalizeDiscountCode(code: string): string {
  return code.trim().toUpperCase();
}

export interface DiscountCodeState {
  code: string;
  discountPercent: number;
  isActive: boolean;
  usageCount: number;
  /** null = unlimited. */
  maxUsage: number | null;
  expiresAt: Date | null;
}

export type DiscountCheck =
  | { ok: true; code: string; discountPercent: number }
  | { ok: false; reason: 'invalid' | 'expired' | 'used'; message: string };

/**
 * Whether a code can be used now. `ownClaims` counts usages this shopper already holds on it
 * (an open checkout), so going back a step never tells them their own code is used up.
 */
export function checkDiscountCode(code: DiscountCodeState | null, now: Date, ownClaims = 0): DiscountCheck {
  if (!code || !code.isActive) return { ok: false, reason: 'invalid', message: DISCOUNT_MESSAGES.invalid };
  if (code.expiresAt && code.expiresAt.getTime() <= now.getTime()) {
    return { ok: false, reason: 'expired', message: DISCOUNT_MESSAGES.expired };
  }
  if (code.maxUsage !== null && code.usageCount - ownClaims >= code.maxUsage) {
    return { ok: false, reason: 'used', message: DISCOUNT_MESSAGES.used };
  }
  return { ok: true, code: code.code, discountPercent: code.discountPercent };
}

/** docs/product.md §9: subtotal × percent / 100, rounded to the cent, never more than the subtotal. */
export function discountAmountCents(subtotalCents: Cents, percent: number): Cents {
  return Math.min(subtotalCents, percentOf(subtotalCents, percent));
}

/** Limited codes are claimed when the payment starts; unlimited ones are only counted on the order. */
export function isLimitedCode(code: Pick<DiscountCodeState, 'maxUsage'>): boolean {
  return code.maxUsage !== null;
}
