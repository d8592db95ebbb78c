import type { CartItem } from '../../../common/contracts/cart';
import type { Totals } from '../../../common/contracts/checkout';
import { displayPrice, formatUsd, parseMoney } from '../../../common/domain/money';
import { lineTotalCents, pricedLine } from '../../../common/domain/pricing';
import { ProductImage } from '../../components/product-image';
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
    <section aria-labelledby="summary-heading" className="border-2 border-ink bg-white">
      <h2
        id="summary-heading"
        className="border-b-2 border-ink bg-ink px-5 py-3 font-display text-2xl uppercase tracking-wide text-paper"
      >
        Order Summary
      </h2>
      <ul className="divide-y divide-black/10 px-5" aria-label="Items in your order">
        {items.map((line) => (
          <li key={line.id} className="flex gap-3 py-4">
            <div className="relative h-16 w-14 shrink-0 bg-bone">
              {line.product.images[0] && (
                <ProductImage
                  src={line.product.images[0]}
                  alt=""
                  sizes="56px"
                  width={56}
                  height={64}
                  className="h-full w-full object-cover"
                />
              )}
              <span className="absolute -right-2 -top-2 inline-flex h-6 min-w-6 items-center justify-center rounded-full bg-ink px-1 text-xs font-bold text-paper">
                <span className="sr-only">Quantity: </span>
                {line.quantity}
              </span>
            </div>
            <div className="min-w-0 flex-1">
              <p className="font-semibold leading-tight">{line.product.name}</p>
              <p className="text-sm text-muted">
                {formatLineOptions(line)}
              </p>
            </div>
            <p className="shrink-0 font-semibold tabular-nums">{formatUsd(lineTotalCents(pricedLine(line)))}</p>
          </li>
        ))}
      </ul>
      <div className="border-t-2 border-ink px-5 py-4" aria-busy={loading}>
        {totals ? (
          <>
            <dl className="space-y-2 text-sm">
              <Row label="Subtotal" value={displayPrice(totals.subtotal)} />
              {(totals.discountCode || parseMoney(totals.discountAmount) > 0) && (
                <Row
                  label={totals.discountCode ? `Discount (${totals.discountCode})` : 'Discount'}
                  value={`-${displayPrice(totals.discountAmount)}`}
                  className="text-green-800"
                />
              )}
              <Row
                label="Shipping"
                value={parseMoney(totals.shipping) === 0 ? 'FREE' : displayPrice(totals.shipping)}
              />
              {parseMoney(totals.tax) > 0 && <Row label="Tax" value={displayPrice(totals.tax)} />}
              <div className="flex items-baseline justify-between border-t border-black/10 pt-3">
                <dt className="font-display text-xl uppercase tracking-wide">Total</dt>
                <dd className="font-display text-2xl tabular-nums">{displayPrice(totals.total)}</dd>
              </div>
            </dl>
            {!totals.freeShippingEligible && parseMoney(totals.amountToFreeShipping) > 0 && (
              <p className="mt-3 bg-accent px-3 py-2 text-xs font-semibold text-ink">
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

function Row({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div className={`flex justify-between gap-4 ${className ?? ''}`}>
      <dt>{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}
