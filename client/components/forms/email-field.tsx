import { forwardRef, type InputHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';
import { Input } from '../ui/input';

// The shop's one e-mail field: checkout, the draw entry, the newsletter, Notify me, "E-mail me when it's my
// turn" and Find my order all ask for an address the same way, so the browser fills it alike everywhere and
// a mistyped one is named in the same words.

/** The words every form shows for an address that is not one (the checkout and newsletter contracts' own). */
export const EMAIL_MESSAGE = 'Please enter a valid email address';

/**
 * An e-mail `<input>` (the storefront's field look). Takes `register('email')` or a value and onChange.
 * Where the browser checks the form (no `noValidate`), its bubble says EMAIL_MESSAGE too.
 */
export const EmailInput = forwardRef<HTMLInputElement, Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>>(
  ({ className, onInvalid, onInput, ...props }, ref) => (
    <Input
      ref={ref}
      type="email"
      name="email"
      autoComplete="email"
      maxLength={254}
      spellCheck={false}
      autoCapitalize="none"
      {...props}
      onInvalid={(e) => {
        e.currentTarget.setCustomValidity(EMAIL_MESSAGE);
        onInvalid?.(e);
      }}
      onInput={(e) => {
        e.currentTarget.setCustomValidity('');
        onInput?.(e);
      }}
      className={cn('min-w-0', className)}
    />
  ),
);
EmailInput.displayName = 'EmailInput';
