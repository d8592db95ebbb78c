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
