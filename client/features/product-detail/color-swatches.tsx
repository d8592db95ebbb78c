import { useId } from 'react';
import type { ProductColor } from '../../../common/contracts/catalog';
import { cn } from '../../lib/cn';

/** Colour choice as a native radio group: arrow keys move between colours for free. */
export function ColorSwatches({
  colors,
  value,
  onChange,
}: {
  colors: readonly ProductColor[];
  value: string | null;
  onChange: (name: string) => void;
}) {
  const labelId = useId();
  const name = useId();
  return (
    <div className="flex flex-col gap-2">
      <span id={labelId} className="text-sm font-semibold">
        Color{value ? <span className="font-normal text-muted">: {value}</span> : null}
      </span>
      <div role="radiogroup" aria-labelledby={labelId} className="flex flex-wrap gap-3">
        {colors.map((c) => (
          <label key={c.name} className="relative cursor-pointer" title={c.name}>
            <input
              type="radio"
              name={name}
              value={c.name}
              checked={value === c.name}
              onChange={() => onChange(c.name)}
              // Laid over the swatch (not clipped away), so a pointer or a test clicks the radio itself.
              className="peer absolute inset-0 z-10 m-0 h-full w-full cursor-pointer appearance-none rounded-full opacity-0"
              aria-label={c.name}
            />
            <span
              aria-hidden="true"
              className={cn(
                'block h-10 w-10 rounded-full border border-hairline-strong ring-offset-2 ring-offset-paper transition',
                'peer-checked:ring-2 peer-checked:ring-ink peer-focus-visible:outline-3 peer-focus-visible:outline-offset-4 peer-focus-visible:outline-blue-600',
              )}
              style={{ backgroundColor: c.value }}
            />
          </label>
        ))}
      </div>
    </div>
  );
}
