// Which drops the storefront puts first (home hero, /drops, grid order, drop cards): a product with a
// release time is a drop; it is upcoming before its release, live from the moment its waiting room
// opens until its drop window ends or it sells out, past after that (ADR 010 for the room and window).
import { formatShopWeekdayTime, type ShopTimeOptions } from './date-time-format';

export interface DropTiming {
  /** The waiting room opens this long before the release (DROP_RAFFLE_MINUTES). */
  raffleMinutes: number;
  /** Admission passes are needed this long after the release (DROP_WINDOW_MINUTES). */
  windowMinutes: number;
}

/** The shop's defaults (server/config.ts), for a page rendered without them. */
export const DEFAULT_DROP_TIMING: DropTiming = { raffleMinutes: 10, windowMinutes: 60 };

/** The hero announces a drop this long before its release. */
export const HERO_LEAD_MS = 24 * 60 * 60 * 1000;

export interface DropLike {
  releaseAt: string | null;
  soldOutAt: string | null;
}

export type DropMoment = 'upcoming' | 'live' | 'past';

const MINUTE = 60_000;
const at = (iso: string | null): number | null => {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
};

/** null for a product without a release time (not a drop). */
export function dropMoment(p: DropLike, now: number, timing: DropTiming): DropMoment | null {
  const release = at(p.releaseAt);
  if (release === null) return null;
  if (p.soldOutAt) return 'past';
  if (now < release - timing.raffleMinutes * MINUTE) return 'upcoming';
  if (now < release + timing.windowMinutes * MINUTE) return 'live';
  return 'past';
}

/** Inside the drop window a cart add needs the waiting room's pass: the card says 'Join the line'. */
export function joinsTheLine(p: DropLike, now: number, timing: DropTiming): boolean {
  return dropMoment(p, now, timing) === 'live';
}

export interface DropListing<T> {
  /** Live now, newest release first. */
  live: T[];
  /** Still to come, soonest first. */
  upcoming: T[];
  /** Over (sold out, or the window ended), newest first; sold-out editions without a release time too. */
  past: T[];
}

const releaseOrSellOut = (p: DropLike) => at(p.releaseAt) ?? at(p.soldOutAt) ?? 0;

export function listDrops<T extends DropLike>(products: readonly T[], now: number, timing: DropTiming): DropListing<T> {
  const out: DropListing<T> = { live: [], upcoming: [], past: [] };
  for (const p of products) {
    const moment = dropMoment(p, now, timing);
    if (moment) out[moment].push(p);
    else if (p.soldOutAt) out.past.push(p);
  }
  out.live.sort((a, b) => releaseOrSellOut(b) - releaseOrSellOut(a));
  out.upcoming.sort((a, b) => releaseOrSellOut(a) - releaseOrSellOut(b));
  out.past.sort((a, b) => releaseOrSellOut(b) - releaseOrSellOut(a));
  return out;
}

export type HeroDrop<T> = { kind: 'live'; product: T } | { kind: 'soon'; product: T } | null;

/** The home page's hero: a live drop (its room is open), else the next release within a day. */
export function heroDrop<T extends DropLike>(products: readonly T[], now: number, timing: DropTiming): HeroDrop<T> {
  const { live, upcoming } = listDrops(products, now, timing);
  if (live[0]) return { kind: 'live', product: live[0] };
  const next = upcoming[0];
  if (next && at(next.releaseAt)! - now <= HERO_LEAD_MS) return { kind: 'soon', product: next };
  return null;
}

/**
 * The instants at which a drop's place on the page changes (a day before, room opens, window ends), in
 * order: a page rendered before one of them is stale after it.
 */
export function dropBoundaries(products: readonly DropLike[], timing: DropTiming): number[] {
  const out: number[] = [];
  for (const p of products) {
    const release = at(p.releaseAt);
    if (release === null) continue;
    out.push(release - HERO_LEAD_MS, release - timing.raffleMinutes * MINUTE, release, release + timing.windowMinutes * MINUTE);
  }
  return out.sort((a, b) => a - b);
}

/** Drops first, newest release first (upcoming, then live, then past); the rest keep their order. */
export function newestDropsFirst<T extends { releaseAt?: string | null }>(products: readonly T[]): T[] {
  const rank = (p: T) => at(p.releaseAt ?? null);
  return products
    .map((p, i) => ({ p, i, r: rank(p) }))
    .sort((a, b) => {
      if (a.r !== null && b.r !== null) return b.r - a.r || a.i - b.i;
      if (a.r !== null) return -1;
      if (b.r !== null) return 1;
      return a.i - b.i;
    })
    .map((x) => x.p);
}

/** 'Drops Friday 6:00 PM' in `opts.timeZone` (default: the runtime's own); common/domain/date-time-format.ts. */
export function dropsAtText(releaseAt: string, opts: ShopTimeOptions = {}): string {
  return `Drops ${formatShopWeekdayTime(releaseAt, opts)}`;
}
