import type { Order } from '../../../common/contracts/checkout';
import { formatUsd, parseMoney } from '../../../common/domain/money';
import { OrderTotals } from '../../components/order-totals';
import { ProductImage } from '../../components/product-image';
import { formatEditionNumbers } from '../../../common/domain/stock';
import { formatLineOptions } from '../../../common/domain/variant';

/** The order just placed: number, lines with their edition numbers, and the totals charged. */
export function OrderConfirmation({ order }: { order: Order }) {
  return (
    <div className="border border-hairline bg-surface text-left">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-hairline px-5 py-4">
        <p className="type-eyebrow text-muted">Order number</p>
        <p className="type-mono text-lg font-semibold" data-testid="order-number">
          {order.orderNumber}
        </p>
      </div>
      <ul className="divide-y divide-hairline px-5" aria-label="Items in your order">
        {order.items.map((item, i) => (
          <li key={`${item.productName}-${i}`} className="flex gap-4 py-4">
            <div className="h-20 w-16 shrink-0 bg-bone">
              {item.productImage && (
                <ProductImage
                  src={item.productImage}
                  alt=""
                  sizes="64px"
                  width={64}
                  height={80}
                  className="h-full w-full object-cover"
                />
              )}
            </div>
            <div className="min-w-0 flex-1 space-y-1">
              <div className="flex items-start justify-between gap-3">
                <p className="font-medium leading-tight">{item.productName}</p>
                <p className="shrink-0 tabular-nums">
                  {formatUsd(parseMoney(item.productPrice) * item.quantity)}
                </p>
              </div>
              <p className="text-sm text-muted">
                {formatLineOptions(item, { quantity: true })}
              </p>
              {item.editionNumbers.length > 0 && (
                // One label per line, in the words the e-mail, admin and CSV use ('Nos. 44, 45 of 50').
                <ul className="flex flex-wrap gap-2 pt-1" aria-label="Edition numbers">
                  <li className="type-mono border border-hairline-strong px-2 py-0.5 text-xs">
                    {formatEditionNumbers(item.editionNumbers, item.editionSize)}
                  </li>
                </ul>
              )}
            </div>
          </li>
        ))}
      </ul>
      <OrderTotals order={order} />
    </div>
  );
}
