import { dropsAtText } from '../../../common/domain/drop-schedule';
import { formatShopDay } from '../../../common/domain/date-time-format';
import { sellOutStory } from '../../../common/domain/sell-out';

// The card's one quiet line under the price (docs/design-system.md: a card sells the piece, the rest is
// small): what makes this piece scarce, or when it comes. Words the product page says at length, short.

/** A drop this close is named by its weekday ('Drops Friday 6:00 PM'); a later one by its date. */
const WEEK_MS = 6 * 86_400_000;

export type CardNote =
  | { kind: 'edition'; text: string }
  | { kind: 'drop'; text: string }
  | { kind: 'sold-out'; text: string };

export interface CardNoteInput {
  editionSize: number;
  releaseAt: string | null;
  soldOutAt: string | null;
  sellOutSeconds: number | null;
}

/** 'Edition of 50' ('Edition of 1,000'; 'One of one' for a single piece). */
export function editionLine(editionSize: number): string {
  if (editionSize === 1) return 'One of one';
  return `Edition of ${String(Math.trunc(editionSize)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/**
 * The quiet line: a sold-out edition's story ('All 50 sold in 3 min'), a release still to come ('Drops Friday
 * 6:00 PM', in `timeZone`; only once the shopper's own clock is known, `local`), else the edition's size.
 */
export function cardNote(
  p: CardNoteInput,
  opts: { now: number; released: boolean; local: boolean; timeZone?: string },
): CardNote {
  if (p.soldOutAt) return { kind: 'sold-out', text: sellOutStory(p.editionSize, p.sellOutSeconds) };
  if (p.releaseAt && !opts.released && opts.local) {
    const at = Date.parse(p.releaseAt);
    const text =
      at - opts.now < WEEK_MS
        ? dropsAtText(p.releaseAt, { timeZone: opts.timeZone })
        : `Drops ${formatShopDay(p.releaseAt, { timeZone: opts.timeZone })}`;
    return { kind: 'drop', text };
  }
  return { kind: 'edition', text: editionLine(p.editionSize) };
}
