import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Ticket, Users } from 'lucide-react';
import type { DropStatus } from '../../../common/contracts/drops';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { NotifyMeLink } from '../../components/drop-countdown';
import { useNow } from '../../lib/release-clock';
import { formatCountdown } from '../../../common/domain/release';
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

/** The state in one line: what the bar says between the product's row and the action. */
const STATE_LINE = 'text-base font-semibold leading-5 lg:text-xl lg:leading-7';

/** The live state's mark (the accent is the live state's colour, docs/design-system.md). */
function LiveMark() {
  return <span aria-hidden="true" className="mr-2 inline-block size-2 bg-accent align-middle ring-1 ring-ink" />;
}

interface WaitingRoomProps {
  productId: string;
  /** The phone bar's first row (the product's name and price), from the product page. */
  barLead?: ReactNode;
  /** The normal purchase controls (Add to Cart, or Notify me before the release). */
  children: ReactNode;
}

/**
 * The fair waiting room on a drop's product page (docs/decisions/010-fair-waiting-room.md):
 * join (after the bot check), wait in the draw or in line with a live position, then the shopper's
 * turn with the normal Add to Cart and the pass's time left; everyone is told at once when it sells out.
 */
export default function WaitingRoom({ productId, barLead, children }: WaitingRoomProps) {
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
  // Ticks while a clock is shown: the pass, the draw's, and the release's while the room is open before it.
  const now = useNow(view.kind === 'admitted' || view.kind === 'draw' || (view.kind === 'join' && status?.phase === 'raffle') ? true : null);
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

  const raffle = status.phase === 'raffle';
  const holding = (view.kind === 'draw' || view.kind === 'line') && status.ticket;

  // Phones: the room's bar is fixed to the bottom of the screen in three thin layers (the product's name and
  // price, the state in a line, one full-width action) and stays well under half the screen's height in
  // every state; all else the room says or offers (how it works, the e-mail, leaving, the next drop) sits
  // in the page under the size picker. From lg up both parts stand in the purchase column, one panel.
  return (
    <section
      ref={sectionRef}
      aria-label="Waiting room"
      id="waiting-room"
      data-testid="waiting-room"
      className="flex min-w-0 flex-col gap-3 lg:w-full lg:border lg:border-hairline lg:bg-surface lg:p-4"
    >
      <p role="status" className="sr-only" data-testid="waiting-room-live">
        {spoken}
      </p>

      <div
        data-room-bar
        className="fixed inset-x-0 bottom-0 z-30 flex flex-col gap-1.5 border-t border-hairline bg-paper px-4 pt-2 pb-2.5 lg:static lg:z-auto lg:gap-3 lg:border-0 lg:bg-transparent lg:p-0"
      >
        {barLead && <div className="lg:hidden">{barLead}</div>}

        {view.kind === 'join' && left && (
          <>
            {/* Focus lands here when the Leave controls go away (never on <body>). */}
            <p
              tabIndex={-1}
              className={STATE_LINE}
              ref={(el) => void (el && document.activeElement === document.body && el.focus())}
            >
              You left the line.
            </p>
            {/* A left place comes back only at the back of the line (POST rejoin, like a lapsed turn). */}
            <Button ref={rejoinButton} size="lg" className="w-full px-3" disabled={rejoin.pending} onClick={() => void rejoin.join()}>
              {rejoin.pending ? 'Joining…' : REJOIN_LABEL}
            </Button>
            {rejoin.error && (
              <p role="alert" className="text-sm font-semibold text-danger">
                {rejoin.error}
              </p>
            )}
          </>
        )}

        {view.kind === 'join' && !left && (
          <>
            <p className={cn(STATE_LINE, 'flex flex-wrap items-baseline justify-between gap-x-3 lg:hidden')}>
              <span>
                <LiveMark />
                {raffle ? 'The waiting room is open.' : 'This drop is live.'}
              </span>
              {raffle && (
                <span className="text-xs font-normal text-muted tabular-nums">
                  {formatCountdown(Date.parse(status.releaseAt) - now)}
                </span>
              )}
            </p>
            <p className="hidden text-sm lg:block">
              {raffle
                ? 'The waiting room is open. Everyone who joins before the release is in a random draw.'
                : 'This drop is live. Join the line to take your turn.'}
            </p>
            <Button
              size="lg"
              variant="live"
              className="w-full px-3"
              disabled={join.pending}
              aria-describedby={join.error ? 'waiting-room-error' : undefined}
              onClick={() => void join.join()}
            >
              <Users className="h-4 w-4" aria-hidden="true" />
              {join.pending ? 'Joining…' : 'Join the waiting room'}
            </Button>
            <p aria-live="polite" className="text-xs empty:hidden lg:text-sm">
              {join.checking ? CHECKING_TEXT : ''}
            </p>
            {join.error && (
              <p id="waiting-room-error" role="alert" className="text-sm font-semibold text-danger">
                {join.error}
              </p>
            )}
          </>
        )}

        {view.kind === 'draw' && (
          <p className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0">
            <strong data-room-focus tabIndex={-1} className={STATE_LINE}>
              <LiveMark />
              {DRAW_TEXT.split('. ')[0]}.
            </strong>
            <span role="timer" className="text-xs font-semibold tabular-nums lg:text-sm" data-testid="draw-in">
              {drawInText(Date.parse(status.releaseAt) - now)}
            </span>
          </p>
        )}

        {view.kind === 'line' && (
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0">
            <p data-room-focus tabIndex={-1} className={cn(STATE_LINE, 'tabular-nums')}>
              <LiveMark />
              {positionText(view.position)}
            </p>
            <p className={cn('text-xs lg:text-sm', view.paused ? 'font-bold text-danger' : allHeld ? 'font-semibold' : 'text-muted')}>
              {view.paused ? PAUSED_TEXT : allHeld ? allHeldText(holdMinutes) : (view.wait ?? 'Working out your wait…')}
            </p>
          </div>
        )}

        {view.kind === 'admitted' && (
          <>
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0">
              {/* Once the pass lapses the headline is the timer's "Your turn has ended", never "It's your turn". */}
              {!passOver && (
                <p data-room-focus tabIndex={-1} className={STATE_LINE}>
                  <LiveMark />
                  It&apos;s your turn
                </p>
              )}
              {(passExpiresAt || passOver) && (
                <div {...(passOver ? { 'data-room-focus': true, tabIndex: -1 } : {})}>
                  <PassTimer expiresAt={passExpiresAt ?? ''} ended={passOver} className={passOver ? undefined : 'text-xs lg:text-sm'} />
                </div>
              )}
            </div>
            {warning && !passOver && (
              <p className="border-l-2 border-danger pl-2 text-xs font-bold text-danger lg:text-sm" data-testid="pass-warning">
                {warning}
              </p>
            )}
            {/* Once the turn is over, Rejoin is the way on whatever else the page holds (a refused pass after
                a reload): one plain message and the button, never the refusal alone. */}
            {passOver ? (
              <>
                <Button
                  ref={rejoinButton}
                  size="lg"
                  className="w-full px-3"
                  disabled={rejoin.pending}
                  aria-describedby={rejoin.error ? 'waiting-room-lapsed waiting-room-rejoin-error' : 'waiting-room-lapsed'}
                  onClick={() => void rejoin.join()}
                >
                  <Users className="h-4 w-4" aria-hidden="true" />
                  {rejoin.pending ? 'Joining…' : REJOIN_LABEL}
                </Button>
                <p aria-live="polite" className="text-xs empty:hidden lg:text-sm">
                  {rejoin.checking ? CHECKING_TEXT : ''}
                </p>
                {rejoin.error && (
                  <p id="waiting-room-rejoin-error" role="alert" className="text-sm font-semibold text-danger">
                    {rejoin.error}
                  </p>
                )}
              </>
            ) : admission.error ? (
              <p role="alert" className="text-sm font-semibold text-danger">
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
            <p className={STATE_LINE}>{SOLD_OUT_TEXT}</p>
            <NotifyMeLink className="h-12 w-full px-3" product={{ id: productId }} label="Notify me if one comes back" />
          </>
        )}
      </div>

      {/* The rest of the room: in the page on phones, under the bar's part on wider screens. */}
      {view.kind === 'join' && !left && (
        // Phones: the explanation, folded (wider screens say it above the button).
        <details className="text-sm lg:hidden">
          <summary className="cursor-pointer font-semibold underline underline-offset-4">How the line works</summary>
          <p className="mt-1">
            {raffle
              ? 'Everyone who joins before the release is in a random draw: joining early gives no edge.'
              : 'This drop is live. Join the line to take your turn; you get a few minutes to buy when it comes.'}
          </p>
        </details>
      )}

      {/* The owner's word to everyone waiting (Admin → Drops), spoken when it appears or changes. */}
      <p role="status" data-testid="drop-owner-message" className="border-l-2 border-ink bg-bone px-2 py-1 text-sm font-semibold empty:hidden">
        {(view.kind === 'draw' || view.kind === 'line') && status.message ? status.message : ''}
      </p>

      {view.kind === 'draw' && (
        <p className="flex gap-2 text-sm">
          <Ticket className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>{DRAW_TEXT.slice(DRAW_TEXT.indexOf('. ') + 2)}</span>
        </p>
      )}

      {holding && (
        <HolderActions
          productId={productId}
          onLeft={() => {
            setStatus({ ...status, ticket: { ...status.ticket!, status: 'left', position: null, estimatedWaitSeconds: null } });
            reconnect();
          }}
        />
      )}

      {(view.kind === 'draw' || view.kind === 'line') && <p className="text-sm text-muted">{PICK_SIZE_TEXT}</p>}

      {view.kind === 'admitted' && passOver && (
        <p id="waiting-room-lapsed" className="text-sm text-muted">
          {PASS_LAPSED_TEXT}
        </p>
      )}

      {view.kind === 'sold_out' && (
        <>
          <p className="text-sm text-muted">Every piece has gone. We can tell you if one comes back.</p>
          <NextDrop excludeId={productId} />
        </>
      )}
    </section>
  );
}
