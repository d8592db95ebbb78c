// The lives of a purchase, in one transition table: a checkout (one payment attempt), the stock holds it
// takes, and the order it becomes. The repositories move a row only along these edges (and the
// database's CHECK constraints allow only these statuses); anything else is an IllegalTransitionError
// (the machine is lifecycle.ts, shared with the draw's lifecycles).
import { lifecycleRules, type Lifecycle } from './lifecycle';
import { ORDER_STATUSES, type OrderStatusValue } from './order-status';

export { IllegalTransitionError } from './lifecycle';

/**
 * A checkout holds stock while `open`, and ends exactly once: `fulfilled` has an order; `refunded` was
 * paid too late and given back; `expired`/`cancelled` released their hold (a late payment on them may
 * still become an order when the stock can be taken again).
 */
export const CHECKOUT_STATUSES = ['open', 'fulfilled', 'expired', 'cancelled', 'refunded'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** Units a checkout took out of stock: held → consumed (sold with the order) | released (back to stock). */
export const STOCK_HOLD_STATUSES = ['held', 'consumed', 'released'] as const;
export type StockHoldStatus = (typeof STOCK_HOLD_STATUSES)[number];

/** The owner may set any order status regardless of the current one (docs/product.md §4). */
const anyOrderStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, ORDER_STATUSES])) as unknown as Lifecycle<OrderStatusValue>;

/** From → the statuses it may move to. */
export const LIFECYCLES = {
  checkout: {
    open: ['fulfilled', 'expired', 'cancelled', 'refunded'],
    expired: ['fulfilled', 'refunded'],
    cancelled: ['fulfilled', 'refunded'],
    fulfilled: [],
    refunded: [],
  } satisfies Lifecycle<CheckoutStatus>,
  stockHold: {
    held: ['consumed', 'released'],
    consumed: [],
    released: [],
  } satisfies Lifecycle<StockHoldStatus>,
  order: anyOrderStatus,
} as const;

export type LifecycleName = keyof typeof LIFECYCLES;

const purchaseRules = lifecycleRules(LIFECYCLES);
/** Whether `from → to` is an edge of the lifecycle. */
export const canTransition = purchaseRules.can;
/** Throws IllegalTransitionError unless `from → to` is an edge of the lifecycle. */
export const assertTransition = purchaseRules.assert;
/** The statuses a row may be in to move to `to` (what `WHERE status = ANY(...)` allows). */
export const sourcesOf = purchaseRules.sourcesOf;

/** Whether a paid intent on a checkout in this state may still become an order. */
export function canFulfilCheckout(status: string): boolean {
  return canTransition('checkout', status, 'fulfilled');
}

/** Whether the checkout's stock is still held (taken out of products.stock) for it. */
export function checkoutHoldsStock(status: string): boolean {
  return status === 'open';
}
