import { countryName } from '../../common/domain/address-format';
import { displayPrice } from '../../common/domain/money';
import { formatThreshold, isDomestic } from '../../common/domain/shipping';
import { CUSTOMS_NOTE } from './order-totals';
import { useDestinationCountry } from '../lib/destination-country';
import { useShopSettings } from '../lib/use-shop-settings';

/**
 * Whether the shopper's parcel most likely leaves the home country: the free-shipping threshold is for
 * the home country's standard rate only (docs/decisions/023-international-addresses.md), so lines that
 * promise it say so to someone abroad. False on the server render and the first paint.
 */
export function useShipsAbroad(): boolean {
  const settings = useShopSettings();
  const destination = useDestinationCountry();
  return destination !== null && !isDomestic(destination, settings.homeCountry);
}

/** "To United States addresses. International: $24.99, excluding customs and taxes" (for a shopper abroad). */
export function AbroadShippingLine({ className }: { className?: string }) {
  const settings = useShopSettings();
  const international = settings.shippingRates.find((r) => r.id === 'international');
  return (
    <span className={className} data-testid="free-shipping-scope">
      Over {formatThreshold(settings.freeShippingThreshold)} to {countryName(settings.homeCountry)} addresses.
      {international && ` International: ${displayPrice(international.price)}, ${CUSTOMS_NOTE}.`}
    </span>
  );
}
