// The fair waiting room of a scheduled drop (docs/decisions/010-fair-waiting-room.md):
// when its room opens, which phase it is in, when a pass is needed, and what shoppers are told.
import type { DropPhase } from '../contracts/drops';
import { formatReleaseUtc } from './release';

export interface DropClock {
  /** The release instant (ms since the epoch). */
  releaseAtMs: number;
  /** The room opens this long before the release (DROP_RAFFLE_MINUTES). */
  raffleMs: number;
  /** After the release, passes are required this long at most (DROP_WINDOW_MINUTES). */
  windowMs: number;
}

/** When the waiting room opens: everyone who joins from then until the release is in the raffle. */
export function roomOpensAtMs(clock: DropClock): number {
  return clock.releaseAtMs - clock.raffleMs;
}

/**
 * not_open before the room opens; raffle until the release; then open until the window ends;
 * sold_out once everyone waiting was told so (the drop's sold_out_at); ended after the window.
 */
export function dropPhase(clock: DropClock, now: number, soldOut: boolean): DropPhase {
  if (now < roomOpensAtMs(clock)) return 'not_open';
  if (now < clock.releaseAtMs) return 'raffle';
  if (soldOut) return 'sold_out';
  if (now >= clock.releaseAtMs + clock.windowMs) return 'ended';
  return 'open';
}

/** Cart adds and payment intents need an admission pass while the drop is live (released, window not over, not sold out). */
export function passRequired(clock: DropClock, now: number, soldOut: boolean): boolean {
  return dropPhase(clock, now, soldOut) === 'open';
}

/**
 * How many admitted shoppers may hold a live promise at once (ADR 010, "Admission that matches what can
 * be bought"): the free pieces times (1 + DROP_OVERBOOKING), the share of admitted shoppers who never buy.
 */
export function admissionCapacity(freePieces: number, overbooking: number): number {
  return Math.floor(Math.max(0, freePieces) * (1 + Math.max(0, overbooking)) + 1e-9);
}

/** What the room can still let in, from what is really admitted. */
export interface AdmissionRoom {
  /** Places that may be let in now: the capacity minus the live promises (never below 0). */
  room: number;
  /** Milliseconds from now until each live promise's pass lapses, earliest first: each lapse frees a place. */
  lapsesInMs: readonly number[];
}

/**
 * The room of a drop: live promises are the admitted shoppers whose pass has not lapsed and who neither
 * hold nor bought the product yet (`engaged`); they count against admissionCapacity(freePieces).
 */
export function admissionRoom(opts: {
  freePieces: number;
  overbooking: number;
  passMs: number;
  now: number;
  live: ReadonlyArray<{ sessionId: string; admittedAtMs: number }>;
  engaged: ReadonlySet<string>;
}): AdmissionRoom {
  const lapses = opts.live
    .filter((a) => !opts.engaged.has(a.sessionId) && a.admittedAtMs + opts.passMs > opts.now)
    .map((a) => a.admittedAtMs + opts.passMs - opts.now)
    .sort((a, b) => a - b);
  return { room: Math.max(0, admissionCapacity(opts.freePieces, opts.overbooking) - lapses.length), lapsesInMs: lapses };
}

/**
 * Seconds until a shopper at `position` is likely let in at `admitPerMinute`; null when nobody is let in
 * now. With the room given, a place beyond it waits also for enough live passes to lapse; when even those
 * are not enough (it depends on pieces coming back) there is no honest figure: null.
 */
export function estimateWaitSeconds(position: number, admitPerMinute: number, admitting: boolean, room?: AdmissionRoom): number | null {
  if (!admitting || admitPerMinute <= 0) return null;
  const placeSeconds = 60 / admitPerMinute;
  let seconds = position * placeSeconds;
  if (room && position > room.room) {
    const lapse = room.lapsesInMs[position - room.room - 1];
    if (lapse === undefined) return null;
    seconds = Math.max(seconds, lapse / 1000 + placeSeconds);
  }
  return Math.max(1, Math.ceil(seconds));
}

export const dropMessages = {
  noDrop: 'This product has no scheduled drop.',
  roomNotOpen: (name: string, opensAt: string) =>
    `The waiting room for ${name} opens on ${formatReleaseUtc(opensAt)}.`,
  soldOut: (name: string) => `Sorry, ${name} is sold out.`,
  /** A live drop with 0 left and pieces in checkouts: not sold out yet (docs/product.md §9, Drops). */
  inCheckouts: (name: string) => `All pieces of ${name} are in checkouts right now — one may come back. Stay on this page and try again.`,
  over: (name: string) => `The waiting room for ${name} has closed: it is on sale to everyone now.`,
  tooManyPlaces: 'Too many places in this waiting room are taken from your network. Please try again later.',
  notAdmitted: (name: string) => `It is not your turn for ${name} yet. Please keep this page open.`,
  passNeeded: (name: string) => `Join the waiting room to buy ${name}.`,
  passExpired: (name: string) => `Your turn to buy ${name} has passed.`,
  tooManyStreams: 'The waiting room is very busy. Please try again in a few seconds.',
} as const;
