import { Link } from 'wouter';
import { Award, CalendarClock, ExternalLink, MapPin, Truck } from 'lucide-react';
import type { OrderView } from '../../../common/contracts/orders';
import { displayPrice, formatUsd, parseMoney } from '../../../common/domain/money';
import { orderStatusLabel } from '../../../common/domain/order-timeline';
import { formatShopDate } from '../../../common/domain/ship-by';
import { formatShopDay } from '../../../common/domain/date-time-format';
import { needsSignature, SIGNATURE_REQUIRED_LABEL } from '../../../common/domain/fulfilment-promises';
import { PAGE_PATHS, pathTo } from '../../../common/domain/site-routes';
import { formatEditionNumbers } from '../../../common/domain/stock';
import { formatLineOptions } from '../../../common/domain/variant';
import { PostalAddress } from '../../components/forms/postal-address';
import { OrderTotals } from '../../components/order-totals';
import { ProductImage } from '../../components/product-image';
import { cn } from '../../lib/cn';
import { OrderTimeline } from './order-timeline';

const CARRIER_NAMES: Record<string, string> = { usps: 'USPS', ups: 'UPS', fedex: 'FedEx', dhl: 'DHL' };

function Panel({ title, icon, children }: { title: string; icon: React.ReactNode; children: React.ReactNode }) {
  const id = `order-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="border-t border-hairline pt-5">
      <h2 id={id} className="type-eyebrow flex items-center gap-2 text-muted">
        {icon}
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** Money given back and a card dispute (docs/product.md "After the sale: cancel and refund"). */
function AfterSaleNote({ order }: { order: OrderView }) {
  // Store credit (docs/product.md §2.15) is told apart from money back to the card.
  const credited = (order.refunds ?? []).filter((r) => r.status === 'succeeded' && r.destination === 'credit').reduce((a, r) => a + parseMoney(r.amount), 0);
  const refunded = parseMoney(order.refunded ?? '0') - credited;
  const pending = (order.refunds ?? []).filter((r) => r.status === 'requested').reduce((a, r) => a + parseMoney(r.amount), 0);
  if (refunded === 0 && credited === 0 && pending === 0 && !order.disputed) return null;
  return (
    <section aria-label="Refunds" className="space-y-1 bg-bone px-4 py-3 text-sm" data-testid="order-refunds">
      {refunded > 0 && (
        <p className="font-semibold">
          Refunded <span className="tabular-nums">{formatUsd(refunded)}</span> to your card. Banks usually show it within 5–10 business days.
        </p>
      )}
      {credited > 0 && (
        <p className="font-semibold">
          Refunded <span className="tabular-nums">{formatUsd(credited)}</span> as store credit, valid 1 year. It is offered at checkout with this e-mail address.
        </p>
      )}
      {pending > 0 && (
        <p>
          A refund of <span className="tabular-nums">{formatUsd(pending)}</span> is on its way to your card.
        </p>
      )}
      {order.disputed && <p>Your bank is reviewing a dispute about this payment. We hold the order until it is settled.</p>}
    </section>
  );
}

/** The buyer's order page (docs/product.md §2.13): status, delivery, pieces, address and totals. */
export function OrderDetails({ order }: { order: OrderView }) {
  const shipped = order.status === 'shipped' || order.status === 'delivered';
  return (
    <div className="space-y-6">
      <header className="border-b border-hairline pb-6">
        <p className="type-eyebrow text-muted">Order</p>
        <h1 className="type-mono mt-2 break-all text-2xl font-semibold sm:text-3xl" data-testid="order-number">
          {order.orderNumber}
        </h1>
        <p className="mt-2 text-sm text-muted">
          Placed <time dateTime={order.placedAt}>{formatShopDay(order.placedAt)}</time> · {order.customerName}
        </p>
        <p
          className={cn(
            'mt-4 inline-block border px-2.5 py-1 text-xs font-medium',
            order.status === 'cancelled'
              ? 'border-danger/30 bg-danger-soft text-danger'
              : shipped
                ? 'border-success/30 bg-success-soft text-success'
                : 'border-hairline-strong bg-surface text-ink',
          )}
        >
          <span className="sr-only">Status: </span>
          {orderStatusLabel(order.status)}
        </p>
      </header>

      {order.isTest && (
        <p className="border-l-2 border-warn bg-warn-soft px-4 py-3 text-sm font-medium text-warn">
          Test order: paid with the shop's offline test gateway. No money was taken and nothing will ship.
        </p>
      )}

      <AfterSaleNote order={order} />

      <section aria-label="Progress" className="py-2">
        <OrderTimeline status={order.status} />
      </section>

      <div className="grid gap-6 md:grid-cols-2">
        <Panel title="Delivery" icon={<CalendarClock className="h-4 w-4" aria-hidden="true" />}>
          {order.tracking ? (
            <div className="space-y-2 text-sm">
              <p>
                <span className="font-semibold">{order.tracking.carrier ? (CARRIER_NAMES[order.tracking.carrier] ?? 'Carrier') : 'Tracking'}</span>{' '}
                tracking number <span className="break-all font-mono font-semibold">{order.tracking.number}</span>
              </p>
              {order.tracking.url && (
                <a
                  href={order.tracking.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex h-11 items-center gap-1.5 bg-ink px-4 font-medium text-paper hover:bg-ink/85"
                >
                  <Truck className="h-4 w-4" aria-hidden="true" />
                  Track your package
                  <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
                  <span className="sr-only">(opens the carrier's site in a new tab)</span>
                </a>
              )}
            </div>
          ) : order.shipBy && !shipped && order.status !== 'cancelled' ? (
            <div className="text-sm">
              <p>
                Ships by{' '}
                <time dateTime={order.shipBy} className="font-semibold" data-testid="ship-by">
                  {formatShopDate(order.shipBy)}
                </time>
              </p>
              <p className="mt-1 text-muted">Every piece is made to order. We e-mail you the tracking number as soon as it ships.</p>
            </div>
          ) : (
            <p className="text-sm text-muted">{order.status === 'cancelled' ? 'This order will not ship.' : 'Tracking details will appear here once it ships.'}</p>
          )}
        </Panel>
        <Panel title="Shipping to" icon={<MapPin className="h-4 w-4" aria-hidden="true" />}>
          {/* The country's own order and the country's name last: a French or Japanese address reads as its post office writes it. */}
          <PostalAddress
            className="text-sm leading-relaxed"
            testId="shipping-address"
            address={{
              name: order.customerName,
              shippingAddress: order.shippingAddress.address,
              shippingCity: order.shippingAddress.city,
              shippingState: order.shippingAddress.state,
              shippingZip: order.shippingAddress.zip,
              shippingCountry: order.shippingAddress.country,
            }}
          />
          {/* The shipping page's promise: over $200 someone signs for the parcel. */}
          {needsSignature(parseMoney(order.total)) && (
            <p className="mt-3 text-sm" data-testid="signature-required">
              <strong>{SIGNATURE_REQUIRED_LABEL}</strong>: orders over $200 are handed over against a signature.
            </p>
          )}
        </Panel>
      </div>

      <section aria-labelledby="order-items-heading" className="border border-hairline bg-surface">
        <h2 id="order-items-heading" className="type-title border-b border-hairline px-5 py-4">
          Your pieces
        </h2>
        <ul className="divide-y divide-hairline px-5">
          {order.items.map((item, i) => (
            <li key={`${item.productName}-${i}`} className="flex gap-4 py-4">
              <div className="h-24 w-20 shrink-0 bg-bone">
                {item.productImage && (
                  <ProductImage src={item.productImage} alt="" sizes="80px" width={80} height={96} className="h-full w-full object-cover" />
                )}
              </div>
              <div className="min-w-0 flex-1 space-y-1.5">
                <div className="flex items-start justify-between gap-3">
                  <p className="font-medium leading-tight">
                    {item.cancelled ? <s>{item.productName}</s> : item.productName}
                    {item.cancelled && <span className="ml-2 text-xs font-semibold text-danger">Cancelled</span>}
                  </p>
                  <p className="shrink-0 font-medium tabular-nums">{displayPrice(item.lineTotal)}</p>
                </div>
                <p className="text-sm text-muted">{formatLineOptions(item, { quantity: true })}</p>
                {item.pieces.length > 0 && (
                  <ul className="flex flex-wrap gap-2 pt-1" aria-label={`Edition numbers of ${item.productName}`}>
                    {item.pieces.map((piece) => (
                      <li key={piece.certificateId} className="flex flex-wrap items-center gap-2">
                        <span className="type-mono border border-hairline-strong px-2 py-0.5 text-xs">
                          {formatEditionNumbers([piece.editionNumber], item.editionSize)}
                        </span>
                        <Link
                          href={pathTo(PAGE_PATHS.certificate, { id: piece.certificateId })}
                          className="inline-flex items-center gap-1 text-xs font-semibold underline underline-offset-2 hover:no-underline"
                        >
                          <Award className="h-3.5 w-3.5" aria-hidden="true" />
                          Certificate
                          <span className="sr-only"> of {formatEditionNumbers([piece.editionNumber], item.editionSize)}</span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </li>
          ))}
        </ul>
        <OrderTotals
          order={order}
          label="Totals"
          after={
            order.storeCredit && (
              <div className="flex justify-between" data-testid="order-store-credit">
                <dt>Paid with store credit</dt>
                <dd className="tabular-nums">{displayPrice(order.storeCredit)}</dd>
              </div>
            )
          }
        />
      </section>
    </div>
  );
}
