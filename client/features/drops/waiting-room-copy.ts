import type { DropStatus } from '../../../common/contracts/drops';
import { formatShopTime } from '../../../common/domain/date-time-format';

// What the waiting room says (ADR 010): pure, so the panel and its tests share one wording.

export const DRAW_TEXT =
  "You're in the draw. Places are drawn at random when the drop opens — joining early gives no edge.";
export const PAUSED_TEXT = 'Paused by the shop';
export const SOLD_OUT_TEXT = 'Sold out';
export const CHECKING_TEXT = "Checking you're not a bot…";
export const TURN_ENDED_TEXT = 'Your turn has ended';
export const PASS_LAPSED_TEXT = 'Your pass has run out, so the piece went back to others in line.';
export const REJOIN_LABEL = 'Rejoin the line';
export const PICK_SIZE_TEXT = "Pick your size now — it's kept for your turn.";

/** Pass warnings: said once each as the pass crosses 60 s and 30 s left. */
export const PASS_WARN_AT_MS = [60_000, 30_000] as const;

/**
 * 'Less than a minute left on your turn' at 60 s, '30 seconds left on your turn' at 30 s; null before.
 * `act`: what to do now (the product page: add it to the cart; the cart and checkout: check out).
 */
export function passWarning(msLeft: number, act = 'add it to your cart now'): string | null {
  if (msLeft <= 0) return null;
  if (msLeft <= 30_000) return `30 seconds left on your turn — ${act}.`;
  if (msLeft <= 60_000) return `Less than a minute left on your turn — ${act}.`;
  return null;
}

/** '2:05 PM' in the shopper's own time (a hold's or a pass's end): common/domain/date-time-format.ts. */
export function clockTime(iso: string): string {
  return formatShopTime(iso);
}

/** The last pieces are in checkouts: not sold out yet, a lapsed hold puts its piece back for the line. */
export function allHeldText(holdMinutes: number): string {
  return `All pieces are in checkouts — some may come back within ${Math.max(1, Math.round(holdMinutes))} min. Stay in line.`;
}

/** 'Places are drawn in 04:12' (mm:ss, hours past an hour as h:mm:ss) while the shopper is in the draw. */
export function drawInText(msLeft: number): string {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  return `Places are drawn in ${h > 0 ? `${h}:${two(m)}` : two(m)}:${two(sec)}`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** 'About 2 min' from the server's estimate; 'Less than a minute' under 60 s; null when unknown. */
export function formatWait(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return null;
  if (seconds < 60) return 'Less than a minute';
  return `About ${Math.round(seconds / 60)} min`;
}

/** '09:12' (mm:ss, minutes may pass 59) for the admission pass timer; never negative. */
export function formatPassLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${two(Math.floor(total / 60))}:${two(total % 60)}`;
}

/** The spoken form of the pass timer, said once a minute: 'Your turn ends in 9 minutes'. */
export function describePassLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  if (total < 60) return `Your turn ends in ${total} second${total === 1 ? '' : 's'}`;
  const m = Math.ceil(total / 60);
  return `Your turn ends in ${m} minute${m === 1 ? '' : 's'}`;
}

export type RoomView =
  /** Not in the room (not joined yet): the Join button. */
  | { kind: 'join' }
  | { kind: 'draw' }
  | { kind: 'line'; position: number | null; wait: string | null; paused: boolean }
  | { kind: 'admitted'; passExpiresAt: string | null }
  | { kind: 'sold_out' }
  /** Nothing of the room applies (not open yet, or the drop is over): the normal purchase controls. */
  | { kind: 'none' };

/** What to show for a status: the ticket decides once the shopper holds one, else the phase. */
export function roomView(status: DropStatus): RoomView {
  if (status.phase === 'not_open' || status.phase === 'ended') return { kind: 'none' };
  if (status.phase === 'sold_out') return { kind: 'sold_out' };
  const t = status.ticket;
  if (!t || t.status === 'left') return { kind: 'join' };
  if (t.status === 'sold_out') return { kind: 'sold_out' };
  if (t.status === 'admitted') return { kind: 'admitted', passExpiresAt: t.passExpiresAt };
  // Waiting: before the release (or before the draw) the raffle has no places yet.
  if (status.phase === 'raffle' || (t.raffle && t.position === null)) return { kind: 'draw' };
  return { kind: 'line', position: t.position, wait: formatWait(t.estimatedWaitSeconds), paused: status.paused };
}

/** The line's text: "You're number 37 in line". */
export function positionText(position: number | null): string {
  return position === null ? "You're in line" : `You're number ${position} in line`;
}

/** The sentence a screen reader hears for a view (the live region says it, at most every ~10 s for the line). */
export function announcement(view: RoomView): string {
  switch (view.kind) {
    case 'draw':
      return DRAW_TEXT;
    case 'line':
      return [positionText(view.position), view.paused ? PAUSED_TEXT : view.wait].filter(Boolean).join('. ') + '.';
    case 'admitted':
      return view.passExpiresAt
        ? `It's your turn. Your pass ends at ${clockTime(view.passExpiresAt)}.`
        : "It's your turn.";
    case 'sold_out':
      return 'Sold out. Every piece has gone.';
    default:
      return '';
  }
}
