import type { ReactNode } from 'react';
import { FormField } from '../../components/ui/form-field';
import { secondSizeOptions } from './draw-view';

const selectClass =
  'h-11 w-full cursor-pointer border border-hairline-strong bg-surface px-3 text-base text-ink focus-visible:border-ink focus-visible:outline-3 focus-visible:outline-offset-0 focus-visible:outline-blue-600 aria-[invalid=true]:border-red-700';

export interface DrawSizes {
  /** '' while none is chosen. */
  size: string;
  /** '' for no second choice. */
  secondSize: string;
}

/**
 * An entry's two sizes (entering the draw, changing an entry): the size, and a different second choice for
 * when the first is gone by the entrant's turn. Choosing as first size the one that was the second choice
 * clears the second. The caller lays the two fields out (they are its grid's cells).
 */
export function DrawSizeFields({
  sizes,
  value,
  onChange,
  ids,
  errors,
  required = false,
  placeholder,
  secondDescription,
}: {
  sizes: readonly string[];
  value: DrawSizes;
  /**
   * Gets an update of the sizes as they stand (a state updater): two quick changes in a row never undo
   * each other, whatever render the handlers were made in.
   */
  onChange: (update: (current: DrawSizes) => DrawSizes) => void;
  /** The selects' ids, when something else must reach them (the form focuses its first error). */
  ids?: { size?: string; secondSize?: string };
  errors?: { size?: string; secondSize?: string };
  required?: boolean;
  /** The first size's empty option ('Select a size'); without one a size is always chosen. */
  placeholder?: string;
  secondDescription?: ReactNode;
}) {
  return (
    <>
      <FormField label="Size" id={ids?.size} error={errors?.size} required={required}>
        {(a) => (
          <select
            {...a}
            className={selectClass}
            value={value.size}
            onChange={(e) => {
              const next = e.target.value;
              onChange((old) => ({ size: next, secondSize: old.secondSize === next ? '' : old.secondSize }));
            }}
          >
            {placeholder !== undefined && <option value="">{placeholder}</option>}
            {sizes.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        label="Second choice (optional)"
        id={ids?.secondSize}
        error={errors?.secondSize}
        description={secondDescription}
      >
        {(a) => (
          <select
            {...a}
            className={selectClass}
            value={value.secondSize}
            onChange={(e) => {
              const next = e.target.value;
              onChange((old) => ({ ...old, secondSize: next }));
            }}
          >
            <option value="">No second choice</option>
            {secondSizeOptions(sizes, value.size || null).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        )}
      </FormField>
    </>
  );
}
