// When an order must leave the studio (docs/product.md "Order page"; the spec's processing times): in-stock
// pieces ship in 1-2 business days, a limited drop in 2-3; an order after 2 PM in the shop's time zone
// (SHOP_TIME_ZONE) counts from the next business day; Saturdays and Sundays are never business days.
// The promise is the later end of the range, written as the shop's calendar date ('2026-12-09').
import { dateTimeFormat, formatCalendarDate } from './date-time-format';

/** Orders placed at or after this hour (shop time) count from the next business day. */
export const SHIP_CUTOFF_HOUR = 14;
/** Business days after the day an order counts from: the later end of each range. */
export const SHIP_DAYS = { inStock: 2, limitedDrop: 3 } as const;

const DAY_MS = 86_400_000;

/** The shop's calendar date and hour at `at` in `timeZone`: { date: '2026-12-07', hour: 15 }. */
export function shopClock(at: Date, timeZone: string): { date: string; hour: number } {
  const parts = dateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

/** '2026-12-07' → that day as a UTC midnight (calendar arithmetic only, no zone in play). */
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`);
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isWeekend = (ms: number) => {
  const d = new Date(ms).getUTCDay();
  return d === 0 || d === 6;
};

/** The ship-by date of an order placed at `placedAt`: a limited drop when any of its pieces came from one. */
export function shipByDate(placedAt: Date, opts: { limitedDrop: boolean; timeZone: string }): string {
  const { date, hour } = shopClock(placedAt, opts.timeZone);
  let day = dayOf(date);
  // After the cut-off the order counts from tomorrow; a weekend order counts from Monday.
  if (hour >= SHIP_CUTOFF_HOUR) day += DAY_MS;
  while (isWeekend(day)) day += DAY_MS;
  for (let left = opts.limitedDrop ? SHIP_DAYS.limitedDrop : SHIP_DAYS.inStock; left > 0; ) {
    day += DAY_MS;
    if (!isWeekend(day)) left--;
  }
  return dateOf(day);
}

/** Statuses that still owe the buyer a shipment. */
/** Statuses of an order not yet shipped nor cancelled (the late filter asks the database for these). */
export const UNSHIPPED_STATUSES = ['pending', 'confirmed', 'processing'] as const;
const UNSHIPPED = new Set<string>(UNSHIPPED_STATUSES);

/** Late: not yet shipped (nor cancelled) and the shop's today is past the ship-by date. */
export function isShipLate(shipBy: string | null | undefined, status: string, today: string): boolean {
  return !!shipBy && UNSHIPPED.has(status) && today > shipBy;
}

/** '2026-12-09' → 'Wed, Dec 9, 2026' (the date as written, in no time zone): common/domain/date-time-format.ts. */
export function formatShopDate(shipBy: string): string {
  return formatCalendarDate(shipBy);
}
