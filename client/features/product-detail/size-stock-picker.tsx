import { useId } from 'react';
import { Link } from 'wouter';
import { sizeOptionLabel } from '../../../common/domain/size-run';

export interface SizeStockOption {
  size: string;
  /** Pieces of this size a shopper can take now (live stock). */
  left: number;
}

/**
 * Sizes with their own stock (ADR 015): one radio per size, a sold-out size greyed out and disabled and
 * read as 'M — sold out', a nearly gone one as 'L — 2 left' (common/domain/size-run.ts). Native radios
 * in a fieldset: arrow keys move between sizes and skip the disabled ones on every device.
 */
export function SizeStockPicker({
  sizes,
  value,
  onChange,
  disabled = false,
  describedBy,
  id,
}: {
  sizes: readonly SizeStockOption[];
  value: string | null;
  onChange: (size: string) => void;
  disabled?: boolean;
  describedBy?: string;
  /** The fieldset's id, so Add to Cart can take the shopper to the sizes when none is chosen. */
  id?: string;
}) {
  const name = useId();
  return (
    <fieldset id={id} className="flex min-w-0 flex-col gap-2" aria-describedby={describedBy} disabled={disabled}>
      <legend className="mb-2 text-sm font-semibold">Size</legend>
      <div className="flex flex-wrap gap-2">
        {sizes.map((option) => {
          const soldOut = option.left <= 0;
          const id = `${name}-${option.size}`;
          return (
            // The radio lies over its label (transparent): a tap, a click or a test's check() lands on it.
            <div key={option.size} className="relative">
              <input
                id={id}
                type="radio"
                name={name}
                value={option.size}
                checked={value === option.size}
                disabled={soldOut}
                onChange={() => onChange(option.size)}
                className="peer absolute inset-0 z-10 m-0 h-full w-full cursor-pointer appearance-none opacity-0 disabled:cursor-not-allowed"
              />
              <label
                htmlFor={id}
                className="inline-flex min-h-11 min-w-11 cursor-pointer items-center justify-center border border-hairline-strong bg-surface px-3 text-sm font-medium peer-hover:border-ink peer-checked:border-ink peer-checked:ring-1 peer-checked:ring-ink peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-blue-600 peer-disabled:cursor-not-allowed peer-disabled:border-hairline peer-disabled:bg-transparent peer-disabled:text-muted"
              >
                {sizeOptionLabel(option.size, option.left)}
              </label>
            </div>
          );
        })}
      </div>
      <Link
        href="/size-guide"
        className="self-start text-sm text-muted underline underline-offset-4 hover:text-ink hover:no-underline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        Size guide
      </Link>
    </fieldset>
  );
}
