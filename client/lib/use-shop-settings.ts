import { useQuery } from '@tanstack/react-query';
import type { ShopSettings } from '../../common/contracts/settings';
import { seasonOf } from '../../common/domain/season';
import { readBootstrap } from './bootstrap';

const fallback: ShopSettings = {
  shopName: 'FIFTY',
  freeShippingThreshold: '60.00',
  taxRate: 0,
  holdMinutes: 10,
  shippingRates: [
    { id: 'standard', label: 'Standard Shipping', price: '8.99', days: '3-5 business days' },
    { id: 'express', label: 'Express Shipping', price: '15.99', days: '1-2 business days' },
    { id: 'international', label: 'International Shipping', price: '24.99', days: '7-14 business days' },
  ],
  payments: { provider: 'offline', stripePublishableKey: null },
  supportEmail: 'support@fifty.local',
  homeCountry: 'US',
  socialLinks: [],
  season: seasonOf(new Date()),
};

/** The server's one settings source (threshold, rates, shop name); embedded in the HTML. */
export function useShopSettings(): ShopSettings {
  const { data } = useQuery<ShopSettings>({
    queryKey: ['/api/settings'],
    initialData: readBootstrap().settings,
  });
  return data ?? fallback;
}
