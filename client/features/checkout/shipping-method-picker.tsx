import type { ShippingMethod, ShippingRate } from '../../../common/contracts/settings';
import { displayPrice } from '../../../common/domain/money';
import { availableShippingMethods } from '../../../common/domain/shipping';
import { CUSTOMS_NOTE } from '../../components/order-totals';
import { cn } from '../../lib/cn';
import { useShopSettings } from '../../lib/use-shop-settings';

export function ShippingMethodPicker({
  rates,
  country,
  value,
  onChange,
  freeShipping = false,
}: {
  rates: ShippingRate[];
  country: string;
  value: ShippingMethod;
  onChange: (method: ShippingMethod) => void;
  /** The order qualifies: standard and international cost nothing (express stays a paid upgrade). */
  freeShipping?: boolean;
}) {
  const { homeCountry } = useShopSettings();
  const allowed = availableShippingMethods(country, homeCountry);
  const options = rates.filter((r) => allowed.includes(r.id));
  return (
    <fieldset className="space-y-3">
      <legend className="type-title mb-3">Shipping Method</legend>
      {options.map((rate) => {
        const checked = rate.id === value;
        return (
          <label
            key={rate.id}
            className={cn(
              'flex cursor-pointer items-center gap-3 border bg-surface px-4 py-3 transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-600',
              checked ? 'border-ink' : 'border-hairline hover:border-ink',
            )}
          >
            <input
              type="radio"
              name="shippingMethod"
              value={rate.id}
              checked={checked}
              onChange={() => onChange(rate.id)}
              className="h-5 w-5 accent-ink focus-visible:outline-none"
            />
            <span className="flex flex-1 flex-wrap items-baseline justify-between gap-x-3">
              <span>
                <span className="font-medium">{rate.label}</span>
                <span className="block text-sm text-muted">
                  {rate.id === 'international' ? `${rate.days}, ${CUSTOMS_NOTE}` : rate.days}
                </span>
              </span>
              {freeShipping && rate.id !== 'express' ? (
                <span className="font-semibold tabular-nums">
                  <s className="mr-2 font-normal text-muted">
                    <span className="sr-only">was </span>
                    {displayPrice(rate.price)}
                  </s>
                  FREE
                </span>
              ) : (
                <span className="font-semibold tabular-nums">{displayPrice(rate.price)}</span>
              )}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
