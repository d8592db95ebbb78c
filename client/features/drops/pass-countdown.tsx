import { useQueries } from '@tanstack/react-query';
import { Clock } from 'lucide-react';
import { Link } from 'wouter';
import type { DropStatus } from '../../../common/contracts/drops';
import { isReleased } from '../../../common/domain/release';
import { ApiError, apiJson } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { useNow } from '../../lib/release-clock';
import { useDrops } from '../../lib/use-drops';
import { clockTime, describePassLeft, formatPassLeft, passWarning, REJOIN_LABEL, TURN_ENDED_TEXT } from './waiting-room-copy';

// The admission pass's time left (ADR 010) wherever the shopper is while it runs: the product page's
// waiting room, the cart drawer and both checkout steps. One timer, one set of warnings, one wording.

/**
 * "Your turn ends in 04:12" (spoken once a minute through its label), or "Your turn has ended": at the
 * pass's end, or before it when `ended` (the server refused the pass: the page's clock may run behind).
 */
export function PassTimer({ expiresAt, ended = false, className }: { expiresAt: string; ended?: boolean; className?: string }) {
  const now = useNow(true);
  const left = Date.parse(expiresAt) - now;
  const running = !ended && left > 0;
  return (
    <p
      role="timer"
      aria-label={running ? describePassLeft(left) : TURN_ENDED_TEXT}
      className={cn('flex items-center gap-1.5 font-semibold tabular-nums', running ? 'text-sm' : 'text-base leading-5 lg:text-xl lg:leading-7', className)}
    >
      <Clock className="h-4 w-4 shrink-0" aria-hidden="true" />
      {running ? `Your turn ends in ${formatPassLeft(left)}` : TURN_ENDED_TEXT}
    </p>
  );
}

export interface CartPass {
  productId: string;
  name: string;
  /** When the pass stops working (ISO 8601). */
  expiresAt: string;
}

/** The waiting room of a product, where "Rejoin the line" is offered once a turn has ended. */
export const waitingRoomHref = (productId: string) => `/product/${productId}#waiting-room`;

/**
 * The passes behind these cart lines: for each released drop product among them, the drop's status (GET
 * /api/drops/:id, refreshed every 15 s: a your-turn mail can extend a pass), kept when the drop is live
 * and this shopper's ticket is admitted. Products that are not drops cost no request.
 */
export function useCartPasses(lines: ReadonlyArray<{ productId: string; product: { name: string } }>): CartPass[] {
  const drops = useDrops();
  const now = Date.now();
  const dropIds = new Set(
    (drops.data ?? []).filter((p) => p.releaseAt !== null && p.soldOutAt === null && isReleased(p, now)).map((p) => p.id),
  );
  const names = new Map(lines.map((l) => [l.productId, l.product.name]));
  const ids = [...names.keys()].filter((id) => dropIds.has(id));
  const statuses = useQueries({
    queries: ids.map((id) => ({
      queryKey: ['/api/drops', id],
      queryFn: () => apiJson<DropStatus>('GET', `/api/drops/${id}`),
      staleTime: 5_000,
      refetchInterval: 15_000,
      retry: false,
    })),
  });
  const passes: CartPass[] = [];
  statuses.forEach((q, i) => {
    const s = q.data;
    const t = s?.ticket;
    if (!s || s.phase !== 'open' || t?.status !== 'admitted' || !t.passExpiresAt) return;
    passes.push({ productId: ids[i]!, name: names.get(ids[i]!) ?? 'this piece', expiresAt: t.passExpiresAt });
  });
  return passes;
}

/**
 * The pass countdown for the cart drawer and the checkout: the time left on each pass, the visible and
 * spoken (polite) warning at 60 s and 30 s, and once it lapses "Your turn has ended" with "Rejoin the
 * line". Once the shopper holds the pieces (`holdEndsAt`, the payment step's hold) the hold covers them:
 * "Your pieces are held until HH:MM", and no more pass warnings.
 */
