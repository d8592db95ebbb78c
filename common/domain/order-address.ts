// The buyer's hour after ordering (docs/product.md "Order page"): the delivery address may be corrected and
// the order cancelled from the order page until 60 minutes after it was placed and only while unshipped; the
// owner may correct the address until it ships. A correction never changes what the buyer paid for shipping.
import { resolveShippingMethod } from './shipping';

export const BUYER_CHANGE_WINDOW_MS = 60 * 60_000;
/**
 * How often the buyer may change the address from the order page: each new address joins the buyer's identities
 * for per-shopper limits, so an unbounded number would let one order block a street's worth of doorsteps.
 */
export const BUYER_ADDRESS_CHANGES = 3;

/** Statuses after which nothing about the delivery can change any more. */
const CLOSED = new Set(['shipped', 'delivered', 'cancelled']);

/** The end of the buyer's window for an order placed at `placedAt`. */
export function buyerWindowEnds(placedAt: Date): Date {
  return new Date(placedAt.getTime() + BUYER_CHANGE_WINDOW_MS);
}

/** Whether who may still change this order (buyer: the hour and unshipped; owner: unshipped). */
export function mayChangeOrder(
  who: 'buyer' | 'owner',
  order: { status: string; placedAt: Date },
  nowMs: number,
): boolean {
  if (CLOSED.has(order.status)) return false;
  return who === 'owner' || nowMs < buyerWindowEnds(order.placedAt).getTime();
}

/**
 * Whether sending the order to `newCountry` would alter its shipping: another country is another zone (and,
 * across the border, another method and rate), so it is never a correction the shop makes silently.
 */
export function altersShipping(
  order: { country: string; method: string | null },
  newCountry: string,
  /** The shop's home country (SHOP_COUNTRY): where standard and express apply. */
  home?: string,
): boolean {
  const from = order.country.trim().toUpperCase();
  const to = newCountry.trim().toUpperCase();
  if (from !== to) return true;
  return (
    !!order.method &&
    resolveShippingMethod(to, order.method as Parameters<typeof resolveShippingMethod>[1], home) !== order.method
  );
}

/** The sentence of the order mails that names the hour (docs/product.md "Order page"). */
export const BUYER_WINDOW_SENTENCE =
  'You can change the delivery address or cancel this order from your order page within 1 hour of ordering.';
