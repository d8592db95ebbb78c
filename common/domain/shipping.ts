import type { ShippingMethod } from '../contracts/settings';
import { formatUsd, parseMoney, type Cents } from './money';

/**
 * Which methods a destination may use: standard or express inside the US, international elsewhere.
 * A method the destination cannot use falls back to its default rather than failing the checkout.
 */
export function resolveShippingMethod(
  country: string | null | undefined,
  requested?: ShippingMethod | null,
): ShippingMethod {
  const domestic = isDomestic(country);
  if (!domestic) return 'international';
  return requested === 'express' ? 'express' : 'standard';
}

export function isDomestic(country: string | null | undefined): boolean {
  return !country || country.trim().toUpperCase() === 'US';
}

export function availableShippingMethods(country: string | null | undefined): ShippingMethod[] {
  return isDomestic(country) ? ['standard', 'express'] : ['international'];
}

/**
 * Free shipping is judged on what the shopper pays for the goods (subtotal after the discount),
 * "$60 and above". It waives the standard and international rates; express stays a paid upgrade.
 */
export function isFreeShippingEligible(merchandiseCents: Cents, thresholdCents: Cents): boolean {
  return merchandiseCents > 0 && merchandiseCents >= thresholdCents;
}

export function amountToFreeShipping(merchandiseCents: Cents, thresholdCents: Cents): Cents {
  return Math.max(0, thresholdCents - merchandiseCents);
}

export function shippingCostCents(opts: {
  method: ShippingMethod;
  rateCents: Cents;
  merchandiseCents: Cents;
  thresholdCents: Cents;
}): Cents {
  if (opts.method !== 'express' && isFreeShippingEligible(opts.merchandiseCents, opts.thresholdCents))
    return 0;
  return opts.rateCents;
}

/**
 * The free-shipping threshold (and rates) in copy: "60.00" → "$60", "62.50" → "$62.50". Whole dollars
 * read better in "Free shipping over $60"; footer, home, product page and cart all use this.
 */
export function formatThreshold(value: string): string {
  const cents = parseMoney(value);
  return cents % 100 === 0 ? `$${cents / 100}` : formatUsd(cents);
}
