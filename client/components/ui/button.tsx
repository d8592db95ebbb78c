import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { Slot } from '@radix-ui/react-slot';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '../../lib/cn';

// docs/design-system.md: the primary action is ink; the accent (lime) is the live state's action only.
// Labels are shown as written (no uppercase): the casing rule keeps capitals for the display line and eyebrows.
const PRIMARY = 'bg-ink text-paper hover:bg-neutral-800';
const SECONDARY = 'border border-ink bg-transparent text-ink hover:bg-ink hover:text-paper';
const QUIET = 'bg-transparent text-ink underline-offset-4 hover:underline';

export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 whitespace-nowrap font-medium transition-colors disabled:pointer-events-none disabled:opacity-50 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600 cursor-pointer',
  {
    variants: {
      variant: {
        primary: PRIMARY,
        default: PRIMARY,
        /** Kept for existing call sites: the same ink as primary (the lime is the live state's, `live`). */
        accent: PRIMARY,
        live: 'bg-accent text-accent-ink hover:bg-lime-300',
        secondary: SECONDARY,
        outline: SECONDARY,
        quiet: QUIET,
        ghost: QUIET,
        destructive: 'bg-danger text-white hover:bg-red-800',
        link: 'text-ink underline underline-offset-4 hover:no-underline',
        inverse: 'bg-paper text-ink hover:bg-white',
      },
      size: {
        default: 'h-11 px-5 text-sm',
        sm: 'h-9 px-3 text-sm',
        lg: 'h-12 px-7 text-base',
        icon: 'h-10 w-10 p-0',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, VariantProps<typeof buttonVariants> {
  asChild?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(({ className, variant, size, asChild, ...props }, ref) => {
  const Comp = asChild ? Slot : 'button';
  return <Comp ref={ref} className={cn(buttonVariants({ variant, size }), className)} {...props} />;
});
Button.displayName = 'Button';
