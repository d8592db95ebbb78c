// The fair waiting room of a scheduled drop (issue 14 items 4 and 8; docs/decisions/010-fair-waiting-room.md):
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

/** Seconds until a shopper at `position` is likely let in at `admitPerMinute`; null when nobody is let in now. */
export function estimateWaitSeconds(position: number, admitPerMinute: number, admitting: boolean): number | null {
  if (!admitting || admitPerMinute <= 0) return null;
  return Math.max(1, Math.ceil((position * 60) / admitPerMinute));
}

export const dropMessages = {
  noDrop: 'This product has no scheduled drop.',
  roomNotOpen: (name: string, opensAt: string) =>
    `The waiting room for ${name} opens on ${formatReleaseUtc(opensAt)}.`,
  soldOut: (name: string) => `Sorry, ${name} is sold out.`,
  over: (name: string) => `The waiting room for ${name} has closed: it is on sale to everyone now.`,
  tooManyPlaces: 'Too many places in this waiting room are taken from your network. Please try again later.',
  notAdmitted: (name: string) => `It is not your turn for ${name} yet. Please keep this page open.`,
  passNeeded: (name: string) => `Join the waiting room to buy ${name}.`,
  passExpired: (name: string) => `Your turn to buy ${name} has passed.`,
  tooManyStreams: 'The waiting room is very busy. Please try again in a few seconds.',
} as const;
