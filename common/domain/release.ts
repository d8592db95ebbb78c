// Scheduled release (docs/product.md §9): before its release time a product is shown with a countdown
// and cannot be put in a cart or paid for; at the release second it is on sale like any other.
import { formatShopDateTime } from './date-time-format';

export interface ReleaseState {
  /** ISO 8601 instant (UTC), or null: on sale now. */
  releaseAt: string | null;
}

const releaseMs = (p: ReleaseState): number | null => {
  if (!p.releaseAt) return null;
  const ms = Date.parse(p.releaseAt);
  return Number.isNaN(ms) ? null : ms;
};

/** Released when there is no release time or it has come (the release second itself is on sale). */
export function isReleased(p: ReleaseState, now: number | Date): boolean {
  const at = releaseMs(p);
  return at === null || +now >= at;
}

/** Milliseconds until the release (0 once released). */
export function msUntilRelease(p: ReleaseState, now: number | Date): number {
  const at = releaseMs(p);
  return at === null ? 0 : Math.max(0, at - +now);
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * 'Drops in 2d 04:13:09' or 'Drops in 04:13:09'. Rounded up to the whole second, so the countdown
 * never shows 00:00:00 while the product is still not on sale.
 */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `Drops in ${days > 0 ? `${days}d ` : ''}${two(h)}:${two(m)}:${two(s)}`;
}

/** The spoken form for the timer's accessible label: 'Drops in 2 days, 4 hours, 13 minutes'. */
export function describeCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const parts: Array<[number, string]> = [
    [Math.floor(total / 86_400), 'day'],
    [Math.floor((total % 86_400) / 3600), 'hour'],
    [Math.floor((total % 3600) / 60), 'minute'],
  ];
  const said = parts.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`);
  if (said.length === 0) return `Drops in ${total} second${total === 1 ? '' : 's'}`;
  return `Drops in ${said.join(', ')}`;
}

/** 'Fri, Nov 27, 2026, 6:00 PM' in `timeZone` (default: the runtime's own zone): common/domain/date-time-format.ts. */
export function formatReleaseTime(releaseAt: string, timeZone?: string): string {
  return formatShopDateTime(releaseAt, { timeZone });
}

/** 'Fri, Nov 27, 2026, 6:00 PM UTC': the server's messages name the time in UTC (it knows no shopper's zone). */
export function formatReleaseUtc(releaseAt: string): string {
  return formatShopDateTime(releaseAt, { timeZone: 'UTC', zoneName: true });
}

export const releaseMessages = {
  notYet: (name: string, releaseAt: string) =>
    `${name} drops on ${formatReleaseUtc(releaseAt)}. It can't be bought yet.`,
} as const;

/** Products with a release still to come, soonest first (the home page's 'Upcoming drops'). */
export function upcomingDrops<T extends ReleaseState>(products: readonly T[], now: number | Date): T[] {
  return products
    .filter((p) => !isReleased(p, now))
    .sort((a, b) => releaseMs(a)! - releaseMs(b)!);
}
