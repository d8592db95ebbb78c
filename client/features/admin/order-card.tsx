import { useEffect, useId, useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { ExternalLink, Truck } from 'lucide-react';
import { CARRIER_LABELS, CARRIERS, type AdminOrder, type Carrier } from '../../../common/contracts/admin';
import type { OrderStatus } from '../../../common/contracts/checkout';
import { formatEditionNumbers } from '../../../common/domain/stock';
import { ORDER_STATUSES } from '../../../common/domain/order-status';
import { formatShopDate } from '../../../common/domain/ship-by';
import { needsSignature, SIGNATURE_REQUIRED_LABEL } from '../../../common/domain/fulfilment-promises';
import { parseMoney } from '../../../common/domain/money';
import { PostalAddress } from '../../components/forms/postal-address';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { toast } from '../../components/ui/use-toast';
import { cn } from '../../lib/cn';
import { formatOrderDate, formatShipping, orderStatusBadgeClass, orderStatusLabel } from './order-display';
import { useUpdateOrderStatus, type OrderStatusChange } from './use-admin-data';
import { formatLineOptions } from '../../../common/domain/variant';
import { AfterSaleActions, AfterSaleRecords, DisputeBadge } from './order-after-sale';
import { OrderAddressDialog } from './order-address-dialog';
import { OrderReturnsSection } from './order-returns';
import { formatShopDateTime } from '../../../common/domain/date-time-format';

const usd = (amount: string) => `$${amount}`;

interface OrderCardProps {
  order: AdminOrder;
  /** Row selection for the bulk status change. */
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
}

const SHIPPABLE: ReadonlySet<OrderStatus> = new Set(['pending', 'confirmed', 'processing']);

/**
 * A dropdown of the order statuses, labelled for people (the card's status, the panel's filter and bulk
 * change): `trigger` names and styles the button; `children` are options put before the statuses.
 */
export function OrderStatusSelect({
  value,
  onValueChange,
  disabled,
  trigger,
  children,
}: {
  value: string;
  onValueChange: (value: string) => void;
  disabled?: boolean;
  trigger: ComponentProps<typeof SelectTrigger>;
  children?: ReactNode;
}) {
  return (
    <Select value={value} onValueChange={onValueChange} disabled={disabled}>
      <SelectTrigger {...trigger}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {children}
        {ORDER_STATUSES.map((s) => (
          <SelectItem key={s} value={s}>
            {orderStatusLabel(s)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

export function OrderCard({ order, selected, onSelectedChange }: OrderCardProps) {
  const update = useUpdateOrderStatus();
  const headingId = `order-${order.id}`;
  const hasDiscount = Number(order.discountAmount) > 0 || Boolean(order.discountCode);
  // The shipment form's values: sent with a status change too, so choosing Shipped in the dropdown
  // after typing a tracking number mails the link (the mail goes out once, when the order becomes shipped).
  const [trackingNumber, setTrackingNumber] = useState(order.trackingNumber ?? '');
  const [carrier, setCarrier] = useState<Carrier | ''>((order.carrier as Carrier | null) ?? '');
  // A refresh that brings other saved values (another tab, a colleague) restarts the form from them.
  useEffect(() => setTrackingNumber(order.trackingNumber ?? ''), [order.trackingNumber]);
  useEffect(() => setCarrier((order.carrier as Carrier | null) ?? ''), [order.carrier]);

  const change = (status: OrderStatus, onDone?: () => void) => {
    const tracking: Partial<OrderStatusChange> =
      trackingNumber.trim() || carrier ? { trackingNumber: trackingNumber.trim() || null, carrier: carrier || null } : {};
    update.mutate(
      { id: order.id, status, ...tracking },
      {
        onSuccess: () => {
          onDone?.();
          toast({ title: 'Success', description: 'Order status updated successfully' });
        },
        onError: () =>
          toast({ title: 'Error', description: 'Failed to update order status', variant: 'destructive' }),
      },
    );
  };
  const onStatus = (status: string) => {
    if (status === order.status) return;
    change(status as OrderStatus);
  };

  return (
    <article aria-labelledby={headingId} className="border-2 border-ink bg-white">
      <header className="flex flex-wrap items-start justify-between gap-3 border-b-2 border-ink bg-bone px-4 py-3">
        <div className="flex min-w-0 items-start gap-3">
          <input
            type="checkbox"
            id={`${headingId}-select`}
            className="mt-0.5 h-6 w-6 shrink-0 cursor-pointer accent-ink"
            checked={selected}
            onChange={(e) => onSelectedChange(e.target.checked)}
            aria-label={`Select order ${order.orderNumber}`}
          />
          <div className="min-w-0">
          <h3 id={headingId} className="break-all font-mono text-base font-bold">
            {order.orderNumber}
          </h3>
          <p className="text-sm text-muted">
            <time dateTime={order.createdAt}>{formatOrderDate(order.createdAt)}</time>
          </p>
          {order.shipBy && (
            // The ship-by date kept on the order (common/domain/ship-by.ts); past it and unshipped: Late.
            <p className={cn('text-sm', order.shipLate ? 'font-bold text-red-800' : 'text-muted')}>
              Ship by <time dateTime={order.shipBy}>{formatShopDate(order.shipBy)}</time>
              {order.shipLate && (
                <span className="ml-2 border border-red-700 bg-red-100 px-1.5 py-0.5 text-xs font-bold uppercase text-red-900">Late</span>
              )}
            </p>
          )}
          </div>
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
          {/* The shipping page's promise: over $200 the parcel is sent signed-for. */}
          {needsSignature(parseMoney(order.total)) && (
            <span
              className="border border-blue-800 bg-blue-100 px-2 py-1 text-xs font-bold text-blue-900"
              title="Over $200: ship with signature on delivery"
            >
              {SIGNATURE_REQUIRED_LABEL}
            </span>
          )}
          {/* Two different things: the payment (every order exists because its payment succeeded)
              and the fulfilment, which the owner moves on with the dropdown (coloured as its badge). */}
          <span className="border border-green-800 bg-green-100 px-2 py-1 text-xs font-bold text-green-900">
            <span className="sr-only">Payment: </span>
            Paid
          </span>
          <DisputeBadge order={order} />
          <span className="text-xs font-bold uppercase tracking-wide text-muted" aria-hidden="true">
            Fulfilment
          </span>
          <OrderStatusSelect
            value={order.status}
            onValueChange={onStatus}
            disabled={update.isPending}
            trigger={{
              'aria-label': `Order status for ${order.orderNumber}`,
              className: cn('h-9 w-40 text-sm font-bold', orderStatusBadgeClass(order.status)),
            }}
          />
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
          <PostalAddress address={order} />
          {order.shippingMethod && (
            <p className="mt-1 text-muted">Method: {orderStatusLabel(order.shippingMethod)}</p>
          )}
          <div className="mt-2">
            <OrderAddressDialog order={order} />
          </div>
          <AddressHistory order={order} />
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
                    <p className="font-semibold">
                      {item.cancelled ? <s>{item.productName}</s> : item.productName}
                      {item.cancelled && <span className="ml-2 text-xs font-bold uppercase text-red-800">Cancelled</span>}
                    </p>
                    <p className="text-muted">
                      {formatLineOptions(item, { quantity: true })}
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

        <AfterSaleRecords order={order} />
        <OrderReturnsSection order={order} />
        <AfterSaleActions order={order} />

        {order.status !== 'cancelled' && (
          <ShipmentForm
            order={order}
            trackingNumber={trackingNumber}
            carrier={carrier}
            onTrackingNumber={setTrackingNumber}
            onCarrier={setCarrier}
            pending={update.isPending}
            onSubmit={(status) => change(status)}
          />
        )}
      </div>
    </article>
  );
}

/**
 * Tracking number and carrier, inline: "Mark shipped" sets the status and mails the customer the carrier's
 * tracking link in one step; on a shipped order the button saves a corrected number (no second mail).
 */
function ShipmentForm({
  order,
  trackingNumber,
  carrier,
  onTrackingNumber,
  onCarrier,
  pending,
  onSubmit,
}: {
  order: AdminOrder;
  trackingNumber: string;
  carrier: Carrier | '';
  onTrackingNumber: (value: string) => void;
  onCarrier: (value: Carrier | '') => void;
  pending: boolean;
  onSubmit: (status: OrderStatus) => void;
}) {
  const id = useId();
  const current = order.status as OrderStatus;
  const shipping = SHIPPABLE.has(current);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(shipping ? 'shipped' : current);
  };
  return (
    <section aria-labelledby={`${id}-h`} className="text-sm md:col-span-3">
      <h4 id={`${id}-h`} className="mb-1 text-xs font-bold uppercase tracking-wide text-muted">
        Shipment
      </h4>
      <form onSubmit={submit} className="grid gap-2 sm:grid-cols-[minmax(0,20rem)_10rem_auto] sm:items-end">
        <div className="grid gap-1">
          <label htmlFor={`${id}-tn`} className="text-xs font-semibold">
            Tracking number
          </label>
          <Input
            id={`${id}-tn`}
            value={trackingNumber}
            maxLength={100}
            autoComplete="off"
            spellCheck={false}
            className="font-mono text-sm"
            onChange={(e) => onTrackingNumber(e.target.value)}
            aria-describedby={`${id}-hint`}
          />
        </div>
        <div className="grid gap-1">
          <label htmlFor={`${id}-carrier`} className="text-xs font-semibold">
            Carrier
          </label>
          <select
            id={`${id}-carrier`}
            value={carrier}
            onChange={(e) => onCarrier(e.target.value as Carrier | '')}
            className="h-11 w-full border-2 border-neutral-300 bg-white px-2 text-base text-ink focus-visible:border-ink focus-visible:outline-3 focus-visible:outline-blue-600"
          >
            <option value="">Choose…</option>
            {CARRIERS.map((c) => (
              <option key={c} value={c}>
                {CARRIER_LABELS[c]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant={shipping ? 'default' : 'outline'} className="min-h-11" disabled={pending}>
          <Truck className="h-4 w-4" aria-hidden="true" />
          {shipping ? 'Mark shipped' : 'Save tracking'}
          <span className="sr-only"> for {order.orderNumber}</span>
        </Button>
      </form>
      <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
        {shipping
          ? 'Mark shipped e-mails the customer, with the tracking link when the carrier is known.'
          : order.trackingUrl
            ? ''
            : 'Saved without a new e-mail.'}
        {order.trackingUrl && (
          <a href={order.trackingUrl} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 underline underline-offset-2">
            Track package <span className="sr-only">{order.orderNumber} (opens the carrier's page)</span>
            <ExternalLink className="h-3 w-3" aria-hidden="true" />
          </a>
        )}
      </p>
    </section>
  );
}

/** Every change of the delivery address (order_address_changes): who, when, old → new; hidden when none. */
function AddressHistory({ order }: { order: AdminOrder }) {
  const changes = order.addressChanges ?? [];
  if (changes.length === 0) return null;
  return (
    <details className="mt-2">
      <summary className="min-h-11 cursor-pointer py-2 font-semibold underline underline-offset-2">
        Address changed {changes.length === 1 ? 'once' : `${changes.length} times`}
      </summary>
      <ol className="grid gap-2" aria-label={`Address history of ${order.orderNumber}`}>
        {changes.map((c) => (
          <li key={c.changedAt + c.to} className="border-l-2 border-neutral-400 pl-2">
            <p className="text-xs text-muted">
              By the {c.changedBy === 'owner' ? 'shop' : 'buyer'},{' '}
              <time dateTime={c.changedAt}>{formatShopDateTime(c.changedAt)}</time>
            </p>
            <p className="break-words">
              <del className="text-muted">{c.from}</del>
              <span aria-hidden="true"> → </span>
              <span className="sr-only"> changed to </span>
              <ins className="no-underline">{c.to}</ins>
            </p>
          </li>
        ))}
      </ol>
    </details>
  );
}
