import { drawOwnsSale } from '../../../common/domain/draw-lifecycle';
import type { DrawEntryView, PublicDraw } from '../../../common/contracts/draws';
import type { ShopSettings } from '../../../common/contracts/settings';
import { displayPrice, formatUsd, parseMoney } from '../../../common/domain/money';
import { computeTotals } from '../../../common/domain/pricing';
import { resolveShippingMethod } from '../../../common/domain/shipping';

// What the draw's screens show for a draw or an entry at a given moment: pure, so the product page, the
// entry page and the public draw page agree, and the rules are tested without a browser.

/** Where a draw stands for a shopper: the one rule in common/domain/draw-lifecycle.ts. */
export { drawPhase, type DrawPhase } from '../../../common/domain/draw-lifecycle';

/**
 * Whether the draw takes the place of the product page's purchase controls: from the announcement until
 * the draw has run. A settled draw leaves the page as it was (with a link to the result); a cancelled one
 * leaves no trace.
 */
export function drawOwnsPurchase(draw: Pick<PublicDraw, 'status'>): boolean {
  return drawOwnsSale(draw.status);
}

/** The words for an entry's outcome on its own page: a heading and the lines under it. */
export interface EntryOutcome {
  tone: 'won' | 'neutral' | 'pending';
  title: string;
  lines: string[];
}

export const NEVER_CHARGED = 'Your card was never charged.';
/** The server's one message for every decline at confirmation (server/flows/enter-draw.ts). */
export const CARD_NOT_AUTHORISED = 'Your card could not be authorised. Try another card.';

export function entryOutcome(
  entry: Pick<
    DrawEntryView,
    'status' | 'drawStatus' | 'orderNumber' | 'allocatedSize' | 'productName' | 'amount' | 'removedReason'
  > &
    Partial<Pick<DrawEntryView, 'cardFailed'>>,
): EntryOutcome {
  switch (entry.status) {
    case 'pending':
      // The card was declined at confirmation: one message whatever the bank said (docs/security.md).
      if (entry.cardFailed) {
        return {
          tone: 'pending',
          title: CARD_NOT_AUTHORISED,
          lines: ['Confirm with another card before the window closes, or your entry will not take part in the draw.'],
        };
      }
      return {
        tone: 'pending',
        title: 'Your entry is not confirmed yet.',
        lines: ['Confirm it before the window closes, or it will not take part in the draw.'],
      };
    case 'confirmed':
      return entry.drawStatus === 'cancelled'
        ? { tone: 'neutral', title: 'This draw was cancelled.', lines: [NEVER_CHARGED] }
        : {
            tone: 'pending',
            title: 'Your entry is confirmed.',
            lines: [
              `${displayPrice(entry.amount)} is authorised on your card, not charged. It is charged only if your entry wins.`,
            ],
          };
    case 'selected':
    case 'waiting':
      return {
        tone: 'pending',
        title: 'The draw has run. Your result is on its way.',
        lines: ['We are settling the winners now; this page shows your result in a moment.'],
      };
    case 'won':
      return {
        tone: 'won',
        title: 'You won.',
        lines: [
          `${entry.productName}${entry.allocatedSize ? ` in ${entry.allocatedSize}` : ''} is yours.`,
          ...(entry.orderNumber ? [`Order number: ${entry.orderNumber}.`] : []),
          `We charged ${displayPrice(entry.amount)} to your card. We will e-mail you again when it ships.`,
        ],
      };
    case 'lost':
      return { tone: 'neutral', title: 'Your entry was not drawn this time.', lines: [NEVER_CHARGED] };
    case 'capture_failed':
      return {
        tone: 'neutral',
        title: 'Your entry was drawn, but your card was declined.',
        lines: ['The piece went to the next entrant.', NEVER_CHARGED],
      };
    case 'removed':
      return {
        tone: 'neutral',
        title: 'This entry did not take part in the draw.',
        lines: [entry.removedReason ?? 'It was a second entry from the same person.', NEVER_CHARGED],
      };
    case 'lapsed':
      return {
        tone: 'neutral',
        title: 'This entry was not confirmed before the window closed.',
        lines: ['It did not take part in the draw.', NEVER_CHARGED],
      };
    case 'withdrawn':
      return { tone: 'neutral', title: 'You withdrew this entry.', lines: [NEVER_CHARGED] };
    case 'cancelled':
      return { tone: 'neutral', title: 'This draw was cancelled.', lines: [NEVER_CHARGED] };
  }
}

/** How a published entry's outcome reads in the public list. */
export function outcomeLabel(outcome: string): string {
  switch (outcome) {
    case 'won':
      return 'Won';
    case 'lost':
      return 'Not drawn';
    case 'capture_failed':
      return 'Card declined: passed on';
    case 'selected':
      return 'Drawn: being charged';
    case 'waiting':
      return 'Waiting list';
    default:
      return outcome;
  }
}

/** A public id typed or pasted by a visitor: trimmed, lower case; null unless it is one (32 hex characters). */
export function parsePublicId(input: string): string | null {
  const id = input.trim().toLowerCase();
  return /^[0-9a-f]{32}$/.test(id) ? id : null;
}

/** The visitor's entry in the published list, or null when it is not in it. */
export function findRank(draw: Pick<PublicDraw, 'entries'>, publicId: string) {
  return draw.entries.find((e) => e.publicId === publicId) ?? null;
}

/**
 * The draw's sizes for the entry form: the product's run, without duplicates; the second choice offers
 * every size but the first.
 */
export function secondSizeOptions(sizes: readonly string[], first: string | null): string[] {
  return sizes.filter((s) => s !== first);
}

/**
 * The amount the entry authorises, as the server computes it (common/domain/pricing.ts, the checkout's own
 * calculation): the draw's price, shipping to the chosen country, tax. Shown before entering; the server
 * decides the amount, and the entry page shows what it authorised.
 */
export function entryAmount(
  price: string,
  country: string,
  settings: Pick<ShopSettings, 'shippingRates' | 'freeShippingThreshold' | 'taxRate'> & { homeCountry?: string },
) {
  // The shop's zones (ADR 023): the home country's rates at home, the international rate elsewhere.
  const method = resolveShippingMethod(country, null, settings.homeCountry);
  const rate = settings.shippingRates.find((r) => r.id === method);
  return computeTotals({
    lines: [{ unitPriceCents: parseMoney(price), quantity: 1 }],
    discount: null,
    shippingMethod: method,
    shippingRateCents: rate ? parseMoney(rate.price) : 0,
    freeShippingThresholdCents: parseMoney(settings.freeShippingThreshold),
    taxRate: settings.taxRate,
  });
}

/** The line every entrant reads before entering: what happens to their card, and for how much. */
export function authorisedNotChargedText(t: {
  subtotal: number;
  shipping: number;
  tax: number;
  total: number;
}): string {
  const parts = [
    `the piece ${formatUsd(t.subtotal)}`,
    t.shipping > 0 ? `shipping ${formatUsd(t.shipping)}` : 'free shipping',
  ];
  if (t.tax > 0) parts.push(`tax ${formatUsd(t.tax)}`);
  return `Your card is authorised for ${formatUsd(t.total)} (${parts.join(', ')}) when you confirm your entry by e-mail, not charged. It is charged only if your entry wins; otherwise the authorisation is released after the draw.`;
}
