import { z } from 'zod';
import { safeString } from './safe-string';

export const shippingMethodSchema = z.enum(['standard', 'express', 'international']);
export type ShippingMethod = z.infer<typeof shippingMethodSchema>;

export const shippingRateSchema = z.object({
  id: shippingMethodSchema,
  label: safeString(),
  price: safeString(),
  days: safeString(),
});
export type ShippingRate = z.infer<typeof shippingRateSchema>;

/** The one settings source every screen renders figures from (GET /api/settings). */
export const shopSettingsSchema = z.object({
  shopName: safeString(),
  freeShippingThreshold: safeString(),
  taxRate: z.number(),
  holdMinutes: z.number(),
  shippingRates: z.array(shippingRateSchema),
  payments: z.object({
    provider: z.enum(['offline', 'stripe']),
    stripePublishableKey: safeString().nullable(),
  }),
  supportEmail: safeString(),
  /**
   * The shop's home country (SHOP_COUNTRY): standard and express ship there, the international rate
   * everywhere else; free shipping over the threshold is domestic standard only (ADR 023).
   */
  homeCountry: safeString(),
  /** Only the profiles the owner configured. */
  socialLinks: z.array(z.object({ label: safeString(), href: safeString() })),
  /** The one source of dates in copy: the current collection ('Fall 2026') and the copyright year. */
  season: z.object({ name: safeString(), year: z.number().int() }),
});
export type ShopSettings = z.infer<typeof shopSettingsSchema>;
