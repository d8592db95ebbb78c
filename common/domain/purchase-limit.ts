// Per-shopper limits (docs/product.md §9): a product may be bought at most
// `maxPerShopper` units per shopper, counted per product (all sizes together), across the shopper's
// sessions, e-mail, shipping address and card.

/** A new product's limit: 2 per product, not per size (one for you and one to swap a size or gift). */
export const DEFAULT_MAX_PER_SHOPPER = 2;
/** The range the owner may set. */
export const MIN_MAX_PER_SHOPPER = 1;
export const MAX_MAX_PER_SHOPPER = 50;

/** 'You can buy at most 2 of Hoodie Nº 7 per shopper.' (409 at cart add, payment and order). */
export function overLimitMessage(productName: string, limit: number): string {
  return limit === 1
    ? `You can buy only 1 of ${productName} per shopper.`
    : `You can buy at most ${limit} of ${productName} per shopper.`;
}

/** The product page's note: 'Limit 2 per customer'. */
export function limitNote(limit: number): string {
  return `Limit ${limit} per customer`;
}

/** Whether `wanted` more units fit next to the `already` counted for this shopper. */
export function withinLimit(already: number, wanted: number, limit: number): boolean {
  return already + wanted <= limit;
}

/**
 * A session that let its hold lapse (expired unpaid) waits this long before it may hold the product
 * again, so the unit goes to someone else first: as long as a hold lasts.
 */
export function holdCooldownMs(holdMinutes: number): number {
  return holdMinutes * 60_000;
}

/** 409 while the cooldown runs: names when the shopper may try again (whole minutes, rounded up). */
export function cooldownMessage(productName: string, msLeft: number): string {
  const minutes = Math.max(1, Math.ceil(msLeft / 60_000));
  return `Your hold on ${productName} ran out, so it went back to other shoppers first. You can try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}
