import type { CartItem } from '../../../common/contracts/cart';
import type { Totals } from '../../../common/contracts/checkout';
import { displayPrice, formatUsd, parseMoney } from '../../../common/domain/money';
import { lineTotalCents, pricedLine } from '../../../common/domain/pricing';
import { CUSTOMS_NOTE } from '../../components/order-totals';
import { ProductImage } from '../../components/product-image';
import { imageForColor } from '../../../common/domain/color-image';
import { Skeleton } from '../../components/ui/skeleton';
import { formatLineOptions } from '../../../common/domain/variant';

/** Lines from the cart; every figure below them comes from the server's calculate-shipping. */
export function OrderSummary({
  items,
  totals,
  loading,
}: {
  items: CartItem[];
  totals: Totals | undefined;
  loading: boolean;
}) {
  return (
    <section aria-labelledby="summary-heading" className="border border-hairline bg-surface">
      <h2
        id="summary-heading"
        className="type-title px-5 pt-5 pb-1"
      >
        Order Summary
      </h2>
      <ul className="divide-y divide-hairline px-5" aria-label="Items in your order">
        {items.map((line) => {
          const image = imageForColor(line.product, line.selectedColor);
          return (
          <li key={line.id} className="flex gap-3 py-4">
            <div className="relative h-16 w-14 shrink-0 bg-bone">
              {image && (
                <ProductImage
                  src={image}
                  alt=""
                  sizes="56px"
                  width={56}
                  height={64}
                  className="h-full w-full object-cover"
                />
              )}
              <span className="absolute -right-2 -top-2 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-ink px-1 text-[11px] font-semibold tabular-nums text-paper">
                <span className="sr-only">Quantity: </span>
                {line.quantity}
              </span>
            </div>
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium leading-tight">{line.product.name}</p>
              <p className="text-sm text-muted">
                {formatLineOptions(line)}
              </p>
            </div>
            <p className="shrink-0 text-sm tabular-nums">{formatUsd(lineTotalCents(pricedLine(line)))}</p>
          </li>
          );
        })}
      </ul>
      <div className="border-t border-hairline px-5 py-4" aria-busy={loading}>
        {totals ? (
          <>
            <dl className="space-y-2 text-sm">
              <Row label="Subtotal" value={displayPrice(totals.subtotal)} />
              {(totals.discountCode || parseMoney(totals.discountAmount) > 0) && (
                <Row
                  label={totals.discountCode ? `Discount (${totals.discountCode})` : 'Discount'}
                  value={`-${displayPrice(totals.discountAmount)}`}
                  className="text-success"
                />
              )}
              <Row
                label="Shipping"
                value={parseMoney(totals.shipping) === 0 ? 'FREE' : displayPrice(totals.shipping)}
                note={totals.shippingMethod === 'international' ? `International, ${CUSTOMS_NOTE}` : undefined}
              />
              {parseMoney(totals.tax) > 0 && <Row label="Tax" value={displayPrice(totals.tax)} />}
              <div className="flex items-baseline justify-between border-t border-hairline pt-3">
                <dt className="text-base font-semibold">Total</dt>
                <dd className="text-lg font-semibold tabular-nums">{displayPrice(totals.total)}</dd>
              </div>
            </dl>
            {!totals.freeShippingEligible && parseMoney(totals.amountToFreeShipping) > 0 && (
              <p className="mt-3 border-t border-hairline pt-3 text-xs text-muted">
                Add {displayPrice(totals.amountToFreeShipping)} more for free shipping
              </p>
            )}
          </>
        ) : (
          <div className="space-y-2" aria-hidden="true">
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-6 w-full" />
          </div>
        )}
      </div>
    </section>
  );
}

function Row({ label, value, note, className }: { label: string; value: string; note?: string; className?: string }) {
  return (
    <div className={`flex flex-wrap justify-between gap-x-4 ${className ?? ''}`}>
      <dt>{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
      {note && (
        <dd className="w-full text-xs text-muted" data-testid="customs-note">
          {note}
        </dd>
      )}
    </div>
  );
}
