// 'Notify me' (ADR 011; docs/product.md §9): before a release the shopper asks to hear when it drops; after a sell-out,
// to hear if a piece comes back (a refund or a lapsed hold) — first come, first served, and the first
// person told gets a short window in which only their link can buy it.
import { isReleased, type ReleaseState } from './release';
import { isAvailable } from './stock';

export type AlertKind = 'release' | 'restock';

export const alertMessages = {
  release: "We'll e-mail you when it drops.",
  restock: "We'll e-mail you if a piece comes back.",
  onSale: "It's on sale now.",
  unknownLink: 'This link is not valid (any more).',
  claimEnded: 'Sorry, your reserved window has ended.',
  unsubscribed: "You're unsubscribed: we won't e-mail you about this piece.",
} as const;

/**
 * Which alert a signup now is: 'release' before the release time, 'restock' once released and sold out
 * (or paused); null while it is on sale and in stock (nothing to wait for).
 */
export function alertKindFor(
  p: ReleaseState & { inStock: boolean; stock: number },
  now: number | Date,
): AlertKind | null {
  if (!isReleased(p, now)) return 'release';
  return isAvailable(p) ? null : 'restock';
}

/** 409 at cart add while every piece left is kept for people on the waiting list. */
export function reservedMessage(until: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return `This piece is reserved for someone on the waiting list for another ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

/** May this shopper add the product? Every piece left is reserved unless they hold one of the claims. */
export function isReservedForOthers(opts: {
  stock: number;
  /** Tokens of the live reservations of the product. */
  reservations: readonly string[];
  claimToken: string | null;
}): boolean {
  const { stock, reservations, claimToken } = opts;
  if (reservations.length === 0) return false;
  if (claimToken && reservations.includes(claimToken)) return false;
  return stock <= reservations.length;
}
