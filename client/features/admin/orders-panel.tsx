import { useId, useMemo, useState } from 'react';
import { Inbox, Search } from 'lucide-react';
import type { AdminOrder } from '../../../common/contracts/admin';
import type { OrderStatus } from '../../../common/contracts/checkout';
import { ORDER_STATUSES } from '../../../common/domain/order-status';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { OrderCard } from './order-card';
import { matchesOrderSearch, orderStatusLabel } from './order-display';
import { PanelEmpty, PanelError, PanelHeading } from './panel-parts';

interface OrdersPanelProps {
  orders: AdminOrder[] | undefined;
  isLoading: boolean;
  isError: boolean;
}

const ALL = 'all';

export function OrdersPanel({ orders, isLoading, isError }: OrdersPanelProps) {
  const uid = useId();
  const [status, setStatus] = useState<OrderStatus | typeof ALL>(ALL);
  const [query, setQuery] = useState('');

  const shown = useMemo(
    () =>
      (orders ?? []).filter((o) => (status === ALL || o.status === status) && matchesOrderSearch(o, query)),
    [orders, status, query],
  );
  const hasOrders = (orders?.length ?? 0) > 0;

  return (
    <div className="grid grid-cols-1 gap-4">
      <PanelHeading title="Orders" csvHref="/api/admin/orders.csv" />

      {isLoading ? (
        <div className="grid grid-cols-1 gap-3" aria-busy="true" aria-label="Loading orders">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-40" />
          ))}
        </div>
      ) : isError ? (
        <PanelError what="orders" />
      ) : !hasOrders ? (
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
              <Select value={status} onValueChange={(v) => setStatus(v as OrderStatus | typeof ALL)}>
                <SelectTrigger id={`${uid}-status`}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={ALL}>All statuses</SelectItem>
                  {ORDER_STATUSES.map((s) => (
                    <SelectItem key={s} value={s}>
                      {orderStatusLabel(s)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>
          <p className="text-sm text-muted" aria-live="polite">
            Showing {shown.length} of {orders?.length ?? 0} orders
          </p>
          {shown.length === 0 ? (
            <p className="border-2 border-dashed border-neutral-400 p-6 text-center text-sm">
              No orders match these filters.
            </p>
          ) : (
            <ul className="grid grid-cols-1 gap-4" aria-label="Orders">
              {shown.map((o) => (
                <li key={o.id}>
                  <OrderCard order={o} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
