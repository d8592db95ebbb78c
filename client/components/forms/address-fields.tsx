import { useId, type ChangeEvent, type FocusEvent, type ReactNode, type Ref } from 'react';
import {
  addressFormFor,
  countryName,
  SHIPPING_COUNTRIES,
  validateAddressFields,
  type AddressFieldKey,
  type AddressFieldSpec,
} from '../../../common/domain/address-format';
import { cn } from '../../lib/cn';
import { FormField } from '../ui/form-field';
import { Input } from '../ui/input';

// The one delivery-address form of the shop (checkout, draw entry, the buyer's and the owner's address
// change): Country first, then that country's own fields, labels, order and rules from
// common/domain/address-format.ts, the same data and messages the server checks against.

export type AddressKey = AddressFieldKey | 'shippingCountry';
export type AddressValues = Record<AddressKey, string>;
export type AddressErrors = Partial<Record<AddressKey, string>>;

/**
 * How a control is tied to its form: react-hook-form's `register(name)` as it is, or a value and an
 * onChange over local state.
 */
export interface AddressBinding {
  name?: string;
  value?: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => unknown;
  onBlur?: (event: FocusEvent<HTMLInputElement | HTMLSelectElement>) => unknown;
  ref?: Ref<HTMLInputElement & HTMLSelectElement>;
}

/** The longest each field may be (the contract's limits), so typing stops where the server would refuse. */
const MAX_LENGTH: Record<AddressFieldKey, number> = {
  shippingAddress: 300,
  shippingCity: 100,
  shippingState: 100,
  shippingZip: 20,
};

const selectClass =
  'h-11 w-full cursor-pointer border border-hairline-strong bg-surface px-3 text-base text-ink transition-colors hover:border-ink focus-visible:border-ink focus-visible:outline-3 focus-visible:outline-offset-0 focus-visible:outline-blue-600 aria-[invalid=true]:border-danger';

export { browserCountry } from '../../lib/destination-country';

/** The country's fields in its own order: what the form shows and what is sent. */
export function addressFieldsOf(country: string): readonly AddressFieldSpec[] {
  return addressFormFor(country).fields;
}

/** The server's own check (same data, same messages), field → message; empty when the address is fine. */
export function addressErrors(values: Partial<AddressValues> & { shippingCountry: string }): AddressErrors {
  return validateAddressFields(values);
}

/**
 * The address as it is sent: a field the country does not use is emptied, so a US state typed before the
 * shopper switched to France does not travel with a French address.
 */
export function addressForSubmit<T extends Partial<AddressValues> & { shippingCountry: string }>(values: T): T {
  const used = new Set<string>(addressFieldsOf(values.shippingCountry).map((f) => f.key));
  const out = { ...values };
  for (const key of ['shippingAddress', 'shippingCity', 'shippingState', 'shippingZip'] as const) {
    if (!used.has(key) && key in out) (out as Record<string, unknown>)[key] = '';
  }
  return out;
}

/**
 * Country, then the country's fields. `bind` ties each control to the form (react-hook-form's register,
 * or local state); `ids` names a control's id when the form must reach it (focus the first error).
 * `country` is what is chosen now: changing the select calls `bind('shippingCountry').onChange` and the
 * form re-renders with the new country's fields. Without `countryChoice` the country is shown, not
 * asked (an order's country is fixed once it is paid for: its shipping was priced for it).
 */
export function AddressFields({
  country,
  bind,
  errors = {},
  ids,
  countryChoice = true,
  countryNote,
  autoFill = true,
  className,
}: {
  country: string;
  bind: (key: AddressKey) => AddressBinding;
  errors?: AddressErrors;
  ids?: (key: AddressKey) => string | undefined;
  countryChoice?: boolean;
  countryNote?: ReactNode;
  /** False where someone types another person's address (the owner's dialog): the browser must not fill its own. */
  autoFill?: boolean;
  className?: string;
}) {
  const listBase = useId();
  const form = addressFormFor(country);
  const [first, ...rest] = form.fields;

  const field = (spec: AddressFieldSpec) => {
    const listId = spec.options?.length ? `${listBase}-${spec.key}-list` : undefined;
    return (
      <FormField
        key={`${country}-${spec.key}`}
        label={spec.label}
        id={ids?.(spec.key)}
        error={errors[spec.key]}
        required={spec.required}
        description={spec.key === 'shippingZip' && spec.example ? `For example ${spec.example}` : undefined}
      >
        {(a) => (
          <>
            <Input
              {...a}
              {...bind(spec.key)}
              autoComplete={autoFill ? `shipping ${spec.autoComplete}` : 'off'}
              maxLength={MAX_LENGTH[spec.key]}
              list={listId}
              {...(spec.key === 'shippingZip' ? { autoCapitalize: 'characters', spellCheck: false } : {})}
            />
            {listId && (
              // Suggestions, not a lock: the shopper may type the code ("NY") or pick the name; the
              // server reads either (common/domain/address-format.ts).
              <datalist id={listId}>
                {spec.options!.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </datalist>
            )}
          </>
        )}
      </FormField>
    );
  };

  return (
    <div className={cn('grid gap-4', className)} data-country={country}>
      {countryChoice ? (
        <FormField label="Country" id={ids?.('shippingCountry')} error={errors.shippingCountry}>
          {(a) => (
            <select {...a} {...bind('shippingCountry')} autoComplete="shipping country" className={selectClass}>
              {SHIPPING_COUNTRIES.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
      ) : (
        <div className="grid content-start gap-1.5">
          <p className="text-sm font-semibold">Country</p>
          <p className="text-sm">{countryName(country)}</p>
          {countryNote && <p className="text-xs text-muted">{countryNote}</p>}
        </div>
      )}
      {first && field(first)}
      {rest.length > 0 && <div className="grid gap-4 sm:grid-cols-2">{rest.map(field)}</div>}
    </div>
  );
}
