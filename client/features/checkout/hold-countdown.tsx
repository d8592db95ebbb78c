import { useEffect, useState } from 'react';
import { Clock } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { formatCountdown } from './countdown';

/**
 * Live countdown of the stock hold made with the payment intent. When it lapses: "Reserve again". (A drop
 * piece whose turn has also ended is not offered it: a new hold needs a pass, and the checkout's pass
 * notice offers "Rejoin the line" instead.)
 */
export function HoldCountdown({ endsAt, onRenew }: { endsAt: number; onRenew: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [endsAt]);

  const remaining = endsAt - now;
  if (remaining <= 0) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-3 border-l-2 border-warn bg-warn-soft px-4 py-3 text-sm text-warn">
        <p className="flex items-center gap-2 font-semibold" role="status">
          <Clock className="h-4 w-4" aria-hidden="true" />
          Your reservation has expired.
        </p>
        <Button type="button" variant="outline" size="sm" onClick={onRenew}>
          Reserve again
        </Button>
      </div>
    );
  }
  return (
    <p
      role="timer"
      className="flex items-center gap-2 border-l-2 border-hairline-strong bg-bone px-4 py-3 text-sm font-medium"
    >
      <Clock className="h-4 w-4 shrink-0" aria-hidden="true" />
      <span>Your items are reserved for {formatCountdown(remaining)}</span>
    </p>
  );
}
