import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/**
 * The storefront's bold e-mail field (ink border, ink focus ring) used where one address is the whole form:
 * the newsletter section, Notify me and "E-mail me when it's my turn". Callers add their own height and
 * padding; the admin and checkout forms use `Input` instead.
 */
export function EmailInput({
  className,
  onValueChange,
  ...props
}: Omit<ComponentProps<'input'>, 'type' | 'onChange' | 'value'> & { value: string; onValueChange: (value: string) => void }) {
  return (
    <input
      type="email"
      name="email"
      required
      autoComplete="email"
      placeholder="you@example.com"
      {...props}
      onChange={(e) => onValueChange(e.target.value)}
      className={cn(
        'min-w-0 border-2 border-ink bg-white text-base text-ink placeholder:text-neutral-500 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-ink',
        className,
      )}
    />
  );
}
