import type { Order } from '../../../common/contracts/checkout';
import { formatUsd, parseMoney } from '../../../common/domain/money';
import { OrderTotals } from '../../components/order-totals';
import { ProductImage } from '../../components/product-image';
import { formatEditionNumbers } from '../../../common/domain/stock';
import { formatLineOptions } from '../../../common/domain/variant';

/** The order just placed: number, lines with their edition numbers, and the totals charged. */
export function OrderConfirmation({ order }: { order: Order }) {
  return (
    <div className="border-2 border-ink bg-white text-left">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b-2 border-ink bg-ink px-5 py-4 text-paper">
        <p className="text-xs font-bold uppercase tracking-[0.25em]">Order number</p>
        <p className="font-mono text-lg font-bold tracking-wider" data-testid="order-number">
          {order.orderNumber}
        </p>
      </div>
      <ul className="divide-y divide-black/10 px-5" aria-label="Items in your order">
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
                <p className="font-semibold leading-tight">{item.productName}</p>
                <p className="shrink-0 font-semibold tabular-nums">
                  {formatUsd(parseMoney(item.productPrice) * item.quantity)}
                </p>
              </div>
              <p className="text-sm text-muted">
                {formatLineOptions(item, { quantity: true })}
              </p>
              {item.editionNumbers.length > 0 && (
                // One label per line, in the words the e-mail, admin and CSV use ('Nos. 44, 45 of 50').
                <ul className="flex flex-wrap gap-2 pt-1" aria-label="Edition numbers">
                  <li className="border-2 border-ink bg-accent px-2 py-0.5 text-xs font-bold tracking-wide">
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
