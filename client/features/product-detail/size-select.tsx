import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'wouter';

/** Native select: labelled 'Size', placeholder 'Select a size' (docs/product.md §2), robust on every device. */
export function SizeSelect({
  sizes,
  value,
  onChange,
  disabled = false,
  selectId,
  describedBy,
}: {
  sizes: readonly string[];
  value: string | null;
  onChange: (size: string | null) => void;
  disabled?: boolean;
  /** The select's id, so Add to Cart can focus (and open) it when no size is chosen. */
  selectId?: string;
  describedBy?: string;
}) {
  const generated = useId();
  const id = selectId ?? generated;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className="text-sm font-semibold">
          Size
        </label>
        <Link
          href="/size-guide"
          className="text-sm text-muted underline underline-offset-4 hover:text-ink hover:no-underline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          Size guide
        </Link>
      </div>
      <div className="relative">
        <select
          id={id}
          value={value ?? ''}
          disabled={disabled}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
          className="h-12 w-full cursor-pointer appearance-none border border-hairline-strong bg-surface pr-10 pl-4 text-base hover:border-ink focus-visible:border-ink disabled:cursor-not-allowed disabled:opacity-50 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          <option value="">Select a size</option>
          {sizes.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <ChevronDown
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-3 h-5 w-5 -translate-y-1/2"
        />
      </div>
    </div>
  );
}
