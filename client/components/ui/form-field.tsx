import { useId, type ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Label } from './label';

/** What a field's control spreads onto itself: the label's target id and its accessible state. */
export interface FormFieldControl {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
  'aria-required'?: true;
}

/**
 * One labelled form field: label, control, optional description and error. The control is named by
 * the label exactly (the required mark sits outside it), described by the description and the error,
 * marked invalid while there is an error, and the error is announced when it appears.
 */
export function FormField({
  label,
  error,
  description,
  required = false,
  id: givenId,
  className,
  children,
}: {
  label: string;
  error?: string;
  description?: ReactNode;
  /** Shows a red * (hidden from assistive technology) and sets aria-required on the control. */
  required?: boolean;
  /** The control's id, when something else must reach it; else one is generated. */
  id?: string;
  className?: string;
  children: (control: FormFieldControl) => ReactNode;
}) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('grid content-start gap-1.5', className)}>
      <div className="flex items-baseline gap-0.5">
        <Label htmlFor={id}>{label}</Label>
        {required && (
          <span aria-hidden="true" className="text-sm font-semibold text-danger">
            *
          </span>
        )}
      </div>
      {children({
        id,
        ...(required ? { 'aria-required': true as const } : {}),
        ...(error ? { 'aria-invalid': true as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {description && (
        <p id={descriptionId} className="text-xs text-muted">
          {description}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
