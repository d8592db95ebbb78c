import { useEffect, useState } from 'react';
import { Clock } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button';
import { formatCountdown } from './countdown';

/**
 * Live countdown of the stock hold made with the payment intent. When it lapses: "Reserve again", or for a
 * drop piece whose turn has also ended (`rejoinHref`), "Rejoin the line" in its waiting room, since a new
 * hold would be refused without a pass.
 */
export function HoldCountdown({
  endsAt,
  onRenew,
  rejoinHref = null,
}: {
  endsAt: number;
  onRenew: () => void;
  rejoinHref?: string | null;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [endsAt]);

  const remaining = endsAt - now;
  if (remaining <= 0) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-3 border-2 border-ink bg-bone px-4 py-3 text-sm">
        <p className="flex items-center gap-2 font-semibold" role="status">
          <Clock className="h-4 w-4" aria-hidden="true" />
          Your reservation has expired.
        </p>
        {rejoinHref ? (
          <Button asChild variant="outline" size="sm">
            <Link href={rejoinHref}>Rejoin the line</Link>
          </Button>
        ) : (
          <Button type="button" variant="outline" size="sm" onClick={onRenew}>
            Reserve again
          </Button>
        )}
      </div>
    );
  }
  return (
    <p
      role="timer"
      className="flex items-center gap-2 border-2 border-ink bg-accent px-4 py-3 text-sm font-semibold"
    >
      <Clock className="h-4 w-4 shrink-0" aria-hidden="true" />
      <span>Your items are reserved for {formatCountdown(remaining)}</span>
    </p>
  );
}
