import { z } from 'zod';
import { parseMoney } from '../domain/money';
import { DISPUTE_STATUSES, REFUND_DESTINATIONS, REFUND_REASONS, REFUND_STATUSES } from '../domain/after-sale';
import { safeString } from './safe-string';

// After the sale (docs/product.md "After the sale: cancel and refund"; ADR 021), the owner's calls:
//
//   POST /api/admin/orders/:orderId/cancel   body CancelOrderBody → 200 AdminOrder; 409 { message } once shipped
//   POST /api/admin/orders/:orderId/refund   body RefundOrderBody → 200 AdminOrder; 400 { message } above what is left
//
// Both are idempotent on `requestKey` (the owner's dialog makes one per confirmation): a retried request
// answers the order as the first one left it and never refunds twice.

export const AFTER_SALE_MESSAGES = {
  shipped: 'This order has shipped and can no longer be cancelled. Refund it instead.',
  cancelledNotShippable: 'This order was cancelled and refunded; it cannot be shipped.',
  noLines: 'Choose at least one line of this order.',
  unknownLine: 'That line is not part of this order.',
  lineCancelled: 'That line was cancelled already.',
  nothingToCancel: 'Every line of this order was cancelled already.',
  amountOrLines: 'Give an amount or choose lines to refund.',
  overRefund: (left: string) => `That is more than is left to refund on this order ($${left}).`,
  nothingLeft: 'Nothing is left to refund on this order.',
  paidWithCredit: 'Store credit paid for this order: refund it as store credit.',
  gatewayPending: 'The payment provider did not confirm the refund yet. It is retried automatically; the order shows it once it is through.',
} as const;

const requestKey = safeString().trim().min(8).max(100).optional();
const lineIds = z.array(safeString().uuid({ message: 'Unknown order line' })).max(100);

/** `itemIds` left out (or empty with `whole`): the whole order; else only those lines. */
export const cancelOrderBody = z.object({
  itemIds: lineIds.optional(),
  /** The card that paid, or the buyer's store credit (granted with the refund, no gateway call). */
  destination: z.enum(REFUND_DESTINATIONS).default('card'),
  requestKey,
});
export type CancelOrderBody = z.infer<typeof cancelOrderBody>;

const refundAmount = safeString()
  .trim()
  .transform((raw, ctx) => {
    if (!/^\d{1,8}(\.\d{1,2})?$/.test(raw)) {
      ctx.addIssue({ code: 'custom', message: 'Amount must be a number of dollars with at most 2 decimals' });
      return z.NEVER;
    }
    const cents = parseMoney(raw);
    if (cents <= 0) {
      ctx.addIssue({ code: 'custom', message: 'Amount must be greater than 0' });
      return z.NEVER;
    }
    return cents;
  });

/** A goodwill refund: an amount ("12.50"), or the price paid for some lines; the pieces stay with the buyer. */
export const refundOrderBody = z
  .object({
    amount: refundAmount.optional(),
    itemIds: lineIds.optional(),
    destination: z.enum(REFUND_DESTINATIONS).default('card'),
    requestKey,
  })
  .refine((b) => (b.amount !== undefined) !== (b.itemIds !== undefined && b.itemIds.length > 0), {
    message: AFTER_SALE_MESSAGES.amountOrLines,
  });
export type RefundOrderBody = z.infer<typeof refundOrderBody>;

export const refundRecordSchema = z.object({
  id: safeString(),
  /** The shop's decimal string (docs/decisions/016-money-minor-units.md). */
  amount: safeString(),
  status: z.enum(REFUND_STATUSES),
  reason: z.enum(REFUND_REASONS),
  destination: z.enum(REFUND_DESTINATIONS),
  createdAt: safeString(),
});
export type RefundRecord = z.infer<typeof refundRecordSchema>;

export const disputeRecordSchema = z.object({
  amount: safeString(),
  reason: safeString(),
  status: z.enum(DISPUTE_STATUSES),
  openedAt: safeString(),
  closedAt: safeString().nullable(),
});
export type DisputeRecord = z.infer<typeof disputeRecordSchema>;
