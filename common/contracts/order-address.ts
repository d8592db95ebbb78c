import { z } from 'zod';
import { addressFields, withAddressRules } from './address';
import { safeString } from './safe-string';
import { BUYER_ADDRESS_CHANGES } from '../domain/order-address';

// The buyer's hour after ordering (docs/product.md "Order page"):
//
//   POST /api/orders/:orderNumber/address?key=…   body OrderAddressBody → OrderView; 400 { message } for an
//                                                 address the checkout would refuse; 404 for a wrong key; 409
//                                                 { message } after the hour, once shipped, or when the change
//                                                 would alter shipping or go over a per-shopper limit
//   POST /api/orders/:orderNumber/cancel?key=…    → OrderView (cancelled, refunded to the card); 409 after the hour
//   POST /api/admin/orders/:orderId/address       body OrderAddressBody → AdminOrder; 409 once shipped

/** The checkout's own address fields, rules and messages (common/contracts/address.ts): an address is valid here as it was there. */
export const orderAddressBody = withAddressRules(z.object(addressFields));
export type OrderAddressBody = z.infer<typeof orderAddressBody>;

export const ORDER_CHANGE_MESSAGES = {
  windowClosed: 'The hour to change this order has passed. Please contact support if something is wrong.',
  shipped: 'This order has already shipped, so its address can no longer be changed.',
  cancelled: 'This order was cancelled.',
  tooManyChanges: (supportEmail: string) =>
    `This order's address was already changed ${BUYER_ADDRESS_CHANGES} times. Please contact support at ${supportEmail}.`,
  alteringShipping: (supportEmail: string) =>
    `This change would alter shipping. Please contact support at ${supportEmail}.`,
} as const;

/** One change of the delivery address, kept on the order. */
export const addressSnapshotSchema = z.object({
  address: safeString(),
  city: safeString(),
  state: safeString(),
  zip: safeString(),
  country: safeString(),
});
export type AddressSnapshot = z.infer<typeof addressSnapshotSchema>;
