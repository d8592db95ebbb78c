import { useId, useState } from 'react';
import { BellRing, ChevronDown, Download } from 'lucide-react';
import type { NotifyDemand } from '../../../common/contracts/admin';
import { buttonVariants } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { formatOrderDate } from './order-display';
import { PanelEmpty, PanelError, PanelHeading, PanelLoading, UpdatedAt } from './panel-parts';
import { useNotifyDemand, useNotifySignups } from './use-admin-data';

const KIND_LABEL: Record<string, string> = { release: 'Drop release', restock: 'Restock' };

/**
 * Notify-me demand (docs/operations.md, Running a drop): how many shoppers asked to hear about each product,
 * each product opening to its list of signups (the owner's own customers' e-mails, shown in full) and a CSV.
 */
export function NotifyDemandPanel({ live }: { live: boolean }) {
  const demand = useNotifyDemand(live);
  const list = demand.data;
  return (
    <div className="grid grid-cols-1 gap-4">
      <PanelHeading title="Notify me">
        <UpdatedAt
          at={demand.dataUpdatedAt}
          what="demand"
          refreshing={demand.isFetching}
          onRefresh={() => void demand.refetch()}
        />
      </PanelHeading>
      <p className="text-sm text-muted">
        Shoppers who asked to be told when a drop opens or a sold-out piece comes back, per product, most asked for
        first.
      </p>
      {demand.isLoading ? (
        <PanelLoading>Loading Notify me signups...</PanelLoading>
      ) : demand.isError && !list ? (
        <PanelError what="Notify me signups" />
      ) : !list || list.length === 0 ? (
        <PanelEmpty icon={BellRing}>
          <p className="font-semibold">No Notify me signups yet</p>
          <p className="text-sm text-muted">They appear here when shoppers ask to hear about a drop or a restock.</p>
        </PanelEmpty>
      ) : (
        <ul className="grid grid-cols-1 gap-3" aria-label="Notify me demand per product">
          {list.map((row) => (
            <DemandRow key={row.productId} row={row} />
          ))}
        </ul>
      )}
    </div>
  );
}

function DemandRow({ row }: { row: NotifyDemand[number] }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const signups = useNotifySignups(row.productId, open);
  const people = `${row.count} ${row.count === 1 ? 'signup' : 'signups'}`;
  return (
    <li className="border-2 border-ink bg-white">
      <div className="flex flex-wrap items-center justify-between gap-2 p-3">
        <h3 className="min-w-0 break-words font-semibold">{row.productName}</h3>
        <span className="flex flex-wrap items-center gap-2">
          <span className="border border-ink bg-accent px-2 py-0.5 text-sm font-bold tabular-nums">{people}</span>
          <a
            href={`/api/admin/notify-demand/${row.productId}/signups.csv`}
            download
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
          >
            <Download className="h-4 w-4" aria-hidden="true" />
            CSV
            <span className="sr-only"> of the signups for {row.productName}</span>
          </a>
        </span>
      </div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        onClick={() => setOpen((v) => !v)}
        className="flex min-h-11 w-full items-center justify-between gap-2 border-t border-neutral-200 px-3 py-2 text-left text-sm font-semibold hover:bg-bone"
      >
        {open ? 'Hide' : 'Show'} signups<span className="sr-only"> for {row.productName}</span>
        <ChevronDown className={cn('h-4 w-4 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </button>
      <div id={`${id}-list`} hidden={!open} className="border-t border-neutral-200 px-3 py-2">
        {open &&
          (signups.isLoading ? (
            <p className="text-sm" aria-live="polite">
              Loading signups...
            </p>
          ) : signups.isError ? (
            <PanelError what="these signups" />
          ) : (
            <ul className="divide-y divide-neutral-200 text-sm" aria-label={`Signups for ${row.productName}`}>
              {(signups.data ?? []).map((s) => (
                <li key={`${s.email}-${s.kind}`} className="grid gap-0.5 py-2 sm:grid-cols-[1fr_auto_auto] sm:gap-4">
                  <span className="break-all font-medium">{s.email}</span>
                  <span className="text-muted">{KIND_LABEL[s.kind] ?? s.kind}</span>
                  <span className="text-muted">
                    <time dateTime={s.createdAt}>{formatOrderDate(s.createdAt)}</time>
                    {s.notifiedAt && ' · mailed'}
                  </span>
                </li>
              ))}
            </ul>
          ))}
      </div>
    </li>
  );
}
