import { forwardRef, type InputHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(({ className, ...props }, ref) => (
  <input
    ref={ref}
    className={cn(
      'h-11 w-full border border-hairline-strong bg-surface px-3 text-base text-ink placeholder:text-neutral-500 hover:border-ink focus-visible:border-ink focus-visible:outline-3 focus-visible:outline-offset-0 focus-visible:outline-blue-600 disabled:opacity-50 aria-[invalid=true]:border-danger',
      className,
    )}
    {...props}
  />
));
Input.displayName = 'Input';
