import { useEffect } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { customerInfoBody, type CustomerInfo } from '../../../common/contracts/checkout';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { EmailInput } from '../../components/forms/email-field';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api-client';
import { PO_BOX_MESSAGE } from '../../../common/domain/fulfilment-promises';
import { useSaveCustomerInfo } from './checkout-api';
import {
  AddressFields,
  addressErrors,
  addressForSubmit,
  browserCountry,
} from '../../components/forms/address-fields';

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
    // Nothing saved yet: the browser's country (languages, time zone), which the shopper can change.
    shippingCountry: saved?.shippingCountry ?? browserCountry(),
  };
}

const contractResolver = zodResolver(customerInfoBody);

/**
 * The shared contract for the contact fields and the country's own address rules (the server's data and
 * messages) for the address: a field the country does not use is emptied first.
 */
const resolver: Resolver<FormInput, unknown, FormOutput> = async (values, context, options) => {
  const cleaned = addressForSubmit({ ...values, shippingCountry: values.shippingCountry ?? 'US' });
  const result = await contractResolver(cleaned, context, options);
  const address = addressErrors(cleaned);
  if (Object.keys(address).length === 0) return result;
  const errors: FieldErrors<FormInput> = { ...result.errors };
  for (const [key, message] of Object.entries(address))
    errors[key as keyof FormInput] = { type: 'address', message };
  return { values: {}, errors };
};

/** Step 1: shipping details (docs/product.md §5 messages come from the shared contract). */
export function CustomerInfoForm({
  saved,
  onSaved,
  onSkip,
  onCountryChange,
}: {
  saved: CustomerInfo | null;
  onSaved: () => void;
  onSkip: () => void;
  /** The country chosen now (also the first one): the order summary is priced for it. */
  onCountryChange?: (country: string) => void;
}) {
  const save = useSaveCustomerInfo();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver,
    defaultValues: defaultsFrom(saved),
  });
  const country = watch('shippingCountry') ?? 'US';
  useEffect(() => {
    onCountryChange?.(country);
  }, [country, onCountryChange]);

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
        className="type-heading focus:outline-none"
      >
        Shipping Information
      </h2>

      <fieldset className="space-y-4">
        <legend className="type-eyebrow mb-3 text-muted">Contact</legend>
        <FormField label="Email" error={errors.email?.message} required>
          {(a) => <EmailInput {...a} {...register('email')} />}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="First Name" error={errors.firstName?.message} required>
            {(a) => <Input autoComplete="given-name" {...a} {...register('firstName')} />}
          </FormField>
          <FormField label="Last Name" error={errors.lastName?.message} required>
            {(a) => <Input autoComplete="family-name" {...a} {...register('lastName')} />}
          </FormField>
        </div>
        <FormField label="Phone (optional)" error={errors.phone?.message}>
          {(a) => <Input type="tel" autoComplete="tel" {...a} {...register('phone')} />}
        </FormField>
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="type-eyebrow mb-3 text-muted">
          Shipping Address
        </legend>
        <AddressFields
          country={country}
          bind={(key) => register(key)}
          errors={{
            shippingCountry: errors.shippingCountry?.message,
            shippingAddress: errors.shippingAddress?.message,
            shippingCity: errors.shippingCity?.message,
            shippingState: errors.shippingState?.message,
            shippingZip: errors.shippingZip?.message,
          }}
        />
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
