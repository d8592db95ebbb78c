import { z } from 'zod';
import { safeString } from './safe-string';
import {
  DEFAULT_COUNTRY,
  normaliseAddress,
  validateAddressFields,
  type AddressFieldKey,
} from '../domain/address-format';

// One delivery address rule for every door the shop takes an address in: the checkout's customer info, the
// order's address change (buyer and owner) and a draw entry (docs/decisions/023-international-addresses.md).
// The fields themselves only bound their length; which are required and what a postcode looks like depends
// on the country, so one refinement judges the whole address with the shared data and one transform stores
// it in canonical form (postcode 'e16rf' → 'E1 6RF', state 'illinois' → 'IL').

/** The wire fields (the spec's names). A field the country's address has not may be left out or empty. */
export const addressFields = {
  shippingAddress: safeString({ message: 'Shipping address is required' }).trim().max(300).default(''),
  shippingCity: safeString({ message: 'City is required' }).trim().max(100).default(''),
  shippingState: safeString({ message: 'State is required' }).trim().max(100).default(''),
  shippingZip: safeString({ message: 'ZIP code is required' }).trim().max(20).default(''),
  /** ISO 3166-1 alpha-2; the spec's default when the field is absent (the storefront always sends it). */
  shippingCountry: safeString().trim().max(100).toUpperCase().default(DEFAULT_COUNTRY),
};

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The address fields' messages for `value`, one issue per field, in the form's order. */
export function refineAddress(
  value: Partial<Record<AddressFieldKey | 'shippingCountry', unknown>>,
  ctx: z.RefinementCtx,
): void {
  const errors = validateAddressFields({
    shippingAddress: text(value.shippingAddress),
    shippingCity: text(value.shippingCity),
    shippingState: text(value.shippingState),
    shippingZip: text(value.shippingZip),
    shippingCountry: text(value.shippingCountry) || DEFAULT_COUNTRY,
  });
  const order = [
    'shippingCountry',
    'shippingAddress',
    'shippingCity',
    'shippingState',
    'shippingZip',
  ] as const;
  for (const key of order) {
    const message = errors[key];
    if (message) ctx.addIssue({ code: 'custom', path: [key], message });
  }
}

/** A body with the address fields: refined by the country's rules, then stored in canonical form. */
export function withAddressRules<S extends z.ZodObject<typeof addressFields & z.ZodRawShape>>(schema: S) {
  return schema
    .superRefine(refineAddress)
    .transform((v) => {
      const a = v as z.output<S> & { shippingCountry: string };
      // An empty country is the spec's default too (a client that sends the field blank).
      return normaliseAddress({ ...a, shippingCountry: a.shippingCountry || DEFAULT_COUNTRY });
    });
}

/** The address fields as the shop stores and answers them (no rule: they were judged on the way in). */
export const storedAddressFields = {
  shippingAddress: safeString(),
  shippingCity: safeString(),
  shippingState: safeString(),
  shippingZip: safeString(),
  shippingCountry: safeString(),
};
