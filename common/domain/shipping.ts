import type { ShippingMethod } from '../contracts/settings';
import { formatUsd, parseMoney, type Cents } from './money';

/**
 * Shipping zones (docs/decisions/023-international-addresses.md): the shop's home country (SHOP_COUNTRY,
 * `homeCountry` in the public settings) has the domestic rates, standard or express; every other country
 * we ship to has the international rate. `home` defaults to the spec's US; callers pass the setting.
 */
const DEFAULT_HOME = 'US';

const codeOf = (country: string | null | undefined, home: string): string =>
  country?.trim().toUpperCase() || home.trim().toUpperCase();

/** A destination in the home country; no country at all is the spec's default, the home country. */
export function isDomestic(country: string | null | undefined, home: string = DEFAULT_HOME): boolean {
  return codeOf(country, home) === home.trim().toUpperCase();
}

/**
 * Which method a destination uses: standard or express at home, international elsewhere. A method the
 * destination cannot use falls back to its default rather than failing the checkout.
 */
export function resolveShippingMethod(
  country: string | null | undefined,
  requested?: ShippingMethod | null,
  home: string = DEFAULT_HOME,
): ShippingMethod {
  if (!isDomestic(country, home)) return 'international';
  return requested === 'express' ? 'express' : 'standard';
}

export function availableShippingMethods(
  country: string | null | undefined,
  home: string = DEFAULT_HOME,
): ShippingMethod[] {
  return isDomestic(country, home) ? ['standard', 'express'] : ['international'];
}

/**
 * Free shipping is judged on what the shopper pays for the goods (subtotal after the discount),
 * "$60 and above".
 */
export function isFreeShippingEligible(merchandiseCents: Cents, thresholdCents: Cents): boolean {
  return merchandiseCents > 0 && merchandiseCents >= thresholdCents;
}

/**
 * Which methods the free-shipping threshold waives: domestic standard only. Express stays a paid upgrade,
 * and international always pays its rate (shown "excluding customs and taxes"): the threshold was priced
 * on the domestic rate, a parcel abroad costs the shop three times as much (ADR 023).
 */
export function freeShippingApplies(method: ShippingMethod): boolean {
  return method === 'standard';
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
  if (freeShippingApplies(opts.method) && isFreeShippingEligible(opts.merchandiseCents, opts.thresholdCents))
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
