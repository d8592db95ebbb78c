import { Check } from 'lucide-react';
import { orderTimeline } from '../../../common/domain/order-timeline';
import { cn } from '../../lib/cn';

/** The order's status as steps (common/domain/order-timeline.ts); the current one is marked for assistive technology. */
export function OrderTimeline({ status }: { status: string }) {
  const steps = orderTimeline(status);
  return (
    <ol className="grid gap-0 sm:grid-flow-col sm:auto-cols-fr" aria-label="Order status">
      {steps.map((step, i) => {
        const done = step.state === 'done';
        const current = step.state === 'current';
        const cancelled = step.status === 'cancelled';
        return (
          <li
            key={step.status}
            aria-current={current ? 'step' : undefined}
            className="relative flex gap-3 pb-5 last:pb-0 sm:flex-col sm:items-start sm:gap-2 sm:pb-0 sm:pr-3"
          >
            {i < steps.length - 1 && (
              // The line to the next step: down on a phone, across on a wide screen.
              <span
                aria-hidden="true"
                className={cn(
                  'absolute left-[15px] top-8 h-[calc(100%-2rem)] w-0.5 sm:left-8 sm:top-[15px] sm:h-0.5 sm:w-[calc(100%-2rem)]',
                  done ? 'bg-ink' : 'bg-hairline',
                )}
              />
            )}
            <span
              aria-hidden="true"
              className={cn(
                'relative z-10 flex h-8 w-8 shrink-0 items-center justify-center rounded-full border text-xs font-semibold',
                done && 'border-ink bg-ink text-paper',
                current && !cancelled && 'border-ink bg-surface text-ink ring-1 ring-ink',
                current && cancelled && 'border-danger bg-danger-soft text-danger',
                step.state === 'upcoming' && 'border-hairline-strong bg-surface text-muted',
              )}
            >
              {done ? <Check className="h-4 w-4" strokeWidth={3} /> : i + 1}
            </span>
            <div className="min-w-0 pt-1 sm:pt-0">
              <p className={cn('text-sm font-semibold', step.state === 'upcoming' && 'text-muted')}>
                {step.label}
                <span className="sr-only">{done ? ' (done)' : current ? ' (current)' : ' (to come)'}</span>
              </p>
              {current && <p className="mt-0.5 text-sm text-muted">{step.note}</p>}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
