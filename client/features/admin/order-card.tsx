import type { AdminOrder } from '../../../common/contracts/admin';
import type { OrderStatus } from '../../../common/contracts/checkout';
import { formatEditionNumbers } from '../../../common/domain/stock';
import { ORDER_STATUSES } from '../../../common/domain/order-status';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { toast } from '../../components/ui/use-toast';
import { cn } from '../../lib/cn';
import { formatOrderDate, formatShipping, orderStatusBadgeClass, orderStatusLabel } from './order-display';
import { useUpdateOrderStatus } from './use-admin-data';

const usd = (amount: string) => `$${amount}`;

export function OrderCard({ order }: { order: AdminOrder }) {
  const update = useUpdateOrderStatus();
  const headingId = `order-${order.id}`;
  const hasDiscount = Number(order.discountAmount) > 0 || Boolean(order.discountCode);

  const onStatus = (status: string) => {
    if (status === order.status) return;
    update.mutate(
      { id: order.id, status: status as OrderStatus },
      {
        onSuccess: () => toast({ title: 'Success', description: 'Order status updated successfully' }),
        onError: () =>
          toast({ title: 'Error', description: 'Failed to update order status', variant: 'destructive' }),
      },
    );
  };

  return (
    <article aria-labelledby={headingId} className="border-2 border-ink bg-white">
      <header className="flex flex-wrap items-start justify-between gap-3 border-b-2 border-ink bg-bone px-4 py-3">
        <div className="min-w-0">
          <h3 id={headingId} className="font-mono text-base font-bold">
            {order.orderNumber}
          </h3>
          <p className="text-sm text-muted">
            <time dateTime={order.createdAt}>{formatOrderDate(order.createdAt)}</time>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {order.isTest && (
            <span
              className="border border-amber-700 bg-amber-100 px-2 py-1 text-xs font-bold text-amber-900"
              title="Paid with the offline test gateway: no money was taken"
            >
              Test order
            </span>
          )}
          {/* Two different things: the payment (every order exists because its payment succeeded)
              and the fulfilment, which the owner moves on with the dropdown (coloured as its badge). */}
          <span className="border border-green-800 bg-green-100 px-2 py-1 text-xs font-bold text-green-900">
            <span className="sr-only">Payment: </span>
            Paid
          </span>
          <span className="text-xs font-bold uppercase tracking-wide text-muted" aria-hidden="true">
            Fulfilment
          </span>
          <Select value={order.status} onValueChange={onStatus} disabled={update.isPending}>
            <SelectTrigger
              aria-label={`Order status for ${order.orderNumber}`}
              className={cn('h-9 w-40 text-sm font-bold', orderStatusBadgeClass(order.status))}
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {ORDER_STATUSES.map((s) => (
                <SelectItem key={s} value={s}>
                  {orderStatusLabel(s)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </header>

      <div className="grid gap-4 p-4 md:grid-cols-[1fr_1fr_minmax(14rem,18rem)]">
        <section aria-label="Customer" className="text-sm">
          <h4 className="mb-1 text-xs font-bold uppercase tracking-wide text-muted">Customer</h4>
          <p className="font-semibold">
            {order.customerFirstName} {order.customerLastName}
          </p>
          <p className="break-all">
            <a
              href={`mailto:${order.customerEmail}`}
              className="underline underline-offset-2 hover:no-underline"
            >
              {order.customerEmail}
            </a>
          </p>
          {order.customerPhone && <p>{order.customerPhone}</p>}
        </section>

        <section aria-label="Shipping address" className="text-sm">
          <h4 className="mb-1 text-xs font-bold uppercase tracking-wide text-muted">Shipping address</h4>
          <address className="not-italic">
            {order.shippingAddress}
            <br />
            {order.shippingCity}, {order.shippingState} {order.shippingZip}
            <br />
            {order.shippingCountry}
          </address>
          {order.shippingMethod && (
            <p className="mt-1 text-muted">Method: {orderStatusLabel(order.shippingMethod)}</p>
          )}
        </section>

        <section aria-label="Totals" className="text-sm md:row-span-2">
          <h4 className="mb-1 text-xs font-bold uppercase tracking-wide text-muted">Totals</h4>
          <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1">
            <dt>Subtotal</dt>
            <dd className="text-right">{usd(order.subtotal)}</dd>
            {hasDiscount && (
              <>
                <dt>Discount{order.discountCode ? ` (${order.discountCode})` : ''}</dt>
                <dd className="text-right text-green-800">-{usd(order.discountAmount)}</dd>
              </>
            )}
            <dt>Shipping</dt>
            <dd className="text-right">{formatShipping(order.shipping)}</dd>
            <dt>Tax</dt>
            <dd className="text-right">{usd(order.tax)}</dd>
            <dt className="border-t border-ink pt-1 font-bold">Total</dt>
            <dd className="border-t border-ink pt-1 text-right font-bold">{usd(order.total)}</dd>
          </dl>
          <p className="mt-3 text-xs text-muted">Payment ID</p>
          <p className="break-all font-mono text-xs">{order.stripePaymentIntentId}</p>
        </section>

        <section aria-label="Items" className="text-sm md:col-span-2">
          <h4 className="mb-1 text-xs font-bold uppercase tracking-wide text-muted">Items</h4>
          <ul className="divide-y divide-neutral-200 border-y border-neutral-200">
            {order.items.map((item, i) => {
              const edition = formatEditionNumbers(item.editionNumbers, item.editionSize);
              return (
                <li
                  key={`${item.productName}-${i}`}
                  className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-2"
                >
                  <div className="min-w-0">
                    <p className="font-semibold">{item.productName}</p>
                    <p className="text-muted">
                      {[
                        item.selectedSize && `Size: ${item.selectedSize}`,
                        item.selectedColor && `Color: ${item.selectedColor}`,
                        `Qty: ${item.quantity}`,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </p>
                    {edition && <p className="text-xs font-semibold tracking-wide">{edition}</p>}
                  </div>
                  <p className="text-right">
                    {usd(item.productPrice)}
                    {item.quantity > 1 && <span className="text-muted"> each</span>}
                  </p>
                </li>
              );
            })}
          </ul>
        </section>
      </div>
    </article>
  );
}
