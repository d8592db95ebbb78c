// After the sale (ADR 021): refunds and disputes are records of their own beside the spec's six order
// statuses, each with its own transition table on the shared lifecycle machine (lifecycle.ts). The
// repositories move a row only along these edges, in a conditional UPDATE (`WHERE status = ANY(sourcesOf(...))`).
import { lifecycleRules, type Lifecycle } from './lifecycle';

export { IllegalTransitionError } from './lifecycle';

/**
 * A refund is written `requested` before the gateway is asked (so a crash after the provider refunded is
 * found and healed by reconciliation), then `succeeded` once the provider confirmed it, or `failed` when
 * the provider refused it for good. Both ends are final.
 */
export const REFUND_STATUSES = ['requested', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Where a refund's money goes: back to the card that paid, or to the buyer's store credit (ADR 021). */
export const REFUND_DESTINATIONS = ['card', 'credit'] as const;
export type RefundDestination = (typeof REFUND_DESTINATIONS)[number];

/**
 * Why a refund was made: the owner cancelled pieces (they come back to stock), a goodwill refund (the
 * pieces stay with the buyer), or one made at the provider (the Stripe dashboard) that the shop learnt of.
 */
export const REFUND_REASONS = ['cancellation', 'goodwill', 'provider'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** A card dispute (chargeback) as the provider reports it: open until it closes, won or lost. */
export const DISPUTE_STATUSES = ['open', 'won', 'lost'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const AFTER_SALE_LIFECYCLES = {
  refund: {
    requested: ['succeeded', 'failed'],
    succeeded: [],
    failed: [],
  } satisfies Lifecycle<RefundStatus>,
  dispute: {
    open: ['won', 'lost'],
    won: [],
    lost: [],
  } satisfies Lifecycle<DisputeStatus>,
} as const;

const afterSaleRules = lifecycleRules(AFTER_SALE_LIFECYCLES);
/** Whether `from → to` is an edge of the refund or dispute lifecycle. */
export const canAfterSale = afterSaleRules.can;
/** Throws IllegalTransitionError unless `from → to` is an edge. */
export const assertAfterSale = afterSaleRules.assert;
/** The statuses a refund or dispute row may be in to move to `to`. */
export const afterSaleSourcesOf = afterSaleRules.sourcesOf;

/** A refund still being carried out: its status has somewhere to go in the table (`requested`). */
export const isRefundPending = (status: string): boolean => (AFTER_SALE_LIFECYCLES.refund[status as RefundStatus]?.length ?? 0) > 0;
/** A dispute not yet decided: its status has somewhere to go in the table (`open`). */
export const isDisputeOpen = (status: string): boolean => (AFTER_SALE_LIFECYCLES.dispute[status as DisputeStatus]?.length ?? 0) > 0;

/** Stripe's dispute statuses, folded into ours: a closed inquiry (`warning_closed`) took no money, as a won one. */
export function disputeStatusOf(providerStatus: string): DisputeStatus {
  switch (providerStatus) {
    case 'won':
    case 'warning_closed':
      return 'won';
    case 'lost':
      return 'lost';
    default:
      return 'open';
  }
}

/**
 * Order statuses whose pieces have not left the shop: only these can be cancelled (an order the owner set to
 * `cancelled` by hand still has its money and pieces until it is cancelled here).
 */
export const CANCELLABLE_ORDER_STATUSES = ['pending', 'confirmed', 'processing', 'cancelled'] as const;

export function isCancellable(orderStatus: string): boolean {
  return (CANCELLABLE_ORDER_STATUSES as readonly string[]).includes(orderStatus);
}

/** What is left to give back of a payment: paid less every refund requested or made (a failed one gave nothing). */
export function refundableCents(paidCents: number, refunds: ReadonlyArray<{ amountCents: number; status: string }>): number {
  const given = refunds.filter((r) => r.status !== 'failed').reduce((a, r) => a + r.amountCents, 0);
  return Math.max(0, paidCents - given);
}

/**
 * What cancelling (or refunding) some lines gives back: their price as the buyer paid it, i.e. with the
 * order's discount and tax spread over the goods in proportion (rounded down, so the lines together never
 * give back more than was paid for them). Shipping comes back only when the whole order is cancelled.
 */
export function linesRefundCents(
  order: { subtotalCents: number; discountAmountCents: number; taxCents: number },
  lines: ReadonlyArray<{ unitPriceCents: number; quantity: number }>,
): number {
  const gross = lines.reduce((a, l) => a + l.unitPriceCents * l.quantity, 0);
  if (order.subtotalCents <= 0 || gross <= 0) return 0;
  const paidForGoods = order.subtotalCents - order.discountAmountCents + order.taxCents;
  return Math.floor((gross * Math.max(0, paidForGoods)) / order.subtotalCents);
}
