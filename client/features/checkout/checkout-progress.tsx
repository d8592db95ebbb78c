import { Check } from 'lucide-react';
import { cn } from '../../lib/cn';

export type CheckoutStep = 'info' | 'payment';

const STEPS: Array<{ id: CheckoutStep; label: string }> = [
  { id: 'info', label: 'Shipping Info' },
  { id: 'payment', label: 'Payment' },
];

/** docs/product.md §2 progress indicator: an ordered list with the current step marked aria-current="step". */
export function CheckoutProgress({ step }: { step: CheckoutStep }) {
  const current = STEPS.findIndex((s) => s.id === step);
  return (
    <nav aria-label="Checkout progress">
      <ol className="flex items-center gap-3 sm:gap-4">
        {STEPS.map((s, i) => {
          const done = i < current;
          const active = i === current;
          return (
            <li
              key={s.id}
              className="flex items-center gap-3 sm:gap-4"
              aria-current={active ? 'step' : undefined}
            >
              {i > 0 && (
                <span
                  aria-hidden="true"
                  className={cn('h-px w-8 sm:w-16', done || active ? 'bg-ink' : 'bg-hairline-strong')}
                />
              )}
              <span className="flex items-center gap-2">
                <span
                  aria-hidden="true"
                  className={cn(
                    'inline-flex h-6 w-6 items-center justify-center rounded-full border text-xs font-semibold tabular-nums',
                    active && 'border-ink bg-ink text-paper',
                    done && 'border-ink text-ink',
                    !active && !done && 'border-hairline-strong text-muted',
                  )}
                >
                  {done ? <Check className="h-3.5 w-3.5" /> : i + 1}
                </span>
                <span
                  className={cn(
                    'text-sm font-medium',
                    !active && !done && 'text-muted',
                  )}
                >
                  {s.label}
                </span>
                {done && <span className="sr-only">(completed)</span>}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
