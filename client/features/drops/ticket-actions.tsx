import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Mail } from 'lucide-react';
import type { TicketMessage } from '../../../common/contracts/drop-ticket';
import { Button } from '../../components/ui/button';
import { ApiError, apiJson, apiRequest } from '../../lib/api-client';
import { EmailInput } from '../../components/forms/email-field';

const HEARTBEAT_MS = 10_000;
const failed = (err: unknown) => (err instanceof ApiError && err.status < 500 ? err.serverMessage : 'Something went wrong. Please try again.');

/**
 * Tells the server whether this page is seen while the shopper holds a ticket (ADR 011, "Alerts people can
 * act on"): at once on every visibility change, and every 10 s while visible. A page hidden or closed when
 * its turn comes is what the "your turn" e-mail is for.
 */
export function useTicketHeartbeat(productId: string, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const beat = () => {
      const visible = document.visibilityState === 'visible';
      // keepalive: the last beat of a tab being hidden or closed still goes out.
      void fetch(`/api/drops/${productId}/ticket/heartbeat`, {
        method: 'POST',
        credentials: 'include',
        keepalive: true,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ visible }),
      }).catch(() => undefined);
    };
    beat();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') beat();
    }, HEARTBEAT_MS);
    document.addEventListener('visibilitychange', beat);
    window.addEventListener('pagehide', beat);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', beat);
      window.removeEventListener('pagehide', beat);
    };
  }, [productId, active]);
}

/** "E-mail me when it's my turn": stored with this session's ticket (PUT …/ticket/email). */
export function TurnEmailForm({ productId }: { productId: string }) {
  const [email, setEmail] = useState('');
  const [open, setOpen] = useState(false);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !email.trim()) return;
    setBusy(true);
    try {
      const res = await apiJson<TicketMessage>('PUT', `/api/drops/${productId}/ticket/email`, { email: email.trim() });
      setSaid({ ok: true, text: res.message });
      setOpen(false);
    } catch (err) {
      setSaid({ ok: false, text: failed(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-2">
      {!open ? (
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="w-full"
          onClick={() => {
            setOpen(true);
            setTimeout(() => input.current?.focus(), 0);
          }}
        >
          <Mail className="h-4 w-4" aria-hidden="true" />
          {said?.ok ? 'Change my e-mail' : "E-mail me when it's my turn"}
        </Button>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-2">
          <label htmlFor={inputId} className="text-sm font-semibold">
            E-mail me when it&apos;s my turn
          </label>
          <div className="flex gap-2">
            <EmailInput
              ref={input}
              id={inputId}
              required
              placeholder="you@example.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              className="h-11 flex-1 px-3"
            />
            <Button type="submit" size="sm" className="h-11" disabled={busy}>
              {busy ? 'Saving…' : 'Save'}
            </Button>
          </div>
          <p className="text-xs text-muted">If this page is hidden or closed when your turn comes, we e-mail you and keep your turn 10 minutes longer.</p>
        </form>
      )}
      <p role="status" aria-live="polite" className={said && !said.ok ? 'text-sm font-semibold text-danger empty:hidden' : 'text-sm font-semibold empty:hidden'}>
        {said?.text ?? ''}
      </p>
    </div>
  );
}

/** "Leave the line": gives this session's place up (DELETE …/queue), after a confirmation. */
export function LeaveLineButton({ productId, onLeft }: { productId: string; onLeft: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const leaveRef = useRef<HTMLButtonElement>(null);

  const leave = async () => {
    setBusy(true);
    try {
      await apiRequest('DELETE', `/api/drops/${productId}/queue`);
      onLeft();
    } catch (err) {
      setError(failed(err));
    } finally {
      setBusy(false);
    }
  };

  if (!confirming)
    return (
      <Button
        ref={leaveRef}
        type="button"
        variant="link"
        size="sm"
        className="self-start px-0"
        onClick={() => {
          setConfirming(true);
          setTimeout(() => confirmRef.current?.focus(), 0);
        }}
      >
        Leave the line
      </Button>
    );
  return (
    <div role="group" aria-label="Leave the line?" className="flex flex-col gap-2 border border-hairline p-3">
      <p className="text-sm">Leave the line? Your place goes to the next person; if you join again, you start at the back.</p>
      <div className="flex gap-2">
        <Button ref={confirmRef} type="button" size="sm" disabled={busy} onClick={() => void leave()}>
          {busy ? 'Leaving…' : 'Yes, leave the line'}
        </Button>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => {
            setConfirming(false);
            setTimeout(() => leaveRef.current?.focus(), 0);
          }}
        >
          Stay in line
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-sm font-semibold text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

/** What a shopper holding a place (in the draw or in line) can do: ask for the e-mail, or leave. */
export function HolderActions({ productId, onLeft }: { productId: string; onLeft: () => void }) {
  return (
    <div className="flex flex-col gap-1 border-t border-hairline pt-3">
      <TurnEmailForm productId={productId} />
      <LeaveLineButton productId={productId} onLeft={onLeft} />
    </div>
  );
}