export function DropPassNotice({
  lines,
  holdEndsAt = null,
  className,
}: {
  lines: ReadonlyArray<{ productId: string; product: { name: string } }>;
  /** Local clock time the checkout's stock hold ends; null: no hold yet. */
  holdEndsAt?: number | null;
  className?: string;
}) {
  const passes = useCartPasses(lines);
  const now = useNow(passes.length > 0 ? true : null);
  if (passes.length === 0) return null;
  const held = holdEndsAt !== null && holdEndsAt > now;
  if (held) {
    return (
      <p role="status" data-testid="drop-pass" className={cn('flex items-center gap-2 border-2 border-ink bg-bone px-4 py-3 text-sm font-semibold', className)}>
        <Clock className="h-4 w-4 shrink-0" aria-hidden="true" />
        Your pieces are held until {clockTime(new Date(holdEndsAt).toISOString())}
      </p>
    );
  }
  // The pass that ends first decides the warning; each line's own timer is shown when there are several.
  const first = [...passes].sort((a, b) => Date.parse(a.expiresAt) - Date.parse(b.expiresAt))[0]!;
  const left = Date.parse(first.expiresAt) - now;
  const warning = passWarning(left, 'check out now');
  const lapsed = passes.filter((p) => Date.parse(p.expiresAt) <= now);
  const spoken = lapsed.length > 0 ? `${TURN_ENDED_TEXT} for ${lapsed.map((p) => p.name).join(', ')}.` : (warning ?? '');
  return (
    <section
      aria-label="Your turn"
      data-testid="drop-pass"
      className={cn('space-y-2 border-2 border-ink px-4 py-3', warning || lapsed.length > 0 ? 'bg-red-50' : 'bg-accent', className)}
    >
      <p role="status" className="sr-only" data-testid="drop-pass-live">
        {spoken}
      </p>
      {passes.map((p) => (
        <div key={p.productId} className="space-y-1">
          {passes.length > 1 && <p className="text-xs font-semibold uppercase tracking-wide">{p.name}</p>}
          <PassTimer expiresAt={p.expiresAt} className={Date.parse(p.expiresAt) <= now ? 'text-xl' : undefined} />
          {Date.parse(p.expiresAt) <= now && (
            <p className="text-sm">
              Without your turn the piece can&apos;t be reserved for you.{' '}
              <Link href={waitingRoomHref(p.productId)} className="font-semibold underline underline-offset-2">
                {REJOIN_LABEL}
              </Link>
            </p>
          )}
        </div>
      ))}
      {warning && lapsed.length === 0 && (
        <p className="border-l-4 border-red-700 pl-2 text-sm font-bold text-red-700" data-testid="drop-pass-warning">
          {warning}
        </p>
      )}
    </section>
  );
}

/** The released drop products among these cart lines (those that need a pass while their window lasts). */
export function useCartDropIds(lines: ReadonlyArray<{ productId: string }>): string[] {
  const drops = useDrops();
  const now = Date.now();
  const ids = new Set((drops.data ?? []).filter((p) => p.releaseAt !== null && isReleased(p, now)).map((p) => p.id));
  return [...new Set(lines.map((l) => l.productId))].filter((id) => ids.has(id));
}

/**
 * A refusal on the drop path said in place (role=alert, beside the action that failed) with the way
 * forward: no pass (403) → "Your turn has ended" and "Rejoin the line"; a piece reserved, sold out or
 * short of stock (409) → the server's reason and the product page, which shows the current stock.
 * Anything else: the server's 4xx message, or the fallback.
 */
export function DropRefusal({
  error,
  lines,
  fallback,
  className,
}: {
  error: unknown;
  lines: ReadonlyArray<{ productId: string; product: { name: string } }>;
  fallback: string;
  className?: string;
}) {
  const dropIds = useCartDropIds(lines);
  const status = error instanceof ApiError ? error.status : 0;
  const message = error instanceof ApiError && status >= 400 && status < 500 && error.serverMessage ? error.serverMessage : fallback;
  const named = (ids: string[]) => lines.filter((l, i) => ids.includes(l.productId) && lines.findIndex((m) => m.productId === l.productId) === i);
  const rejoin = status === 403 ? named(dropIds) : [];
  const products = status === 409 ? named(dropIds.length > 0 ? dropIds : lines.map((l) => l.productId)) : [];
  return (
    <div role="alert" data-testid="drop-refusal" className={cn('space-y-2 border-2 border-red-700 bg-red-50 p-4 text-sm', className)}>
      {rejoin.length > 0 && <p className="font-display text-xl uppercase text-red-800">{TURN_ENDED_TEXT}</p>}
      <p className="font-semibold text-red-800">{message}</p>
      {rejoin.map((l) => (
        <Link key={l.productId} href={waitingRoomHref(l.productId)} className="block font-semibold underline underline-offset-2">
          {REJOIN_LABEL}
          {rejoin.length > 1 ? ` for ${l.product.name}` : ''}
        </Link>
      ))}
      {products.map((l) => (
        <Link key={l.productId} href={`/product/${l.productId}`} className="block font-semibold underline underline-offset-2">
          See what&apos;s left of {l.product.name}
        </Link>
      ))}
    </div>
  );
}
