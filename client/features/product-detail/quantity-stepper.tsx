import { Minus, Plus } from 'lucide-react';
import { useId } from 'react';
import { limitNote } from '../../../common/domain/purchase-limit';
import { clampQuantity, quantityMax } from './purchase-rules';

/**
 * Quantity from 1 up; with `product`, up to its stock and its per-shopper limit, with 'Limit 2 per
 * customer' under it (tied to the group). The value is visible and announced politely when it changes.
 */
export function QuantityStepper({
  value,
  onChange,
  disabled,
  product,
}: {
  value: number;
  onChange: (n: number) => void;
  disabled?: boolean;
  product?: { stock: number; maxPerShopper: number };
}) {
  const max = product ? quantityMax(product) : Infinity;
  const limit = product?.maxPerShopper;
  const labelId = useId();
  const noteId = useId();
  const btn =
    'flex h-12 w-12 cursor-pointer items-center justify-center transition-colors hover:bg-bone disabled:cursor-not-allowed disabled:opacity-40 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600';
  return (
    <div className="flex flex-col gap-2">
      <span id={labelId} className="text-sm font-semibold">
        Quantity
      </span>
      <div
        role="group"
        aria-labelledby={labelId}
        aria-describedby={limit ? noteId : undefined}
        className="inline-flex w-fit items-center border border-hairline-strong bg-surface"
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
          className="w-12 text-center text-base font-medium tabular-nums"
        >
          {value}
        </output>
        <button
          type="button"
          className={btn}
          aria-label="Increase quantity"
          disabled={disabled || value >= max}
          onClick={() => onChange(Math.min(max, clampQuantity(value + 1)))}
        >
          <Plus className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>
      {limit !== undefined && (
        <p id={noteId} className="text-sm text-muted">
          {limitNote(limit)}
        </p>
      )}
    </div>
  );
}
