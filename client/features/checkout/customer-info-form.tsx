import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { customerInfoBody, type CustomerInfo } from '../../../common/contracts/checkout';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api-client';
import { PO_BOX_MESSAGE } from '../../../common/domain/fulfilment-promises';
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
    setError,
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
    } catch (err) {
      // A limited edition in the cart and a P.O. box: the server's words go next to the address field.
      if (err instanceof ApiError && err.status === 400 && err.serverMessage === PO_BOX_MESSAGE) {
        setError('shippingAddress', { message: PO_BOX_MESSAGE }, { shouldFocus: true });
        return;
      }
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
        <FormField label="Email" error={errors.email?.message}>
          {(a) => <Input type="email" autoComplete="email" {...a} {...register('email')} />}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="First Name" error={errors.firstName?.message}>
            {(a) => <Input autoComplete="given-name" {...a} {...register('firstName')} />}
          </FormField>
          <FormField label="Last Name" error={errors.lastName?.message}>
            {(a) => <Input autoComplete="family-name" {...a} {...register('lastName')} />}
          </FormField>
        </div>
        <FormField label="Phone (optional)" error={errors.phone?.message}>
          {(a) => <Input type="tel" autoComplete="tel" {...a} {...register('phone')} />}
        </FormField>
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="mb-3 text-xs font-bold uppercase tracking-[0.2em] text-muted">
          Shipping Address
        </legend>
        <FormField label="Address" error={errors.shippingAddress?.message}>
          {(a) => <Input autoComplete="street-address" {...a} {...register('shippingAddress')} />}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="City" error={errors.shippingCity?.message}>
            {(a) => <Input autoComplete="address-level2" {...a} {...register('shippingCity')} />}
          </FormField>
          <FormField label="State" error={errors.shippingState?.message}>
            {(a) => <Input autoComplete="address-level1" {...a} {...register('shippingState')} />}
          </FormField>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="ZIP Code" error={errors.shippingZip?.message}>
            {(a) => <Input autoComplete="postal-code" {...a} {...register('shippingZip')} />}
          </FormField>
          <FormField label="Country" error={errors.shippingCountry?.message}>
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
          </FormField>
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
