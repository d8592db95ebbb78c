import { useId, type ReactNode } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { customerInfoBody, type CustomerInfo } from '../../../common/contracts/checkout';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { useSaveCustomerInfo } from './checkout-api';
import { SHIPPING_COUNTRIES } from './countries';

type FormInput = z.input<typeof customerInfoBody>;
type FormOutput = z.output<typeof customerInfoBody>;

function defaultsFrom(saved: CustomerInfo | null): FormInput {
  return {
    email: saved?.email ?? '',
    firstName: saved?.firstName ?? '',
    lastName: saved?.lastName ?? '',
    phone: saved?.phone ?? '',
    shippingAddress: saved?.shippingAddress ?? '',
    shippingCity: saved?.shippingCity ?? '',
    shippingState: saved?.shippingState ?? '',
    shippingZip: saved?.shippingZip ?? '',
    shippingCountry: saved?.shippingCountry ?? 'US',
  };
}

/** Step 1: shipping details (docs/product.md §5 messages come from the shared contract). */
export function CustomerInfoForm({
  saved,
  onSaved,
  onSkip,
}: {
  saved: CustomerInfo | null;
  onSaved: () => void;
  onSkip: () => void;
}) {
  const save = useSaveCustomerInfo();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(customerInfoBody),
    defaultValues: defaultsFrom(saved),
  });

  const submit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ ...values, phone: values.phone || null });
      toast({ title: 'Information Saved', description: 'Your shipping information has been saved.' });
      onSaved();
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to save your information. Please try again.',
        variant: 'destructive',
      });
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-labelledby="shipping-info-heading" className="space-y-6">
      <h2
        id="shipping-info-heading"
        tabIndex={-1}
        className="font-display text-3xl uppercase tracking-wide focus:outline-none"
      >
        Shipping Information
      </h2>

      <fieldset className="space-y-4">
        <legend className="mb-3 text-xs font-bold uppercase tracking-[0.2em] text-muted">Contact</legend>
        <Field label="Email" error={errors.email}>
          {(a) => <Input type="email" autoComplete="email" {...a} {...register('email')} />}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First Name" error={errors.firstName}>
            {(a) => <Input autoComplete="given-name" {...a} {...register('firstName')} />}
          </Field>
          <Field label="Last Name" error={errors.lastName}>
            {(a) => <Input autoComplete="family-name" {...a} {...register('lastName')} />}
          </Field>
        </div>
        <Field label="Phone (optional)" error={errors.phone}>
          {(a) => <Input type="tel" autoComplete="tel" {...a} {...register('phone')} />}
        </Field>
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="mb-3 text-xs font-bold uppercase tracking-[0.2em] text-muted">
          Shipping Address
        </legend>
        <Field label="Address" error={errors.shippingAddress}>
          {(a) => <Input autoComplete="street-address" {...a} {...register('shippingAddress')} />}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="City" error={errors.shippingCity}>
            {(a) => <Input autoComplete="address-level2" {...a} {...register('shippingCity')} />}
          </Field>
          <Field label="State" error={errors.shippingState}>
            {(a) => <Input autoComplete="address-level1" {...a} {...register('shippingState')} />}
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="ZIP Code" error={errors.shippingZip}>
            {(a) => <Input autoComplete="postal-code" {...a} {...register('shippingZip')} />}
          </Field>
          <Field label="Country" error={errors.shippingCountry}>
            {(a) => (
              <select
                autoComplete="country"
                className="h-11 w-full cursor-pointer border-2 border-neutral-300 bg-white px-3 text-base text-ink focus-visible:border-ink focus-visible:outline-3 focus-visible:outline-offset-0 focus-visible:outline-blue-600"
                {...a}
                {...register('shippingCountry')}
              >
                {SHIPPING_COUNTRIES.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </fieldset>

      <div className="flex flex-col gap-3 sm:flex-row">
        <Button type="submit" variant="default" size="lg" className="sm:flex-1" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Continue to Payment'}
        </Button>
        {saved && (
          <Button type="button" variant="outline" size="lg" onClick={onSkip}>
            Skip to Payment
          </Button>
        )}
      </div>
    </form>
  );
}

interface FieldA11y {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

function Field({
  label,
  error,
  children,
}: {
  label: string;
  error?: FieldError;
  children: (a: FieldA11y) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': error ? errorId : undefined })}
      {error?.message && (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error.message}
        </p>
      )}
    </div>
  );
}
