import { z } from 'zod';
import { shippingMethodSchema } from './settings';

const required = (message: string) => z.string({ message }).trim().min(1, { message });

/** SPEC §5 messages, exact. Shared by the form (react-hook-form) and the server. */
export const customerInfoBody = z.object({
  email: z
    .string({ message: 'Please enter a valid email address' })
    .trim()
    .email({ message: 'Please enter a valid email address' })
    .max(254, { message: 'Please enter a valid email address' }),
  firstName: required('First name is required').pipe(z.string().max(100)),
  lastName: required('Last name is required').pipe(z.string().max(100)),
  phone: z.string().trim().max(40).optional().nullable(),
  shippingAddress: required('Shipping address is required').pipe(z.string().max(300)),
  shippingCity: required('City is required').pipe(z.string().max(100)),
  shippingState: required('State is required').pipe(z.string().max(100)),
  shippingZip: required('ZIP code is required').pipe(z.string().max(20)),
  shippingCountry: z.string().trim().min(2).max(2).toUpperCase().default('US'),
});
export type CustomerInfoBody = z.infer<typeof customerInfoBody>;

export const customerInfoSchema = customerInfoBody.extend({ id: z.string().uuid(), sessionId: z.string() });
export type CustomerInfo = z.infer<typeof customerInfoSchema>;

export const validateDiscountBody = z.object({ code: z.string().trim().min(1, { message: 'Please enter a discount code' }).max(64) });
export const discountResult = z.object({ code: z.string(), discountPercent: z.number().int() });
export type DiscountResult = z.infer<typeof discountResult>;

/** The totals are computed by the server from the session's cart; the client sends choices only. */
export const calculateShippingBody = z.object({
  discountCode: z.string().trim().max(64).nullish(),
  shippingMethod: shippingMethodSchema.optional(),
});

export const totalsSchema = z.object({
  subtotal: z.string(),
  discountCode: z.string().nullable(),
  discountPercent: z.number(),
  discountAmount: z.string(),
  shipping: z.string(),
  shippingMethod: shippingMethodSchema,
  tax: z.string(),
  total: z.string(),
  freeShippingEligible: z.boolean(),
  freeShippingThreshold: z.string(),
  /** Dollars still needed for free shipping ("0.00" when eligible). */
  amountToFreeShipping: z.string(),
  itemCount: z.number().int(),
});
export type Totals = z.infer<typeof totalsSchema>;

export const createPaymentIntentBody = z.object({
  /** Ignored for pricing; when sent and different from the server's total, refused. */
  amount: z.number().nonnegative().optional(),
  discountCode: z.string().trim().max(64).nullish(),
  shippingMethod: shippingMethodSchema.optional(),
});
export const createPaymentIntentResult = z.object({
  clientSecret: z.string(),
  paymentIntentId: z.string(),
  amount: z.number().int(),
  /** ISO time the stock hold ends (the payment step shows a countdown). */
  holdExpiresAt: z.string(),
  provider: z.enum(['offline', 'stripe']),
});
export type CreatePaymentIntentResult = z.infer<typeof createPaymentIntentResult>;

export const paymentSuccessBody = z.object({ paymentIntentId: z.string().min(1).max(200) });
export const paymentSuccessResult = z.object({ orderNumber: z.string() });

export const offlineConfirmBody = z.object({
  clientSecret: z.string().min(1).max(300),
  cardNumber: z.string().min(1).max(40),
  expiry: z.string().min(1).max(10),
  cvc: z.string().min(1).max(8),
});

export const orderItemSchema = z.object({
  productName: z.string(),
  productPrice: z.string(),
  quantity: z.number().int(),
  selectedSize: z.string().nullable(),
  selectedColor: z.string().nullable(),
  productImage: z.string().nullable(),
  editionNumbers: z.array(z.number().int()),
  editionSize: z.number().int(),
});
export const orderStatusSchema = z.enum(['pending', 'confirmed', 'processing', 'shipped', 'delivered', 'cancelled']);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const orderSchema = z.object({
  id: z.string().uuid(),
  orderNumber: z.string(),
  stripePaymentIntentId: z.string(),
  customerEmail: z.string(),
  customerFirstName: z.string(),
  customerLastName: z.string(),
  customerPhone: z.string().nullable(),
  shippingAddress: z.string(),
  shippingCity: z.string(),
  shippingState: z.string(),
  shippingZip: z.string(),
  shippingCountry: z.string(),
  shippingMethod: z.string().nullable(),
  subtotal: z.string(),
  discountCode: z.string().nullable(),
  discountAmount: z.string(),
  tax: z.string(),
  shipping: z.string(),
  total: z.string(),
  status: z.string(),
  /** Paid through the offline test gateway: no money was taken. */
  isTest: z.boolean(),
  items: z.array(orderItemSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Order = z.infer<typeof orderSchema>;
