// The lives of a draw and of its entries, in one transition table each (the house style of
// common/domain/checkout-lifecycle.ts): the draws repository moves a row only along these edges, in a
// conditional UPDATE (`WHERE status = ANY(sourcesOf(...))`), and the database's CHECK constraints allow
// only these statuses; anything else is an IllegalTransitionError (the machine is lifecycle.ts).
import { lifecycleRules, type Lifecycle } from './lifecycle';

/**
 * scheduled (commitment published, entries not yet taken) → open (the entry window) → closed (no more
 * entries or changes; unconfirmed entries lapse) → drawn (seed revealed, ranks and pieces given) →
 * settled (every winner captured or passed on, every other authorisation voided, every entrant mailed).
 * `cancelled`: the owner called it off before the draw; every authorisation is voided.
 */
export const DRAW_STATUSES = ['scheduled', 'open', 'closed', 'drawn', 'settled', 'cancelled'] as const;
export type DrawStatus = (typeof DRAW_STATUSES)[number];

/**
 * A draw owns its product's sale from the announcement until it has run: the product page shows the
 * draw instead of Add to Cart, and the cart, a line raise and a payment refuse the product. A settled
 * draw leaves what is left on sale as usual; a cancelled one leaves no trace.
 */
export const DRAW_OWNS_SALE: readonly DrawStatus[] = ['scheduled', 'open', 'closed', 'drawn'];
export const drawOwnsSale = (status: DrawStatus): boolean => DRAW_OWNS_SALE.includes(status);

/** A draw that has run (drawn or settled): its seed, ranks and winners are public. */
export const DRAW_HAS_RUN: readonly DrawStatus[] = ['drawn', 'settled'];
export const drawHasRun = (status: string): boolean => (DRAW_HAS_RUN as readonly string[]).includes(status);

/** A draw whose entry window may be open (the clock says whether it is): scheduled or open. */
export const DRAW_TAKES_ENTRIES: readonly DrawStatus[] = ['scheduled', 'open'];
export const drawTakesEntries = (status: string): boolean => (DRAW_TAKES_ENTRIES as readonly string[]).includes(status);

/**
 * Where a draw stands for a shopper: `upcoming` (the window has not opened), `open` (entries taken),
 * `closed` (no more entries; the draw has not run), `result` (drawn or settled: the seed and the ranking
 * are public), `cancelled`. The status says what the server last did; the clock says when a scheduled
 * window opens or an open one closes, so a page turns at the right second without a reload. One rule for
 * the product page's panel, the draw's page and the product cards of the grids.
 */
export type DrawPhase = 'upcoming' | 'open' | 'closed' | 'result' | 'cancelled';

export function drawPhase(
  draw: { status: DrawStatus; opensAt: string; closesAt: string },
  nowMs: number,
): DrawPhase {
  switch (draw.status) {
    case 'cancelled':
      return 'cancelled';
    case 'drawn':
    case 'settled':
      return 'result';
    case 'closed':
      return 'closed';
    default: {
      if (nowMs < Date.parse(draw.opensAt)) return 'upcoming';
      if (nowMs < Date.parse(draw.closesAt)) return 'open';
      return 'closed';
    }
  }
}

/**
 * An entry: `pending` (card authorised, e-mail not yet confirmed) → `confirmed` (in the draw) or
 * `withdrawn` (by its entrant, before the window closed) or `lapsed` (never confirmed by the close).
 * At the draw a confirmed entry is `removed` (a duplicate of an earlier one, the reason recorded),
 * `selected` (a piece is held for it, its capture pending) or `waiting` (an alternate, in rank order).
 * A selected entry is `won` (captured, its order made) or `capture_failed` (its piece goes to the next
 * waiting entry that wants that size); a waiting entry becomes `selected` when a piece comes its way, or
 * `lost` once nothing is left to pass on. `cancelled`: its draw was called off.
 */
export const DRAW_ENTRY_STATUSES = [
  'pending',
  'confirmed',
  'withdrawn',
  'lapsed',
  'removed',
  'selected',
  'waiting',
  'won',
  'capture_failed',
  'lost',
  'cancelled',
] as const;
export type DrawEntryStatus = (typeof DRAW_ENTRY_STATUSES)[number];

/**
 * Where the entry's card authorisation stands at the gateway. `prepared`: kept for the confirmation, never
 * sent to the bank and holding nothing (docs/draw.md: the card is authorised once the mailbox is confirmed).
 * `capturing`: claimed for its capture, the gateway asked outside any transaction; the answer is recorded
 * in a second one (a claim left by a crash is taken again once CAPTURE_CLAIM_MS has passed).
 */
export const AUTHORISATION_STATES = ['prepared', 'authorised', 'capturing', 'captured', 'voided', 'failed'] as const;
export type AuthorisationState = (typeof AUTHORISATION_STATES)[number];

