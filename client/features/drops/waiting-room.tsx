import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Ticket, Users } from 'lucide-react';
import type { DropStatus } from '../../../common/contracts/drops';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { NotifyMeLink } from '../../components/drop-countdown';
import { useNow } from '../../lib/release-clock';
import { useShopSettings } from '../../lib/use-shop-settings';
import { NextDrop } from './next-drop';
import { PassTimer } from './pass-countdown';
import { HolderActions, useTicketHeartbeat } from './ticket-actions';
import { useAdmissionPass, useDropStatus, useJoinQueue } from './use-drop-status';
import {
  allHeldText,
  announcement,
  CHECKING_TEXT,
  DRAW_TEXT,
  drawInText,
  PASS_LAPSED_TEXT,
  passWarning,
  PAUSED_TEXT,
  PICK_SIZE_TEXT,
  positionText,
  REJOIN_LABEL,
  roomView,
  SOLD_OUT_TEXT,
  TURN_ENDED_TEXT,
  type RoomView,
} from './waiting-room-copy';

const ANNOUNCE_EVERY_MS = 10_000;

/**
 * What the polite live region says: a new state (in the draw, in line, paused, your turn, sold out) at
 * once; a changing position at most every ~10 s, so a screen reader is not talked over on every tick.
 */
function useThrottledAnnouncement(view: RoomView): string {
  const text = announcement(view);
  const key = view.kind === 'line' ? `line:${view.paused}` : view.kind;
  const [said, setSaid] = useState(text);
  const lastKey = useRef(key);
  const lastAt = useRef(0);
  useEffect(() => {
    const say = () => {
      lastAt.current = Date.now();
      setSaid(text);
    };
    if (key !== lastKey.current) {
      lastKey.current = key;
      say();
      return;
    }
    const wait = lastAt.current + ANNOUNCE_EVERY_MS - Date.now();
    if (wait <= 0) {
      say();
      return;
    }
    const t = setTimeout(say, wait);
    return () => clearTimeout(t);
  }, [text, key]);
  return said;
}

interface WaitingRoomProps {
  productId: string;
  /** The normal purchase controls (Add to Cart, or Notify me before the release). */
  children: ReactNode;
}

/**
 * The fair waiting room on a drop's product page (docs/decisions/010-fair-waiting-room.md):
 * join (after the bot check), wait in the draw or in line with a live position, then the shopper's
 * turn with the normal Add to Cart and the pass's time left; everyone is told at once when it sells out.
 */
