import { useId, useState, type FormEvent } from 'react';
import { Bell, CalendarPlus } from 'lucide-react';
import type { AlertSignupResponse } from '../../common/contracts/alerts';
import type { SizeStock } from '../../common/contracts/catalog';
import { Button } from './ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from './ui/dialog';
import { ApiError, apiJson } from '../lib/api-client';
import { cn } from '../lib/cn';
import { EmailInput } from './forms/email-field';

type Status =
  | { kind: 'idle' | 'checking' | 'sending' }
  | { kind: 'done'; message: string; alert: AlertSignupResponse['kind'] }
  | { kind: 'failed'; message: string };

/**
 * 'Notify me' (ADR 011): a small dialog with an e-mail field. Before a release it asks to hear
 * when the drop opens; on a sold-out edition, if a piece comes back (the server picks which). The bot
 * check is the newsletter's proof of work, solved in a Web Worker when the form is sent. A product split
 * into sizes (ADR 015) offers its sold-out sizes: "tell me if an M comes back", or any size.
 */
export function NotifyMeButton({
  productId,
  productName,
  label = 'Notify me',
  className,
  describedBy,
  sizeStock,
  variant = 'default',
}: {
  productId: string;
  /** 'link': a quiet text button (a sold-out size's Notify me under the size picker while others sell). */
  variant?: 'default' | 'link';
  /** The product's pieces left per size: its sold-out sizes are offered (none split: no choice). */
  sizeStock?: readonly SizeStock[];
  /** Named in the dialog's description when known. */
  productName?: string;
  label?: string;
  className?: string;
  describedBy?: string;
}) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const soldOutSizes = [
    ...new Set((sizeStock ?? []).filter((s) => s.size !== null && s.left <= 0).map((s) => s.size!)),
  ];
  // While other sizes are on sale the signup is for a sold-out size only ("tell me if an M comes back"):
  // no "Any size" (the server refuses a restock alert for an edition still on sale).
  const sizeOnly = soldOutSizes.length > 0 && (sizeStock ?? []).some((s) => s.left > 0);
  const [size, setSize] = useState(sizeOnly ? soldOutSizes[0]! : '');
  const chosenSize = sizeOnly && !soldOutSizes.includes(size) ? soldOutSizes[0]! : size;
  const sizeId = useId();
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const inputId = useId();
  const busy = status.kind === 'checking' || status.kind === 'sending';
  const what = productName ?? 'this design';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = email.trim();
    if (!value || busy) return;
    try {
      setStatus({ kind: 'checking' });
      const { proveHuman } = await import('../lib/proof-of-work/prove-human');
      const altcha = await proveHuman();
      setStatus({ kind: 'sending' });
      const res = await apiJson<AlertSignupResponse>('POST', `/api/products/${productId}/alerts`, {
        email: value,
        altcha,
        ...(chosenSize ? { size: chosenSize } : {}),
      });
      setStatus({ kind: 'done', message: res.message, alert: res.kind });
      setEmail('');
    } catch (err) {
      setStatus({
        kind: 'failed',
        message:
          err instanceof ApiError && err.status < 500
            ? err.serverMessage
            : 'Something went wrong. Please try again.',
      });
    }
  };

  const live =
    status.kind === 'checking'
      ? 'Checking you are human…'
      : status.kind === 'done' || status.kind === 'failed'
        ? status.message
        : '';

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setStatus({ kind: 'idle' });
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" variant={variant} aria-describedby={describedBy} className={className}>
          <Bell className="h-4 w-4" aria-hidden="true" />
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Notify me</DialogTitle>
          <DialogDescription>
            {!/comes back/i.test(label)
              ? `We'll e-mail you when the waiting room for ${what} opens, a few minutes before the release: join then to be in the draw. One e-mail, with a calendar event.`
              : sizeOnly
                ? `We'll e-mail you if a piece of ${what} in ${chosenSize} comes back. First come, first served: the first person told gets it kept for a few minutes.`
                : `We'll e-mail you if a piece of ${what} comes back. First come, first served: the first person told gets it kept for a few minutes.`}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3" noValidate={false}>
          <label htmlFor={inputId} className="text-sm font-medium">
            Email address
          </label>
          <EmailInput
            id={inputId}
            required
            placeholder="you@example.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className="h-12 px-4"
          />
          {soldOutSizes.length > 0 && (
            <>
              <label htmlFor={sizeId} className="text-sm font-medium">
                Size
              </label>
              <select
                id={sizeId}
                value={chosenSize}
                onChange={(e) => setSize(e.target.value)}
                className="h-12 border border-hairline-strong bg-surface px-3 text-base hover:border-ink focus-visible:border-ink focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-ink"
              >
                {!sizeOnly && <option value="">Any size</option>}
                {soldOutSizes.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </>
          )}
          <Button type="submit" size="lg" disabled={busy}>
            {busy ? 'Signing up…' : 'Notify me'}
          </Button>
          <p
            role="status"
            aria-live="polite"
            className={cn(
              'text-sm empty:hidden',
              status.kind === 'failed' ? 'font-semibold text-sale' : 'font-semibold',
            )}
          >
            {live}
          </p>
          {status.kind === 'done' && status.alert === 'release' && (
            // The drop's event (RFC 5545): the room's opening, with a reminder 10 minutes before.
            <a
              href={`/api/products/${productId}/calendar.ics`}
              download="drop.ics"
              className="inline-flex h-11 items-center justify-center gap-2 border border-ink px-5 text-sm font-medium text-ink hover:bg-ink hover:text-paper focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-ink"
            >
              <CalendarPlus className="h-4 w-4" aria-hidden="true" />
              Add to calendar
            </a>
          )}
          <p className="text-xs text-muted">Every e-mail has a one-click unsubscribe link.</p>
        </form>
      </DialogContent>
    </Dialog>
  );
}
