import { z } from 'zod';

export const shippingMethodSchema = z.enum(['standard', 'express', 'international']);
export type ShippingMethod = z.infer<typeof shippingMethodSchema>;

export const shippingRateSchema = z.object({
  id: shippingMethodSchema,
  label: z.string(),
  price: z.string(),
  days: z.string(),
});
export type ShippingRate = z.infer<typeof shippingRateSchema>;

/** The one settings source every screen renders figures from (GET /api/settings). */
export const shopSettingsSchema = z.object({
  shopName: z.string(),
  freeShippingThreshold: z.string(),
  taxRate: z.number(),
  holdMinutes: z.number(),
  shippingRates: z.array(shippingRateSchema),
  payments: z.object({
    provider: z.enum(['offline', 'stripe']),
    stripePublishableKey: z.string().nullable(),
  }),
  supportEmail: z.string(),
  /** Only the profiles the owner configured. */
  socialLinks: z.array(z.object({ label: z.string(), href: z.string() })),
  /** The one source of dates in copy: the current collection ('Fall 2026') and the copyright year. */
  season: z.object({ name: z.string(), year: z.number().int() }),
});
export type ShopSettings = z.infer<typeof shopSettingsSchema>;