export const DRAW_LIFECYCLES = {
  draw: {
    scheduled: ['open', 'closed', 'cancelled'],
    open: ['closed', 'cancelled'],
    closed: ['drawn', 'cancelled'],
    drawn: ['settled'],
    settled: [],
    cancelled: [],
  } satisfies Lifecycle<DrawStatus>,
  entry: {
    pending: ['confirmed', 'withdrawn', 'lapsed', 'cancelled'],
    confirmed: ['withdrawn', 'removed', 'selected', 'waiting', 'cancelled'],
    withdrawn: [],
    lapsed: [],
    removed: [],
    selected: ['won', 'capture_failed'],
    waiting: ['selected', 'lost'],
    won: [],
    capture_failed: [],
    lost: [],
    cancelled: [],
  } satisfies Lifecycle<DrawEntryStatus>,
  /**
   * The card of an entry: prepared at entry, authorised at confirmation (or failed, then prepared again
   * with another card), claimed for the capture, captured; released (voided) whenever the draw no longer
   * needs it. A declined capture gives the claim back (authorised) so the release voids it.
   */
  authorisation: {
    prepared: ['authorised', 'failed', 'voided'],
    authorised: ['capturing', 'voided'],
    capturing: ['captured', 'authorised'],
    captured: [],
    voided: [],
    failed: ['prepared'],
  } satisfies Lifecycle<AuthorisationState>,
} as const;

export type DrawLifecycleName = keyof typeof DRAW_LIFECYCLES;

const drawRules = lifecycleRules(DRAW_LIFECYCLES);
/** Whether `from → to` is an edge of the lifecycle. */
export const canDrawTransition = drawRules.can;
/** Throws IllegalTransitionError unless `from → to` is an edge of the lifecycle. */
export const assertDrawTransition = drawRules.assert;
/** The statuses a row may be in to move to `to` (what a conditional UPDATE's `WHERE status = ANY(...)` allows). */
export const drawSourcesOf = drawRules.sourcesOf;

/** Entries still in the draw before it runs: pending (its mailbox to confirm) or confirmed. */
export const LIVE_ENTRY: readonly DrawEntryStatus[] = ['pending', 'confirmed'];

/** An entry whose entrant may still see, change or withdraw it: before the close, not withdrawn. */
export function isEntryChangeable(status: string): boolean {
  return (LIVE_ENTRY as readonly string[]).includes(status);
}

/** Entries the draw still has work for (a confirmation, a rank, a capture, a piece passed on). */
export const ENTRY_IN_PLAY: readonly DrawEntryStatus[] = ['pending', 'confirmed', 'selected', 'waiting'];

/** Entries that won their draw or are being charged for it (the sit_out rule's recent winners). */
export const WINNING_ENTRY: readonly DrawEntryStatus[] = ['selected', 'won'];

/** Entries out of the draw whose card, if still held, is released (the draw no longer needs it). */
export const ENTRY_RELEASED: readonly DrawEntryStatus[] = [
  'withdrawn',
  'lapsed',
  'removed',
  'capture_failed',
  'lost',
  'cancelled',
];

/** A card the gateway still holds (or that was kept for a confirmation): what a release voids. */
export const AUTHORISATION_HELD: readonly AuthorisationState[] = ['authorised', 'prepared'];

/** A capture claim older than this was left by a crash (the gateway answers in seconds): it is taken again. */
export const CAPTURE_CLAIM_MS = 5 * 60 * 1000;

/** Entries whose result is final (their entrant is mailed it once). */
export const FINAL_ENTRY_RESULTS: readonly DrawEntryStatus[] = [
  'won',
  'capture_failed',
  'lost',
  'removed',
  'lapsed',
];

/**
 * The longest entry window: a card authorisation lasts 7 days (Stripe's online card authorisations;
 * docs/draw.md), and the winners are captured at the draw, which comes at or after the close.
 */
export const MAX_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** The draw must be captured while the first authorisation still holds: at most this long after the window opens. */
export const MAX_AUTHORISATION_MS = MAX_WINDOW_MS;

/**
 * The owner's schedule, checked: opens < closes ≤ drawAt, and the draw no later than 7 days after the
 * window opens (the first entrant's authorisation must still hold when their card is captured). Returns
 * the message to show, or null when it is fine.
 */
export function scheduleProblem(s: {
  opensAtMs: number;
  closesAtMs: number;
  drawAtMs: number;
}): string | null {
  if (!(s.closesAtMs > s.opensAtMs)) return 'The entry window must close after it opens.';
  if (s.drawAtMs < s.closesAtMs) return 'The draw cannot run before the entry window closes.';
  if (s.drawAtMs - s.opensAtMs > MAX_AUTHORISATION_MS)
    return 'The draw must run within 7 days of the window opening: a card authorisation lasts 7 days.';
  return null;
}
