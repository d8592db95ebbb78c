import type { Config } from '../../config';
import type { ShippingMethod, ShopSettings } from '../../../common/contracts/settings';
import { formatMoney, type Cents } from '../../../common/domain/money';
import { seasonOf } from '../../../common/domain/season';

export interface ShippingRateCents {
  id: ShippingMethod;
  label: string;
  cents: Cents;
  days: string;
}

/**
 * The one source of shop figures: free-shipping threshold, shipping rates, tax, shop name, support
 * address, social links and the season/year every date in the copy is written from.
 */
export function createSettingsService(config: Config, now: Date = new Date()) {
  const rates: ShippingRateCents[] = [
    { id: 'standard', label: 'Standard Shipping', cents: config.SHIPPING_STANDARD, days: '3-5 business days' },
    { id: 'express', label: 'Express Shipping', cents: config.SHIPPING_EXPRESS, days: '1-2 business days' },
    { id: 'international', label: 'International Shipping', cents: config.SHIPPING_INTERNATIONAL, days: '7-14 business days' },
  ];
  const publicSettings: ShopSettings = {
    shopName: config.SHOP_NAME,
    freeShippingThreshold: formatMoney(config.FREE_SHIPPING_THRESHOLD),
    taxRate: config.TAX_RATE,
    holdMinutes: config.HOLD_MINUTES,
    shippingRates: rates.map((r) => ({ id: r.id, label: r.label, price: formatMoney(r.cents), days: r.days })),
    payments: {
      provider: config.PAYMENTS,
      stripePublishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null,
    },
    supportEmail: config.SUPPORT_EMAIL,
    homeCountry: config.SHOP_COUNTRY,
    socialLinks: [
      { label: 'Instagram', href: config.SOCIAL_INSTAGRAM_URL },
      { label: 'TikTok', href: config.SOCIAL_TIKTOK_URL },
      { label: 'X', href: config.SOCIAL_X_URL },
    ].filter((l): l is { label: string; href: string } => Boolean(l.href)),
    season: seasonOf(now),
  };
  return {
    publicSettings,
    shopName: config.SHOP_NAME,
    /** The time zone the mails write times in (SHOP_TIME_ZONE, an IANA name). */
    timeZone: config.SHOP_TIME_ZONE,
    freeShippingThresholdCents: config.FREE_SHIPPING_THRESHOLD,
    /** SHOP_COUNTRY: where the domestic rates apply. */
    homeCountry: config.SHOP_COUNTRY,
    taxRate: config.TAX_RATE,
    holdMinutes: config.HOLD_MINUTES,
    rates,
    rate(id: ShippingMethod): ShippingRateCents {
      return rates.find((r) => r.id === id)!;
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
