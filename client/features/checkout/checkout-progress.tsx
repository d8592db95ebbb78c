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
                  className={cn('h-0.5 w-8 sm:w-16', done || active ? 'bg-ink' : 'bg-neutral-300')}
                />
              )}
              <span className="flex items-center gap-2">
                <span
                  aria-hidden="true"
                  className={cn(
                    'inline-flex h-8 w-8 items-center justify-center rounded-full border-2 text-sm font-bold',
                    active && 'border-ink bg-accent text-ink',
                    done && 'border-ink bg-ink text-paper',
                    !active && !done && 'border-neutral-400 text-muted',
                  )}
                >
                  {done ? <Check className="h-4 w-4" /> : i + 1}
                </span>
                <span
                  className={cn(
                    'text-sm font-bold uppercase tracking-wide',
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
