import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdmissionPass, DropStatus } from '../../../common/contracts/drops';
import { ApiError, apiJson } from '../../lib/api-client';
import { reopenEvents, subscribeEvents } from '../../lib/shared-event-source';

const POLL_MS = 2000;

/**
 * The shopper's view of a drop's waiting room, live: GET /api/drops/:id once, then the events stream
 * (`event: status`); while the stream is down (or the browser has none) it polls GET every 2 s.
 * `reconnect` reopens the stream, e.g. after joining, so it follows the new ticket. The stream is the
 * page's one stream of this product (client/lib/shared-event-source.ts): the product page's stock line
 * follows the same one (product-detail/use-live-stock.ts).
 */
export function useDropStatus(productId: string) {
  const [status, setStatus] = useState<DropStatus | null>(null);
  const [generation, setGeneration] = useState(0);
  /** The status could not be read (no room for this product, or the server is unreachable). */
  const [unavailable, setUnavailable] = useState(false);
  const base = `/api/drops/${productId}`;

  useEffect(() => {
    let stopped = false;
    let poll: ReturnType<typeof setTimeout> | null = null;
    let unsubscribe: (() => void) | null = null;
    // How many statuses the stream has delivered: a GET asked before the latest of them answers with an
    // older state (a shopper let in by the stream would be put back in line by the GET sent when they
    // joined, and stay there: the stream sends only changes). Such an answer is dropped.
    let streamed = 0;
    function stop() {
      stopped = true;
      if (poll) clearTimeout(poll);
      poll = null;
      unsubscribe?.();
      unsubscribe = null;
    }
    const accept = (s: DropStatus) => {
      if (stopped) return;
      setStatus(s);
      // Over for good, or the room is not open yet (reopened at roomOpensAt below): no stream meanwhile.
      if (s.phase === 'ended' || s.phase === 'not_open') stop();
    };
    const fetchOnce = () => {
      const streamedBefore = streamed;
      return apiJson<DropStatus>('GET', base).then(
        (s) => {
          setUnavailable(false);
          if (streamed === streamedBefore) accept(s);
        },
        () => {
          if (!stopped) setUnavailable(true);
        },
      );
    };
    const startPolling = () => {
      if (poll || stopped) return;
      const run = () => {
        void fetchOnce().finally(() => {
          if (!stopped && poll) poll = setTimeout(run, POLL_MS);
        });
      };
      poll = setTimeout(run, POLL_MS);
    };
    const stopPolling = () => {
      if (poll) clearTimeout(poll);
      poll = null;
    };

    void fetchOnce();
    if (typeof EventSource === 'function') {
      unsubscribe = subscribeEvents(
        `${base}/events`,
        'status',
        (data) => {
          stopPolling();
          try {
            const next = JSON.parse(data) as DropStatus;
            streamed++;
            accept(next);
          } catch {
            /* a malformed event: the next one (or the poll) will do */
          }
        },
        // Down (it retries by itself) or refused for good (CLOSED): poll meanwhile.
        () => startPolling(),
      );
      // Joined, or the room just opened: the stream is asked again (with the session it now has).
      if (generation > 0) reopenEvents(`${base}/events`);
    } else {
      startPolling();
    }
    return stop;
  }, [base, generation]);

  // A room that opens later: look again when it opens (spread over 2 s, at least 1 s apart if the clocks differ).
  const opensAt = status?.phase === 'not_open' ? status.roomOpensAt : null;
  useEffect(() => {
    if (!opensAt) return;
    const wait = Math.min(Math.max(1000, Date.parse(opensAt) - Date.now() + Math.random() * 2000), 2 ** 31 - 1);
    const t = setTimeout(() => setGeneration((g) => g + 1), wait);
    return () => clearTimeout(t);
  }, [opensAt, generation]);

  const reconnect = useCallback(() => setGeneration((g) => g + 1), []);
  return { status, unavailable, setStatus, reconnect };
}

/** The server's { message } for a refusal it explains, else a generic line. */
export function refusalMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status < 500) {
    const message = err.serverMessage;
    if (message && !message.startsWith(`${err.status}:`)) return message;
  }
  return fallback;
}

/** Join: the proof of work (in a Web Worker, as the newsletter signup does), then POST queue. */
export function useJoinQueue(productId: string, onJoined: (s: DropStatus) => void, action: 'queue' | 'rejoin' = 'queue') {
  const [checking, setChecking] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const join = useCallback(async () => {
    setError(null);
    setPending(true);
    try {
      setChecking(true);
      let altcha: string;
      try {
        const { proveHuman } = await import('../../lib/proof-of-work/prove-human');
        altcha = await proveHuman();
      } finally {
        setChecking(false);
      }
      // 'rejoin': a lapsed pass (or a place the shopper left) gets a new place at the back of the line.
      onJoined(await apiJson<DropStatus>('POST', `/api/drops/${productId}/${action}`, { altcha }));
    } catch (err) {
      setError(refusalMessage(err, 'Could not join the waiting room. Please try again.'));
    } finally {
      setPending(false);
    }
  }, [productId, onJoined, action]);
  return { join, checking, pending, error };
}

interface PassAnswer {
  turn: string;
  pass: AdmissionPass | null;
  error: string | null;
  /** 403: the server will not give this turn a pass (it has passed, or it is not this session's turn). */
  refused: boolean;
}

/**
 * Once admitted: POST pass (the pass cookie the cart needs during the drop window), once per turn. A turn
 * is the ticket and its pass's end: a rejoined ticket keeps its id, so its next turn needs a pass of its
 * own. `ticketId` null: no turn to ask for (not admitted, or its pass has already run out). Returns the
 * pass, or the server's reason when it refused (`refused` for a 403: nothing to retry, only to rejoin).
 */
export function useAdmissionPass(productId: string, ticketId: string | null, turnEndsAt: string | null) {
  const turn = ticketId ? `${ticketId}@${turnEndsAt ?? ''}` : null;
  const [answer, setAnswer] = useState<PassAnswer | null>(null);
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (!turn || asked.current === turn) return;
    asked.current = turn;
    apiJson<AdmissionPass>('POST', `/api/drops/${productId}/pass`).then(
      (pass) => setAnswer({ turn, pass, error: null, refused: false }),
      (err: unknown) => {
        asked.current = null;
        setAnswer({
          turn,
          pass: null,
          error: refusalMessage(err, 'Could not let you in. Please reload the page.'),
          refused: err instanceof ApiError && err.status === 403,
        });
      },
    );
  }, [productId, turn]);
  const mine = answer && answer.turn === turn ? answer : null;
  return { pass: mine?.pass ?? null, error: mine?.error ?? null, refused: mine?.refused ?? false };
}
