import { buttonVariants } from '../../components/ui/button';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ChevronLeft, ChevronRight, Inbox, Search } from 'lucide-react';
import { ADMIN_ORDERS_PAGE_SIZE, CARRIER_LABELS, CARRIERS, type AdminOrder, type Carrier } from '../../../common/contracts/admin';
import type { OrderStatus } from '../../../common/contracts/checkout';
import { ApiError } from '../../lib/api-client';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { SelectItem } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/use-toast';
import { cn } from '../../lib/cn';
import { OrderCard, OrderStatusSelect } from './order-card';
import { orderStatusLabel } from './order-display';
import { PanelEmpty, PanelError, PanelHeading, UpdatedAt } from './panel-parts';
import { ordersQueryString, useAdminOrdersPage, useBulkOrderStatus } from './use-admin-data';

interface OrdersPanelProps {
  /** Orders in the shop, unfiltered (undefined while loading): 0 shows 'No orders yet'. */
  orderCount: number | undefined;
  countError: boolean;
  /** A drop is live: the page refreshes every few seconds. */
  live: boolean;
}

const ALL = 'all';
/** The status filter's "Late": unshipped past the ship-by date (the server decides, GET ...?late=1). */
const LATE = 'late';
/** The search is sent to the server once typing pauses this long. */
const SEARCH_DEBOUNCE_MS = 300;

/** The orders, a page at a time from the server (filtered and counted there), with a bulk status change. */
export function OrdersPanel({ orderCount, countError, live }: OrdersPanelProps) {
  const uid = useId();
  const [status, setStatus] = useState<OrderStatus | typeof ALL | typeof LATE>(ALL);
  const [query, setQuery] = useState('');
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const summaryRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => setQ(query.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  // New filters start at the first page with nothing selected.
  useEffect(() => {
    setOffset(0);
    setSelected(new Set());
  }, [status, q]);

  const filters = {
    status: status === ALL || status === LATE ? undefined : status,
    late: status === LATE || undefined,
    q: q || undefined,
  };
  const page = useAdminOrdersPage({ ...filters, offset }, live);
  const data = page.data;
  const orders = data?.orders ?? [];
  const total = data?.total ?? 0;

  // A bulk change or a refresh can leave fewer pages than the one on screen: go to the last one.
  useEffect(() => {
    if (data && data.total > 0 && offset >= data.total)
      setOffset(Math.floor((data.total - 1) / ADMIN_ORDERS_PAGE_SIZE) * ADMIN_ORDERS_PAGE_SIZE);
  }, [data, offset]);

  const goTo = (next: number) => {
    setOffset(next);
    setSelected(new Set());
    summaryRef.current?.scrollIntoView({ block: 'start' });
  };
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const onPage = orders.map((o) => o.id);
  const chosen = onPage.filter((id) => selected.has(id));
  const allChosen = onPage.length > 0 && chosen.length === onPage.length;

  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(offset + orders.length, total);
  const hasPrevious = offset > 0;
  const hasNext = offset + ADMIN_ORDERS_PAGE_SIZE < total;
  const pageCount = Math.max(1, Math.ceil(total / ADMIN_ORDERS_PAGE_SIZE));
  const pageNumber = Math.floor(offset / ADMIN_ORDERS_PAGE_SIZE) + 1;

  const loading = orderCount === undefined && !countError ? true : page.isLoading;

  return (
    <div className="grid grid-cols-1 gap-4">
      <PanelHeading title="Orders" csvHref={`/api/admin/orders.csv${ordersQueryString(filters)}`}>
        <UpdatedAt at={page.dataUpdatedAt} what="orders" refreshing={page.isFetching} onRefresh={() => void page.refetch()} />
        {/* Pieces to pick per product and size from paid orders not yet shipped (GET /api/admin/pick-list.csv). */}
        <a href="/api/admin/pick-list.csv" download className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          Pick list by size (CSV)
        </a>
      </PanelHeading>

      {loading ? (
        <div className="grid grid-cols-1 gap-3" aria-busy="true" aria-label="Loading orders">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-40" />
          ))}
        </div>
      ) : page.isError && !data ? (
        <PanelError what="orders" />
      ) : orderCount === 0 && total === 0 ? (
        <PanelEmpty icon={Inbox}>
          <h3 className="font-semibold">No orders yet</h3>
          <p className="text-sm text-muted">Orders will appear here when customers make purchases.</p>
        </PanelEmpty>
      ) : (
        <>
          <div
            className="grid gap-3 border-2 border-ink bg-white p-3 sm:grid-cols-[1fr_14rem]"
            role="search"
            aria-label="Filter orders"
          >
            <div className="grid gap-1.5">
              <Label htmlFor={`${uid}-q`}>Search orders</Label>
              <div className="relative">
                <Search
                  className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted"
                  aria-hidden="true"
                />
                <Input
                  id={`${uid}-q`}
                  type="search"
                  className="pl-9"
                  placeholder="Order number or e-mail"
                  value={query}
                  onChange={(e) => setQuery(e.target.value)}
                />
              </div>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={`${uid}-status`}>Filter by status</Label>
              <OrderStatusSelect
                value={status}
                onValueChange={(v) => setStatus(v as OrderStatus | typeof ALL | typeof LATE)}
                trigger={{ id: `${uid}-status` }}
              >
                <SelectItem value={ALL}>All statuses</SelectItem>
                <SelectItem value={LATE}>Late (past ship-by)</SelectItem>
              </OrderStatusSelect>
            </div>
          </div>

          <p ref={summaryRef} className="scroll-mt-4 text-sm text-muted" aria-live="polite">
            {total === 0 ? 'Showing 0 orders' : `Showing ${from}–${to} of ${total}`}
          </p>

          {total === 0 ? (
            <p className="border-2 border-dashed border-neutral-400 p-6 text-center text-sm">
              No orders match these filters.
            </p>
          ) : (
            <>
              <BulkStatusBar
                pageIds={onPage}
                chosen={chosen}
                chosenOrders={orders.filter((o) => selected.has(o.id))}
                allChosen={allChosen}
                onSelectAll={(on) => setSelected(on ? new Set(onPage) : new Set())}
                onDone={() => setSelected(new Set())}
              />
              <ul
                className={cn('grid grid-cols-1 gap-4', page.isPlaceholderData && 'opacity-60')}
                aria-label="Orders"
                // The previous search's orders, dimmed, while the new ones load: busy for assistive technology too.
                aria-busy={page.isPlaceholderData}
              >
                {orders.map((o) => (
                  <li key={o.id}>
                    <OrderCard
                      order={o}
                      selected={selected.has(o.id)}
                      onSelectedChange={(on) => toggle(o.id, on)}
                    />
                  </li>
                ))}
              </ul>
              <nav aria-label="Order pages" className="grid grid-cols-[auto_1fr_auto] items-center gap-2">
                <PagerButton
                  label="Previous page"
                  enabled={hasPrevious}
                  onClick={() => goTo(Math.max(0, offset - ADMIN_ORDERS_PAGE_SIZE))}
                >
                  <ChevronLeft className="h-4 w-4" aria-hidden="true" />
                  Previous
                </PagerButton>
                <span className="text-center text-sm tabular-nums">
                  Page {pageNumber} of {pageCount}
                </span>
                <PagerButton label="Next page" enabled={hasNext} onClick={() => goTo(offset + ADMIN_ORDERS_PAGE_SIZE)}>
                  Next
                  <ChevronRight className="h-4 w-4" aria-hidden="true" />
                </PagerButton>
              </nav>
            </>
          )}
        </>
      )}
    </div>
  );
}

