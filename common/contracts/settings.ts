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
});
export type ShopSettings = z.infer<typeof shopSettingsSchema>;