export default function WaitingRoom({ productId, children }: WaitingRoomProps) {
  const { status, unavailable, setStatus, reconnect } = useDropStatus(productId);
  const { holdMinutes } = useShopSettings();
  const sectionRef = useRef<HTMLElement>(null);
  // After joining (or rejoining) focus moves to the new state's headline, never to <body>.
  const focusNext = useRef(false);
  const onJoined = useCallback(
    (s: DropStatus) => {
      focusNext.current = true;
      setStatus(s);
      reconnect();
    },
    [setStatus, reconnect],
  );
  const join = useJoinQueue(productId, onJoined);
  const rejoin = useJoinQueue(productId, onJoined, 'rejoin');
  const view: RoomView = status ? roomView(status) : { kind: 'none' };
  const admittedTicket = view.kind === 'admitted' ? (status?.ticket?.id ?? null) : null;
  const turnEndsAt = view.kind === 'admitted' ? view.passExpiresAt : null;
  const now = useNow(view.kind === 'admitted' || view.kind === 'draw' ? true : null);
  // A turn already over (the page reloaded after the lapse) asks for no pass: the server would only refuse it.
  const turnLapsed = turnEndsAt !== null && Date.parse(turnEndsAt) <= now;
  const admission = useAdmissionPass(productId, turnLapsed ? null : admittedTicket, turnEndsAt);
  const said = useThrottledAnnouncement(view);
  const passExpiresAt = admission.pass?.expiresAt ?? turnEndsAt;
  // Once the pass has run out the server refuses the add, so Add to Cart goes away too. A pass the server
  // refuses (403) is over too, whatever this page's clock says: the way on is Rejoin, never a dead end.
  const passOver = (passExpiresAt !== null && Date.parse(passExpiresAt) <= now) || (view.kind === 'admitted' && admission.refused);
  // Spoken and shown once each at 60 s and 30 s left; once it lapses the live region says so (never "your turn").
  const warning = passExpiresAt !== null && view.kind === 'admitted' && !passOver ? passWarning(Date.parse(passExpiresAt) - now) : null;
  const spoken = view.kind === 'admitted' && passOver ? `${TURN_ENDED_TEXT}. ${PASS_LAPSED_TEXT}` : (warning ?? said);
  // The server says when 0 left is not final ("SOLD OUT" shows only for the phase sold_out, which is).
  const allHeld = status !== null && (status.soldOut === 'in_checkouts' || (status.left === 0 && (status.held ?? 0) > 0));
  // Also when the room moves on (in line → your turn) and the element that had focus went with it.
  const ownsFocus = useRef(false);
  useEffect(() => {
    if (view.kind === 'join' || view.kind === 'none') return;
    const lost = ownsFocus.current && (document.activeElement === document.body || document.activeElement === null);
    if (!focusNext.current && !lost) return;
    const target = sectionRef.current?.querySelector<HTMLElement>('[data-room-focus]');
    if (!target) return;
    focusNext.current = false;
    ownsFocus.current = true;
    target.focus();
  }, [view.kind, passOver]);
  // Sent here to rejoin (the checkout's "Rejoin the line" links to #waiting-room): once the room shows its
  // Rejoin button, focus goes to it; if the room offers none, nothing moves.
  const cameToRejoin = useRef(typeof window !== 'undefined' && window.location.hash === '#waiting-room');
  const rejoinButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!cameToRejoin.current || !status) return;
    if (rejoinButton.current) {
      cameToRejoin.current = false;
      ownsFocus.current = true;
      const button = rejoinButton.current;
      button.focus({ preventScroll: true });
      // Scrolled to once the frame is laid out, and again a moment later: the room's lines above it can still
      // settle (the lapse sentence, the pass answer), and the button must end up where the shopper looks.
      const show = () => {
        if (document.activeElement !== button) return;
        const box = button.getBoundingClientRect();
        if (box.top < 0 || box.bottom > window.innerHeight) button.scrollIntoView({ block: 'center' });
      };
      requestAnimationFrame(show);
      window.setTimeout(show, 400);
      return;
    }
    // The turn's pass is still being asked for (the server may refuse it): wait for the answer.
    if (view.kind === 'admitted' && !passOver && !admission.pass && !admission.error) return;
    cameToRejoin.current = false;
  });
  // The page tells the server whether it is seen while a place is held ("your turn" e-mail; ticket-actions.tsx).
  useTicketHeartbeat(productId, view.kind === 'draw' || view.kind === 'line' || view.kind === 'admitted');
  const left = status?.ticket?.status === 'left';

  // Until the status is known, the normal controls stay visible but inert (the pass may be needed);
  // when it cannot be read, they work as usual (the server still asks for the pass where one is needed).
  if (!status && unavailable) return <>{children}</>;
  if (!status) {
    return (
      <fieldset disabled className="contents" aria-busy="true">
        {children}
      </fieldset>
    );
  }
  if (view.kind === 'none') return <>{children}</>;

  return (
    <section
      ref={sectionRef}
      aria-label="Waiting room"
      id="waiting-room"
      data-testid="waiting-room"
      className="flex min-w-0 flex-1 flex-col gap-2 lg:w-full lg:border-2 lg:border-ink lg:bg-paper lg:p-4"
    >
      <p role="status" className="sr-only" data-testid="waiting-room-live">
        {spoken}
      </p>

      {view.kind === 'join' && left && (
        <>
          {/* Focus lands here when the Leave controls go away (never on <body>). */}
          <p tabIndex={-1} className="text-sm font-semibold" ref={(el) => void (el && document.activeElement === document.body && el.focus())}>
            You left the line.
          </p>
          {/* A left place comes back only at the back of the line (POST rejoin, like a lapsed turn). */}
          <Button ref={rejoinButton} variant="outline" size="sm" className="w-full" disabled={rejoin.pending} onClick={() => void rejoin.join()}>
            {rejoin.pending ? 'Joining…' : REJOIN_LABEL}
          </Button>
          {rejoin.error && (
            <p role="alert" className="text-sm font-semibold text-red-700">
              {rejoin.error}
            </p>
          )}
        </>
      )}

      {view.kind === 'join' && !left && (
        <>
          <p className="hidden text-sm lg:block">
            {status.phase === 'raffle'
              ? 'The waiting room is open. Everyone who joins before the release is in a random draw.'
              : 'This drop is live. Join the line to take your turn.'}
          </p>
          {/* Phones: the same explanation, folded, so the purchase bar stays short. */}
          <details className="text-xs lg:hidden">
            <summary className="cursor-pointer font-semibold underline">How the line works</summary>
            <p className="mt-1">
              {status.phase === 'raffle'
                ? 'Everyone who joins before the release is in a random draw: joining early gives no edge.'
                : 'This drop is live. Join the line to take your turn; you get a few minutes to buy when it comes.'}
            </p>
          </details>
          <Button
            size="lg"
            className="w-full px-3 text-sm lg:text-base"
            disabled={join.pending}
            aria-describedby={join.error ? 'waiting-room-error' : undefined}
            onClick={() => void join.join()}
          >
            {/* No icon on phones: the label alone fills the bar beside the price. */}
            <Users className="hidden h-4 w-4 sm:block" aria-hidden="true" />
            {join.pending ? 'Joining…' : 'Join the waiting room'}
          </Button>
          <p aria-live="polite" className="text-xs empty:hidden lg:text-sm">
            {join.checking ? CHECKING_TEXT : ''}
          </p>
          {join.error && (
            <p id="waiting-room-error" role="alert" className="text-sm font-semibold text-red-700">
              {join.error}
            </p>
          )}
        </>
      )}

      {/* The owner's word to everyone waiting (Admin → Drops), spoken when it appears or changes. */}
      <p role="status" data-testid="drop-owner-message" className="border-l-4 border-ink bg-accent px-2 py-1 text-sm font-semibold empty:hidden">
        {(view.kind === 'draw' || view.kind === 'line') && status.message ? status.message : ''}
      </p>

      {view.kind === 'draw' && (
        <div className="flex gap-2">
          <Ticket className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
          <p className="text-xs sm:text-sm">
            <strong data-room-focus tabIndex={-1} className="block text-sm font-bold uppercase tracking-wide">
              {DRAW_TEXT.split('. ')[0]}.
            </strong>{' '}
            <span>{DRAW_TEXT.slice(DRAW_TEXT.indexOf('. ') + 2)}</span>
            <span role="timer" className="mt-1 block font-semibold tabular-nums" data-testid="draw-in">
              {drawInText(Date.parse(status.releaseAt) - now)}
            </span>
          </p>
        </div>
      )}

      {view.kind === 'line' && (
        <div className="flex items-start gap-2">
          <Users className="mt-1 h-5 w-5 shrink-0" aria-hidden="true" />
          <div>
            <p data-room-focus tabIndex={-1} className="font-display text-xl leading-none uppercase tabular-nums sm:text-2xl lg:text-3xl">
              {positionText(view.position)}
            </p>
            <p className={cn('mt-1 text-sm', view.paused ? 'font-bold text-red-700' : allHeld ? 'font-semibold' : 'text-muted')}>
              {view.paused ? PAUSED_TEXT : allHeld ? allHeldText(holdMinutes) : (view.wait ?? 'Working out your wait…')}
            </p>
          </div>
        </div>
      )}

      {(view.kind === 'draw' || view.kind === 'line') && status.ticket && (
        <HolderActions
          productId={productId}
          onLeft={() => {
            setStatus({ ...status, ticket: { ...status.ticket!, status: 'left', position: null, estimatedWaitSeconds: null } });
            reconnect();
          }}
        />
      )}

      {(view.kind === 'draw' || view.kind === 'line') && (
        <p className="text-xs text-muted lg:text-sm">{PICK_SIZE_TEXT}</p>
      )}

      {view.kind === 'admitted' && (
        <>
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            {/* Once the pass lapses the headline is the timer's "Your turn has ended", never "It's your turn". */}
            {!passOver && (
              <p data-room-focus tabIndex={-1} className="font-display text-2xl leading-none uppercase">
                It&apos;s your turn
              </p>
            )}
            {(passExpiresAt || passOver) && (
              <div
                {...(passOver ? { 'data-room-focus': true, tabIndex: -1 } : {})}
              >
                <PassTimer expiresAt={passExpiresAt ?? ''} ended={passOver} />
              </div>
            )}
          </div>
          {warning && !passOver && (
            <p className="border-l-4 border-red-700 pl-2 text-sm font-bold text-red-700" data-testid="pass-warning">
              {warning}
            </p>
          )}
          {/* Once the turn is over, Rejoin is the way on whatever else the page holds (a refused pass after
              a reload): one plain message and the button, never the refusal alone. */}
          {passOver ? (
            <>
              <p id="waiting-room-lapsed" className="text-sm text-muted">
                {PASS_LAPSED_TEXT}
              </p>
              <Button
                ref={rejoinButton}
                size="lg"
                className="w-full px-3 text-sm lg:text-base"
                disabled={rejoin.pending}
                aria-describedby={rejoin.error ? 'waiting-room-lapsed waiting-room-rejoin-error' : 'waiting-room-lapsed'}
                onClick={() => void rejoin.join()}
              >
                <Users className="hidden h-4 w-4 sm:block" aria-hidden="true" />
                {rejoin.pending ? 'Joining…' : REJOIN_LABEL}
              </Button>
              <p aria-live="polite" className="text-xs empty:hidden lg:text-sm">
                {rejoin.checking ? CHECKING_TEXT : ''}
              </p>
              {rejoin.error && (
                <p id="waiting-room-rejoin-error" role="alert" className="text-sm font-semibold text-red-700">
                  {rejoin.error}
                </p>
              )}
            </>
          ) : admission.error ? (
            <p role="alert" className="text-sm font-semibold text-red-700">
              {admission.error}
            </p>
          ) : admission.pass ? (
            <div className="flex gap-3 [&>*]:w-full">{children}</div>
          ) : (
            <p className="text-sm text-muted">Letting you in…</p>
          )}
        </>
      )}

      {view.kind === 'sold_out' && (
        <>
          <p className="font-display text-2xl leading-none uppercase">{SOLD_OUT_TEXT}</p>
          <p className="text-sm text-muted">Every piece has gone. We can tell you if one comes back.</p>
          <NotifyMeLink className="h-12 w-full px-3" product={{ id: productId }} label="Notify me if one comes back" />
          <NextDrop excludeId={productId} />
        </>
      )}
    </section>
  );
}
