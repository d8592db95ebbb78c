import type { ReactNode } from 'react';
import { displayPrice, parseMoney } from '../../common/domain/money';

/** The money lines of an order as the buyer paid them (decimal strings of the order contract). */
export interface OrderTotalsFigures {
  subtotal: string;
  discountAmount: string;
  discountCode?: string | null;
  shipping: string;
  /** 'international' adds the customs note under the shipping line. */
  shippingMethod?: string | null;
  tax: string;
  total: string;
}

/** The shipping page's words for the international rate (docs/product.md §9): duties are the buyer's, paid on arrival. */
export const CUSTOMS_NOTE = 'excluding customs and taxes';

/**
 * An order's totals — subtotal, discount, shipping ('FREE' at 0), tax when above 0, total — the same on the
 * success page and the order page; `after` adds rows below the total (what store credit paid).
 */
export function OrderTotals({ order, label, after }: { order: OrderTotalsFigures; label?: string; after?: ReactNode }) {
  return (
    <dl className="space-y-2 border-t border-hairline px-5 py-4 text-sm" aria-label={label}>
      <div className="flex justify-between">
        <dt>Subtotal</dt>
        <dd className="tabular-nums">{displayPrice(order.subtotal)}</dd>
      </div>
      {parseMoney(order.discountAmount) > 0 && (
        <div className="flex justify-between text-success">
          <dt>Discount{order.discountCode ? ` (${order.discountCode})` : ''}</dt>
          <dd className="tabular-nums">-{displayPrice(order.discountAmount)}</dd>
        </div>
      )}
      <div className="flex flex-wrap justify-between">
        <dt>Shipping</dt>
        <dd className="tabular-nums">{parseMoney(order.shipping) === 0 ? 'FREE' : displayPrice(order.shipping)}</dd>
        {order.shippingMethod === 'international' && (
          <dd className="w-full text-xs text-muted" data-testid="customs-note">
            International, {CUSTOMS_NOTE}
          </dd>
        )}
      </div>
      {parseMoney(order.tax) > 0 && (
        <div className="flex justify-between">
          <dt>Tax</dt>
          <dd className="tabular-nums">{displayPrice(order.tax)}</dd>
        </div>
      )}
      <div className="flex items-baseline justify-between border-t border-hairline pt-3">
        <dt className="text-base font-semibold">Total</dt>
        <dd className="text-lg font-semibold tabular-nums" data-testid="order-total">
          {displayPrice(order.total)}
        </dd>
      </div>
      {after}
    </dl>
  );
}
