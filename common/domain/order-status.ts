// docs/product.md §4: the admin may set any status regardless of the current one; no ordering is enforced.

export const ORDER_STATUSES = [
  'pending',
  'confirmed',
  'processing',
  'shipped',
  'delivered',
  'cancelled',
] as const;
export type OrderStatusValue = (typeof ORDER_STATUSES)[number];

export function isOrderStatus(value: string): value is OrderStatusValue {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

export type StatusTone = 'yellow' | 'blue' | 'purple' | 'green' | 'dark-green' | 'red' | 'grey';

/** Badge colours of docs/product.md §4; anything unknown is grey. */
export function orderStatusTone(status: string): StatusTone {
  switch (status) {
    case 'pending':
      return 'yellow';
    case 'confirmed':
      return 'blue';
    case 'processing':
      return 'purple';
    case 'shipped':
      return 'green';
    case 'delivered':
      return 'dark-green';
    case 'cancelled':
      return 'red';
    default:
      return 'grey';
  }
}

/**
 * A checkout is one payment attempt: it holds stock while `open`, and ends exactly once.
 * `fulfilled` has an order; `refunded` was paid too late and given back; `expired`/`cancelled` released their hold
 * (a late payment on them may still become an order when stock can be taken again).
 */
export const CHECKOUT_STATUSES = ['open', 'fulfilled', 'expired', 'cancelled', 'refunded'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** Whether a paid intent on a checkout in this state may still become an order. */
export function canFulfilCheckout(status: string): boolean {
  return status === 'open' || status === 'expired' || status === 'cancelled';
}

/** Whether the checkout's stock is still held (taken out of products.stock) for it. */
export function checkoutHoldsStock(status: string): boolean {
  return status === 'open';
}