/** Stays focusable at the first or last page (aria-disabled), so focus never drops to the page. */
function PagerButton({
  label,
  enabled,
  onClick,
  children,
}: {
  label: string;
  enabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      type="button"
      variant="outline"
      className={cn('min-h-11 px-3', !enabled && 'cursor-not-allowed opacity-50')}
      aria-label={label}
      aria-disabled={!enabled}
      onClick={() => enabled && onClick()}
    >
      {children}
    </Button>
  );
}

/** Select all on this page + one status for the selection, after a confirmation. */
function BulkStatusBar({
  pageIds,
  chosen,
  chosenOrders,
  allChosen,
  onSelectAll,
  onDone,
}: {
  pageIds: string[];
  chosen: string[];
  chosenOrders: AdminOrder[];
  allChosen: boolean;
  onSelectAll: (on: boolean) => void;
  onDone: () => void;
}) {
  const id = useId();
  const bulk = useBulkOrderStatus();
  const [status, setStatus] = useState<OrderStatus>('shipped');
  const [open, setOpen] = useState(false);
  const [tracking, setTracking] = useState<Record<string, { trackingNumber: string; carrier: Carrier | '' }>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const selectAllRef = useRef<HTMLInputElement>(null);
  const some = chosen.length > 0 && !allChosen;
  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = some;
  }, [some]);
  const n = chosen.length;
  const orders = `${n} ${n === 1 ? 'order' : 'orders'}`;

  const shipping = status === 'shipped';
  // Each order about to ship, with the number and carrier typed here (prefilled with what its card saved).
  const toShip = shipping ? chosenOrders.filter((o) => o.status !== 'shipped' && o.status !== 'cancelled') : [];
  const entryOf = (o: AdminOrder) =>
    tracking[o.id] ?? { trackingNumber: o.trackingNumber ?? '', carrier: ((o.carrier as Carrier | null) ?? '') as Carrier | '' };
  const missing = toShip.filter((o) => !entryOf(o).trackingNumber.trim() || !entryOf(o).carrier);

  const openDialog = () => {
    if (n === 0) return;
    setTracking({});
    setProblem(null);
    setOpen(true);
  };
  const confirm = () => {
    if (missing.length > 0) {
      setProblem(`Add a tracking number and carrier for ${missing.map((o) => o.orderNumber).join(', ')}`);
      return;
    }
    bulk.mutate(
      {
        orderIds: chosen,
        status,
        ...(shipping
          ? {
              tracking: toShip.map((o) => {
                const e = entryOf(o);
                return { orderId: o.id, trackingNumber: e.trackingNumber.trim(), carrier: e.carrier as Carrier };
              }),
            }
          : {}),
      },
      {
        onSuccess: () => {
          toast({ title: 'Success', description: 'Order status updated successfully' });
          onDone();
          setOpen(false);
        },
        onError: (err) => {
          // A refusal the owner can fix (a missing number) stays in the dialog; anything else closes it.
          if (err instanceof ApiError && err.status === 400) return setProblem(err.serverMessage);
          toast({ title: 'Error', description: 'Failed to update order status', variant: 'destructive' });
          setOpen(false);
        },
      },
    );
  };

  return (
    <div
      role="group"
      aria-label="Selected orders"
      className="sticky top-0 z-10 flex flex-wrap items-center gap-x-4 gap-y-2 border-2 border-ink bg-bone p-3"
    >
      <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm font-semibold">
        <input
          ref={selectAllRef}
          type="checkbox"
          className="h-6 w-6 cursor-pointer accent-ink"
          checked={allChosen}
          disabled={pageIds.length === 0}
          onChange={(e) => onSelectAll(e.target.checked)}
        />
        Select all on this page
      </label>
      <span className="text-sm tabular-nums" aria-live="polite">
        {n} selected
      </span>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-status`} className="sr-only">
          New status for the selected orders
        </label>
        <OrderStatusSelect
          value={status}
          onValueChange={(v) => setStatus(v as OrderStatus)}
          trigger={{ id: `${id}-status`, className: 'h-11 w-36 text-sm' }}
        />
        <Dialog open={open} onOpenChange={setOpen}>
          <Button
            type="button"
            className={cn('min-h-11', n === 0 && 'cursor-not-allowed opacity-50')}
            aria-disabled={n === 0}
            onClick={openDialog}
          >
            Set status
          </Button>
          <DialogContent
            onCloseAutoFocus={(e) => {
              // The selection is cleared after a change: focus goes back to the select-all box.
              e.preventDefault();
              selectAllRef.current?.focus();
            }}
          >
            <DialogHeader>
              <DialogTitle>
                Set {orders} to {orderStatusLabel(status)}?
              </DialogTitle>
              <DialogDescription>
                {shipping
                  ? 'Each customer gets the shipped e-mail with the tracking number and the carrier\'s link below. All of them change, or none.'
                  : 'All of them change, or none if one fails.'}
              </DialogDescription>
            </DialogHeader>
            {toShip.length > 0 && (
              <ul className="grid max-h-[50vh] gap-3 overflow-y-auto" aria-label="Tracking for each order">
                {toShip.map((o) => (
                  <BulkTrackingRow
                    key={o.id}
                    order={o}
                    value={entryOf(o)}
                    invalid={problem !== null && missing.includes(o)}
                    onChange={(v) => setTracking((prev) => ({ ...prev, [o.id]: v }))}
                  />
                ))}
              </ul>
            )}
            {problem && (
              <p role="alert" className="text-sm font-semibold text-red-800">
                {problem}
              </p>
            )}
            <div className="flex flex-wrap justify-end gap-2">
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="button" onClick={confirm} disabled={bulk.isPending} aria-busy={bulk.isPending}>
                Set {orders} to {orderStatusLabel(status)}
              </Button>
            </div>
          </DialogContent>
        </Dialog>
      </div>
    </div>
  );
}

/** One order in the bulk "shipped" dialog: its number and carrier, stacked on a phone. */
function BulkTrackingRow({
  order,
  value,
  invalid,
  onChange,
}: {
  order: AdminOrder;
  value: { trackingNumber: string; carrier: Carrier | '' };
  invalid: boolean;
  onChange: (value: { trackingNumber: string; carrier: Carrier | '' }) => void;
}) {
  const id = useId();
  return (
    <li className="grid gap-2 border-2 border-neutral-300 p-2 sm:grid-cols-[1fr_8rem]">
      <p className="text-sm font-semibold sm:col-span-2">
        {order.orderNumber} · {order.customerFirstName} {order.customerLastName}
      </p>
      <div className="grid gap-1">
        <label htmlFor={`${id}-tn`} className="text-xs font-semibold">
          Tracking number <span className="sr-only">for {order.orderNumber}</span>
        </label>
        <Input
          id={`${id}-tn`}
          value={value.trackingNumber}
          maxLength={100}
          autoComplete="off"
          spellCheck={false}
          className="font-mono text-sm"
          aria-invalid={invalid && !value.trackingNumber.trim()}
          onChange={(e) => onChange({ ...value, trackingNumber: e.target.value })}
        />
      </div>
      <div className="grid gap-1">
        <label htmlFor={`${id}-carrier`} className="text-xs font-semibold">
          Carrier <span className="sr-only">for {order.orderNumber}</span>
        </label>
        <select
          id={`${id}-carrier`}
          value={value.carrier}
          aria-invalid={invalid && !value.carrier}
          onChange={(e) => onChange({ ...value, carrier: e.target.value as Carrier | '' })}
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
    </li>
  );
}
