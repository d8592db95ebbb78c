import type { ReactNode } from 'react';
import { displayPrice, parseMoney } from '../../common/domain/money';

/** The money lines of an order as the buyer paid them (decimal strings of the order contract). */
export interface OrderTotalsFigures {
  subtotal: string;
  discountAmount: string;
  discountCode?: string | null;
  shipping: string;
  tax: string;
  total: string;
}

/**
 * An order's totals — subtotal, discount, shipping ('FREE' at 0), tax when above 0, total — the same on the
 * success page and the order page; `after` adds rows below the total (what store credit paid).
 */
export function OrderTotals({ order, label, after }: { order: OrderTotalsFigures; label?: string; after?: ReactNode }) {
  return (
    <dl className="space-y-2 border-t-2 border-ink px-5 py-4 text-sm" aria-label={label}>
      <div className="flex justify-between">
        <dt>Subtotal</dt>
        <dd className="tabular-nums">{displayPrice(order.subtotal)}</dd>
      </div>
      {parseMoney(order.discountAmount) > 0 && (
        <div className="flex justify-between text-green-800">
          <dt>Discount{order.discountCode ? ` (${order.discountCode})` : ''}</dt>
          <dd className="tabular-nums">-{displayPrice(order.discountAmount)}</dd>
        </div>
      )}
      <div className="flex justify-between">
        <dt>Shipping</dt>
        <dd className="tabular-nums">{parseMoney(order.shipping) === 0 ? 'FREE' : displayPrice(order.shipping)}</dd>
      </div>
      {parseMoney(order.tax) > 0 && (
        <div className="flex justify-between">
          <dt>Tax</dt>
          <dd className="tabular-nums">{displayPrice(order.tax)}</dd>
        </div>
      )}
      <div className="flex items-baseline justify-between border-t border-black/10 pt-3">
        <dt className="font-display text-xl uppercase tracking-wide">Total</dt>
        <dd className="font-display text-2xl tabular-nums" data-testid="order-total">
          {displayPrice(order.total)}
        </dd>
      </div>
      {after}
    </dl>
  );
}
