import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/**
 * The storefront's e-mail field (a hairline that darkens on hover and focus) used where one address is the whole form:
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
        'min-w-0 border border-hairline-strong bg-surface text-base text-ink placeholder:text-neutral-500 hover:border-ink focus-visible:border-ink focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
        className,
      )}
    />
  );
}
