import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Undo2 } from 'lucide-react';
import type { ReturnRecord, ReturnsView } from '../../../common/contracts/returns';
import { displayPrice, parseMoney } from '../../../common/domain/money';
import { formatShopDay } from '../../../common/domain/date-time-format';
import { Button } from '../../components/ui/button';
import { ApiError, apiJson } from '../../lib/api-client';

// Returns by the refund policy (docs/product.md "Returns"; common/contracts/returns.ts lists the routes).

async function returnContracts() {
  await import('../../lib/zod-jitless');
  return import('../../../common/contracts/returns');
}

const STATUS_LABEL: Record<ReturnRecord['status'], string> = {
  requested: 'Requested: waiting for the shop',
  approved: 'Approved',
  declined: 'Declined',
  received: 'Received: being inspected',
  expired: 'Expired: not shipped back in time',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

const dateOf = (iso: string) => formatShopDay(iso);
const messageOf = (err: unknown) => (err instanceof ApiError ? err.serverMessage : 'Something went wrong. Please try again.');

/** The order page's Returns: each return's state and credit, and while the 2 days run, the request form. */
export function OrderReturns({ orderNumber, orderKey }: { orderNumber: string; orderKey: string }) {
  const url = `/api/orders/${encodeURIComponent(orderNumber)}/returns?key=${encodeURIComponent(orderKey)}`;
  const queryKey = ['/api/orders', orderNumber, orderKey, 'returns'];
  const queryClient = useQueryClient();
  const view = useQuery<ReturnsView>({
    queryKey,
    queryFn: () => apiJson('GET', url, undefined, () => returnContracts().then((m) => m.returnsViewSchema)),
    retry: false,
  });
  const request = useMutation({
    mutationFn: (body: { lines: Array<{ itemId: string; quantity: number }>; reason: string }) =>
      apiJson('POST', url, body, () => returnContracts().then((m) => m.returnsViewSchema)),
    onSuccess: (next: ReturnsView) => queryClient.setQueryData(queryKey, next),
  });
  const [picked, setPicked] = useState<Record<string, number>>({});
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const data = view.data;
  if (!data || (data.returns.length === 0 && !data.requestUntil)) return null;
  const returnable = data.lines.filter((l) => l.left > 0);

  function submit(e: FormEvent) {
    e.preventDefault();
    const lines = Object.entries(picked)
      .filter(([, q]) => q > 0)
      .map(([itemId, quantity]) => ({ itemId, quantity }));
    if (lines.length === 0) return setProblem('Choose at least one piece to return.');
    if (!reason.trim()) return setProblem('Tell us why you are returning it.');
    setProblem(null);
    request.mutate(
      { lines, reason: reason.trim() },
      {
        onSuccess: () => {
          setPicked({});
          setReason('');
        },
      },
    );
  }

  return (
    <section aria-labelledby="order-returns-heading" className="mt-6 border-t border-hairline pt-5 text-sm">
      <h2 id="order-returns-heading" className="type-eyebrow flex items-center gap-2 text-muted">
        <Undo2 className="h-4 w-4" aria-hidden="true" /> Returns
      </h2>
      {data.returns.length > 0 && (
        <ul className="mt-3 grid gap-3">
          {data.returns.map((r) => (
            <li key={r.id} className="border border-hairline bg-surface p-3" data-testid="order-return">
              <p className="font-semibold">{r.lines.map((l) => `${l.quantity} × ${l.productName}`).join(', ')}</p>
              <p>
                Status: <strong>{STATUS_LABEL[r.status]}</strong>
                {r.status === 'approved' && r.shipBackBy ? ` — ship it back by ${dateOf(r.shipBackBy)}` : ''}
              </p>
              {r.status === 'accepted' && parseMoney(r.credit) > 0 && (
                <p>Store credit granted: {displayPrice(r.credit)}</p>
              )}
              {r.note && <p className="text-muted">{r.note}</p>}
            </li>
          ))}
        </ul>
      )}
      {data.requestUntil && returnable.length > 0 && (
        <form onSubmit={submit} className="mt-4 grid gap-3" aria-label="Request a return">
          <p>
            You can request a return until {dateOf(data.requestUntil)}. Pieces must be unworn, unwashed and with their
            tags; a return is refunded as store credit (shipping is not refunded).
          </p>
          <fieldset className="grid gap-2">
            <legend className="mb-1 font-semibold">Pieces to return</legend>
            {returnable.map((l) => (
              <div key={l.itemId} className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  {l.productName}
                  {l.selectedSize ? ` (Size ${l.selectedSize})` : ''}
                </span>
                {l.finalSale ? (
                  <span className="text-muted">Final sale: can't be returned</span>
                ) : (
                  <label className="flex items-center gap-2">
                    <span>Quantity to return</span>
                    <select
                      aria-label={`Quantity of ${l.productName} to return`}
                      className="h-10 min-w-16 border border-hairline-strong bg-surface px-2 hover:border-ink focus-visible:border-ink"
                      value={picked[l.itemId] ?? 0}
                      onChange={(e) => setPicked({ ...picked, [l.itemId]: Number(e.target.value) })}
                    >
                      {Array.from({ length: l.left + 1 }, (_, n) => (
                        <option key={n} value={n}>
                          {n}
                        </option>
                      ))}
                    </select>
                  </label>
                )}
              </div>
            ))}
          </fieldset>
          <label className="grid gap-1">
            <span className="font-semibold">Reason</span>
            <textarea
              className="min-h-20 border border-hairline-strong bg-surface p-2 hover:border-ink focus-visible:border-ink"
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          </label>
          {(problem || request.isError) && (
            <p role="alert" className="font-semibold text-danger">
              {problem ?? messageOf(request.error)}
            </p>
          )}
          {request.isSuccess && !problem && (
            <p role="status" className="font-semibold">
              Your return request was sent. We will e-mail you once it is approved.
            </p>
          )}
          <Button type="submit" disabled={request.isPending} className="w-full sm:w-auto">
            Request return
          </Button>
        </form>
      )}
    </section>
  );
}
