import { Minus, Plus } from 'lucide-react';
import { useId } from 'react';
import { clampQuantity } from './purchase-rules';

/** Quantity from 1 up; the value is visible and announced politely when it changes. */
export function QuantityStepper({
  value,
  onChange,
  disabled,
}: {
  value: number;
  onChange: (n: number) => void;
  disabled?: boolean;
}) {
  const labelId = useId();
  const btn =
    'flex h-12 w-12 cursor-pointer items-center justify-center transition-colors hover:bg-black/5 disabled:cursor-not-allowed disabled:opacity-40 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600';
  return (
    <div className="flex flex-col gap-2">
      <span id={labelId} className="text-sm font-semibold">
        Quantity
      </span>
      <div
        role="group"
        aria-labelledby={labelId}
        className="inline-flex w-fit items-center border-2 border-ink"
      >
        <button
          type="button"
          className={btn}
          aria-label="Decrease quantity"
          disabled={disabled || value <= 1}
          onClick={() => onChange(clampQuantity(value - 1))}
        >
          <Minus className="h-4 w-4" aria-hidden="true" />
        </button>
        <output
          aria-live="polite"
          aria-atomic="true"
          className="w-12 text-center text-lg font-bold tabular-nums"
        >
          {value}
        </output>
        <button
          type="button"
          className={btn}
          aria-label="Increase quantity"
          disabled={disabled}
          onClick={() => onChange(clampQuantity(value + 1))}
        >
          <Plus className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>
    </div>
  );
}
