import { z } from 'zod';
import { orderSchema } from './checkout';
import { refundRecordSchema } from './after-sale';
import { safeString } from './safe-string';

// A buyer's order page without an account (docs/product.md "Order page"). The link in every order mail
// and on the success page carries a key signed for one purpose only: viewing that one order.
//
//   GET  /api/orders/:orderNumber?key=…   → OrderView; 404 { message } for a wrong, forged or foreign key
//   POST /api/orders/find                 body FindOrderBody → 202 { message } — the same answer whether or
//                                         not the pair matched; the link is mailed only on a match
//   GET  /api/certificates/:id            → Certificate of one piece (public, nothing personal); 404 otherwise
//   GET  /api/orders/latest               → LatestOrder: this session's newest order with its page's path

export const ORDER_NOT_FOUND = 'Order not found';
export const CERTIFICATE_NOT_FOUND = 'Certificate not found';
export const FIND_ORDER_ANSWER =
  'If that order number and e-mail address match an order, we have sent a link to its page to that address.';

export const orderNumberParams = z.object({ orderNumber: safeString().trim().min(1).max(40) });
export const orderViewQuery = z.object({ key: safeString().max(200).optional() });
export const certificateParams = z.object({ id: safeString().min(1).max(200) });

export const findOrderBody = z.object({
  orderNumber: safeString().trim().min(1, 'Order number is required').max(40),
  email: safeString().trim().email('Please enter a valid e-mail address').max(254),
});
export type FindOrderBody = z.infer<typeof findOrderBody>;
export const findOrderResult = z.object({ message: safeString() });

/** One piece of a line: its edition number and its public certificate's id. */
export const orderPieceSchema = z.object({ editionNumber: z.number().int(), certificateId: safeString() });

export const orderViewItemSchema = z.object({
  productName: safeString(),
  /** Unit price, the shop's decimal string (docs/decisions/016-money-minor-units.md). */
  productPrice: safeString(),
  lineTotal: safeString(),
  quantity: z.number().int(),
  selectedSize: safeString().nullable(),
  selectedColor: safeString().nullable(),
  productImage: safeString().nullable(),
  editionSize: z.number().int(),
  pieces: z.array(orderPieceSchema),
  /** The shop cancelled this line before it shipped (its money back, docs/product.md "After the sale"). */
  cancelled: z.boolean().optional(),
});

/** What the buyer's page shows: no payment ids, no session, no internal ids. */
export const orderViewSchema = z.object({
  orderNumber: safeString(),
  status: safeString(),
  placedAt: safeString(),
  /** The shop's calendar date the order ships by ('2026-12-09'); null for orders older than the promise. */
  shipBy: safeString().nullable(),
  isTest: z.boolean(),
  customerName: safeString(),
  shippingAddress: z.object({
    address: safeString(),
    city: safeString(),
    state: safeString(),
    zip: safeString(),
    country: safeString(),
  }),
  shippingMethod: safeString().nullable(),
  items: z.array(orderViewItemSchema),
  subtotal: safeString(),
  discountCode: safeString().nullable(),
  discountAmount: safeString(),
  tax: safeString(),
  shipping: safeString(),
  total: safeString(),
  /** What store credit paid of the total (docs/product.md §2.15); absent when none. */
  storeCredit: safeString().optional(),
  tracking: z.object({ number: safeString(), carrier: safeString().nullable(), url: safeString().nullable() }).nullable(),
  /** Money given back (succeeded or on its way) and card disputes (ADR 021). */
  refunds: z.array(refundRecordSchema.pick({ amount: true, status: true, createdAt: true }).extend({ destination: refundRecordSchema.shape.destination.optional() })).optional(),
  refunded: safeString().optional(),
  disputed: z.boolean().optional(),
  /**
   * While the buyer's hour is open and the order unshipped (docs/product.md "Order page"): when it closes, as an
   * ISO time and as the shop's clock words it ('14:05 CET'); null once closed.
   */
  changeUntil: z.object({ at: safeString(), time: safeString() }).nullable().optional(),
});
export type OrderView = z.infer<typeof orderViewSchema>;

/** A piece's certificate: what was made, its number, when; never who bought it. */
export const certificateSchema = z.object({
  productName: safeString(),
  productImage: safeString().nullable(),
  editionNumber: z.number().int(),
  editionSize: z.number().int(),
  /** The shop's calendar date the piece was ordered and so made to order ('2026-12-07'). */
  madeOn: safeString(),
});
export type Certificate = z.infer<typeof certificateSchema>;

/** The success page's order, with the signed path of its order page. */
export const latestOrderSchema = orderSchema.extend({ orderPath: safeString() });
export type LatestOrder = z.infer<typeof latestOrderSchema>;
