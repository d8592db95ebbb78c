import { z } from 'zod';
import { safeString } from './safe-string';
import { disputeRecordSchema, refundRecordSchema } from './after-sale';
import { shippingMethodSchema } from './settings';
import { addressFields, storedAddressFields, withAddressRules } from './address';

const required = (message: string) => safeString({ message }).trim().min(1, { message });

/**
 * docs/product.md §5 messages, exact (the US ones: the address's rules and labels follow its country,
 * common/contracts/address.ts). Shared by the form (react-hook-form) and the server.
 */
export const customerInfoFields = z.object({
  email: z
    .string({ message: 'Please enter a valid email address' })
    .trim()
    .email({ message: 'Please enter a valid email address' })
    .max(254, { message: 'Please enter a valid email address' }),
  firstName: required('First name is required').pipe(safeString().max(100)),
  lastName: required('Last name is required').pipe(safeString().max(100)),
  phone: safeString().trim().max(40).optional().nullable(),
  ...addressFields,
});
export const customerInfoBody = withAddressRules(customerInfoFields);
export type CustomerInfoBody = z.infer<typeof customerInfoBody>;

export const customerInfoSchema = customerInfoFields.extend({
  ...storedAddressFields,
  id: safeString().uuid(),
  sessionId: safeString(),
});
export type CustomerInfo = z.infer<typeof customerInfoSchema>;
/** GET /api/customer-info: 200 with null when nothing is saved yet. */
export const savedCustomerInfoSchema = customerInfoSchema.nullable();

export const validateDiscountBody = z.object({ code: safeString().trim().min(1, { message: 'Please enter a discount code' }).max(64) });
export const discountResult = z.object({ code: safeString(), discountPercent: z.number().int() });
export type DiscountResult = z.infer<typeof discountResult>;

/** The totals are computed by the server from the session's cart; the client sends choices only. */
export const calculateShippingBody = z.object({
  discountCode: safeString().trim().max(64).nullish(),
  shippingMethod: shippingMethodSchema.optional(),
  /**
   * The country being chosen on the info step, before it is saved: the summary is priced for it (a preview;
   * the payment is priced on the saved address). Absent: the saved address's country.
   */
  shippingCountry: safeString().trim().max(2).toUpperCase().optional(),
});

export const totalsSchema = z.object({
  subtotal: safeString(),
  discountCode: safeString().nullable(),
  discountPercent: z.number(),
  discountAmount: safeString(),
  shipping: safeString(),
  shippingMethod: shippingMethodSchema,
  tax: safeString(),
  total: safeString(),
  freeShippingEligible: z.boolean(),
  freeShippingThreshold: safeString(),
  /** Dollars still needed for free shipping ("0.00" when eligible). */
  amountToFreeShipping: safeString(),
  itemCount: z.number().int(),
});
export type Totals = z.infer<typeof totalsSchema>;

export const createPaymentIntentBody = z.object({
  /** Ignored for pricing; when sent and different from the server's total, refused. */
  amount: z.number().nonnegative().optional(),
  discountCode: safeString().trim().max(64).nullish(),
  shippingMethod: shippingMethodSchema.optional(),
  /** Pay what the buyer's store credit covers first (docs/product.md §2.15); the card pays the rest. */
  useCredit: z.boolean().optional(),
});
export const createPaymentIntentResult = z.object({
  clientSecret: safeString(),
  paymentIntentId: safeString(),
  amount: z.number().int(),
  /** ISO time the stock hold ends (the payment step shows a countdown). */
  holdExpiresAt: safeString(),
  provider: z.enum(['offline', 'stripe']),
  /** Cents of store credit held for this payment (absent: none); `amount` is what is left for the card. */
  creditApplied: z.number().int().optional(),
  /** Credit paid all of it: no payment intent was made and the order is placed. */
  orderNumber: safeString().optional(),
});
export type CreatePaymentIntentResult = z.infer<typeof createPaymentIntentResult>;

export const paymentSuccessBody = z.object({ paymentIntentId: safeString().min(1).max(200) });
export const paymentSuccessResult = z.object({ orderNumber: safeString() });

export const offlineConfirmBody = z.object({
  clientSecret: safeString().min(1).max(300),
  cardNumber: safeString().min(1).max(40),
  expiry: safeString().min(1).max(10),
  cvc: safeString().min(1).max(8),
});
/** 200 of POST /api/payments/offline/confirm (DESIGN.md: Stripe test-mode semantics; amount in cents). */
export const offlineConfirmResult = z.object({ id: safeString(), status: z.literal('succeeded'), amount: z.number().int() });
export type OfflineConfirmResult = z.infer<typeof offlineConfirmResult>;
/** 200 of POST /api/webhooks/stripe: Stripe only reads the status; `duplicate` marks an event seen before. */
export const stripeWebhookResult = z.object({ received: z.literal(true), duplicate: z.literal(true).optional() });

export const orderItemSchema = z.object({
  productName: safeString(),
  productPrice: safeString(),
  quantity: z.number().int(),
  selectedSize: safeString().nullable(),
  selectedColor: safeString().nullable(),
  productImage: safeString().nullable(),
  editionNumbers: z.array(z.number().int()),
  editionSize: z.number().int(),
  /** The line's id (the owner cancels or refunds by line) and whether it was cancelled (ADR 021). */
  id: safeString().optional(),
  cancelled: z.boolean().optional(),
});
export const orderStatusSchema = z.enum(['pending', 'confirmed', 'processing', 'shipped', 'delivered', 'cancelled']);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const orderSchema = z.object({
  id: safeString().uuid(),
  orderNumber: safeString(),
  stripePaymentIntentId: safeString(),
  customerEmail: safeString(),
  customerFirstName: safeString(),
  customerLastName: safeString(),
  customerPhone: safeString().nullable(),
  shippingAddress: safeString(),
  shippingCity: safeString(),
  shippingState: safeString(),
  shippingZip: safeString(),
  shippingCountry: safeString(),
  shippingMethod: safeString().nullable(),
  subtotal: safeString(),
  discountCode: safeString().nullable(),
  discountAmount: safeString(),
  tax: safeString(),
  shipping: safeString(),
  total: safeString(),
  /** What store credit paid of the total (docs/product.md §2.15); absent when none. */
  storeCredit: safeString().optional(),
  status: safeString(),
  /** Paid through the offline test gateway: no money was taken. */
  isTest: z.boolean(),
  /** Set by the owner when shipping (admin); trackingUrl is the carrier's page for it, when known. */
  trackingNumber: safeString().nullish(),
  carrier: safeString().nullish(),
  trackingUrl: safeString().nullish(),
  /** The shop's calendar date it ships by (common/domain/ship-by.ts); shipLate: unshipped past that date. */
  shipBy: safeString().nullish(),
  shipLate: z.boolean().optional(),
  items: z.array(orderItemSchema),
  /** After the sale (ADR 021): its refunds and card disputes, records of their own beside the status. */
  refunds: z.array(refundRecordSchema).optional(),
  disputes: z.array(disputeRecordSchema).optional(),
  /** The admin's view: every change of the delivery address, oldest first (order_address_changes). */
  addressChanges: z
    .array(
      z.object({
        changedBy: z.enum(['buyer', 'owner']),
        changedAt: safeString(),
        from: safeString(),
        to: safeString(),
      }),
    )
    .optional(),
  createdAt: safeString(),
  updatedAt: safeString(),
});
export type Order = z.infer<typeof orderSchema>;
