import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminOrder } from '../../../common/contracts/admin';
import { returnListSchema, type ReturnAction, type ReturnRecord } from '../../../common/contracts/returns';
import { displayPrice } from '../../../common/domain/money';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiJson } from '../../lib/api-client';
import { adminOrdersKey } from './use-admin-data';
import { formatShopDay } from '../../../common/domain/date-time-format';

// Returns on the admin order card (docs/product.md "Returns"): approve or decline a request, then, once the
// pieces are in and inspected, accept (store credit, pieces back on sale) or reject (the buyer gets the note).

const STATUS_LABEL: Record<ReturnRecord['status'], string> = {
  requested: 'Requested',
  approved: 'Approved',
  declined: 'Declined',
  received: 'Received',
  expired: 'Expired',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

const ACTIONS: Partial<Record<ReturnRecord['status'], Array<{ action: ReturnAction; label: string }>>> = {
  requested: [
    { action: 'approve', label: 'Approve return' },
    { action: 'decline', label: 'Decline return' },
  ],
  approved: [
    { action: 'receive-accept', label: 'Received: accept' },
    { action: 'receive-reject', label: 'Received: reject' },
  ],
  received: [
    { action: 'receive-accept', label: 'Accept' },
    { action: 'receive-reject', label: 'Reject' },
  ],
};

/** Only orders that were delivered can have returns: the others ask nothing. */
export function OrderReturnsSection({ order }: { order: AdminOrder }) {
  const key = [...adminOrdersKey, order.id, 'returns'];
  const queryClient = useQueryClient();
  const list = useQuery<ReturnRecord[]>({
    queryKey: key,
    queryFn: () => apiJson('GET', `/api/admin/orders/${order.id}/returns`, undefined, returnListSchema),
    enabled: order.status === 'delivered',
  });
  const [note, setNote] = useState('');
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: ReturnAction }) =>
      apiJson('POST', `/api/admin/orders/${order.id}/returns/${id}/${action}`, note.trim() ? { note: note.trim() } : {}, returnListSchema),
    onSuccess: (next) => {
      queryClient.setQueryData(key, next);
      setNote('');
      toast({ title: 'Return updated', description: 'The buyer was e-mailed.' });
    },
    onError: (err) => toast({ title: 'Could not update the return', description: err instanceof ApiError ? err.serverMessage : 'Please try again.', variant: 'destructive' }),
  });
  const returns = list.data ?? [];
  if (returns.length === 0) return null;
  const open = returns.some((r) => ACTIONS[r.status]);

  return (
    <section aria-label="Returns" className="text-sm md:col-span-3">
      <h4 className="mb-1 text-xs font-bold uppercase tracking-wide text-muted">Returns</h4>
      <ul className="grid gap-2">
        {returns.map((r) => (
          <li key={r.id} className="border border-ink/30 p-2" data-testid="admin-return">
            <p className="font-semibold">
              {r.lines.map((l) => `${l.quantity} × ${l.productName} (No. ${l.editionNumbers.join(', ')})`).join('; ')}
            </p>
            <p>
              {STATUS_LABEL[r.status]}
              {r.status === 'accepted' ? ` — ${displayPrice(r.credit)} store credit` : ''}
              {r.status === 'approved' && r.shipBackBy ? ` — ship back by ${formatShopDay(r.shipBackBy)}` : ''}
            </p>
            <p className="text-muted">Reason: {r.reason}</p>
            {ACTIONS[r.status] && (
              <div className="mt-2 flex flex-wrap gap-2">
                {ACTIONS[r.status]!.map((a) => (
                  <Button
                    key={a.action}
                    type="button"
                    size="sm"
                    variant={a.action === 'decline' || a.action === 'receive-reject' ? 'outline' : 'default'}
                    disabled={act.isPending}
                    aria-label={`${a.label} for order ${order.orderNumber}`}
                    onClick={() => act.mutate({ id: r.id, action: a.action })}
                  >
                    {a.label}
                  </Button>
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
      {open && (
        <label className="mt-2 grid gap-1">
          <span className="text-xs font-bold uppercase tracking-wide text-muted">Note to the buyer (decline or reject)</span>
          <input className="h-10 border-2 border-ink px-2" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
      )}
    </section>
  );
}
