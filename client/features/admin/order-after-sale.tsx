import { useId, useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminOrderSchema, type AdminOrder } from '../../../common/contracts/admin';
import { isCancellable, refundableCents, type RefundDestination } from '../../../common/domain/after-sale';
import { formatMoney, formatUsd, parseMoney } from '../../../common/domain/money';
import { formatLineOptions } from '../../../common/domain/variant';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiJson } from '../../lib/api-client';
import { adminOrdersKey } from './use-admin-data';

// After the sale (docs/product.md "After the sale: cancel and refund"; ADR 021): the owner cancels an unshipped
// order, whole or by line, or refunds an amount or lines; refunds and disputes are shown on the card.

const REFUND_REASON_LABEL = { cancellation: 'Cancelled', goodwill: 'Goodwill', provider: 'Made in Stripe' } as const;
const REFUND_STATUS_LABEL = { requested: 'pending', succeeded: 'refunded', failed: 'failed' } as const;
const DISPUTE_STATUS_LABEL = { open: 'Open', won: 'Won', lost: 'Lost' } as const;

/**
 * One key per opening of a dialog: a retried request (a lost answer) never refunds twice. getRandomValues, not
 * randomUUID: the admin may be opened over plain http on a shop's own network, where randomUUID is missing.
 */
const newRequestKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

function useAfterSale(kind: 'cancel' | 'refund') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; itemIds?: string[]; amount?: string; requestKey: string; destination: RefundDestination }) =>
      apiJson('POST', `/api/admin/orders/${id}/${kind}`, body, adminOrderSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminOrdersKey }),
  });
}

const leftOf = (order: AdminOrder) =>
  refundableCents(
    parseMoney(order.total),
    (order.refunds ?? []).map((r) => ({ amountCents: parseMoney(r.amount), status: r.status })),
  );

/** An open card dispute: the order is held from the pick list until it closes. */
export function DisputeBadge({ order }: { order: AdminOrder }) {
  if (!order.disputes?.some((d) => d.status === 'open')) return null;
  return (
    <span className="border border-red-800 bg-red-100 px-2 py-1 text-xs font-bold text-red-900" title="The buyer's bank disputes the payment: held from the pick list until it closes">
      Disputed
    </span>
  );
}

/** The refunds and disputes of an order, as records beside its status. */
export function AfterSaleRecords({ order }: { order: AdminOrder }) {
  const refunds = order.refunds ?? [];
  const disputes = order.disputes ?? [];
  if (refunds.length === 0 && disputes.length === 0) return null;
  return (
    <section aria-label="Refunds and disputes" className="text-sm md:col-span-3">
      <h4 className="mb-1 text-xs font-bold uppercase tracking-wide text-muted">Refunds and disputes</h4>
      <ul className="grid gap-1">
        {refunds.map((r) => (
          <li key={r.id} className="flex flex-wrap justify-between gap-2 border-l-4 border-ink pl-2">
            <span>
              {REFUND_REASON_LABEL[r.reason]} refund {r.destination === 'credit' ? 'as store credit' : 'to the card'}: <strong>{formatUsd(parseMoney(r.amount))}</strong>
            </span>
            <span className={r.status === 'failed' ? 'font-bold text-red-800' : 'text-muted'}>{REFUND_STATUS_LABEL[r.status]}</span>
          </li>
        ))}
        {disputes.map((d, i) => (
          <li key={`${d.openedAt}-${i}`} className="flex flex-wrap justify-between gap-2 border-l-4 border-red-700 pl-2">
            <span>
              Card dispute ({d.reason.replace(/_/g, ' ')}): <strong>{formatUsd(parseMoney(d.amount))}</strong>
            </span>
            <span className={d.status === 'open' ? 'font-bold text-red-800' : 'text-muted'}>{DISPUTE_STATUS_LABEL[d.status]}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Cancel order" and "Refund", each with a confirmation dialog. */
export function AfterSaleActions({ order }: { order: AdminOrder }) {
  const left = leftOf(order);
  const liveLines = order.items.filter((i) => !i.cancelled && i.id);
  const canCancel = isCancellable(order.status) && liveLines.length > 0;
  if (!canCancel && left <= 0) return null;
  return (
    <div className="flex flex-wrap gap-2 md:col-span-3">
      {canCancel && <CancelDialog order={order} />}
      {left > 0 && <RefundDialog order={order} left={left} />}
    </div>
  );
}

function LinePicker({ order, chosen, onChange, legend }: { order: AdminOrder; chosen: Set<string>; onChange: (next: Set<string>) => void; legend: string }) {
  const id = useId();
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-semibold">{legend}</legend>
      {order.items
        .filter((i) => !i.cancelled && i.id)
        .map((item) => {
          const inputId = `${id}-${item.id}`;
          return (
            <div key={item.id} className="flex items-start gap-3">
              <input
                type="checkbox"
                id={inputId}
                className="mt-0.5 h-6 w-6 shrink-0 cursor-pointer accent-ink"
                checked={chosen.has(item.id!)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(item.id!);
                  else next.delete(item.id!);
                  onChange(next);
                }}
              />
              <label htmlFor={inputId} className="text-sm">
                <span className="font-semibold">{item.productName}</span>{' '}
                <span className="text-muted">{formatLineOptions(item, { quantity: true })}</span>
              </label>
            </div>
          );
        })}
    </fieldset>
  );
}

/** Where the money goes, the owner's choice each time (docs/product.md §2.15): the card, or store credit. */
function DestinationPicker({ value, onChange }: { value: RefundDestination; onChange: (d: RefundDestination) => void }) {
  const id = useId();
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-semibold">Refund destination</legend>
      <label className="flex min-h-11 items-center gap-3 text-sm">
        <input type="radio" name={`${id}-to`} className="h-5 w-5 accent-ink" checked={value === 'card'} onChange={() => onChange('card')} />
        Refund to card
      </label>
      <label className="flex min-h-11 items-center gap-3 text-sm">
        <input type="radio" name={`${id}-to`} className="h-5 w-5 accent-ink" checked={value === 'credit'} onChange={() => onChange('credit')} />
        Store credit (valid 1 year, e-mailed to the customer)
      </label>
    </fieldset>
  );
}

function CancelDialog({ order }: { order: AdminOrder }) {
  const [open, setOpen] = useState(false);
  const [destination, setDestination] = useState<RefundDestination>('card');
  const [whole, setWhole] = useState(true);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const requestKey = useMemo(newRequestKey, [open]);
  const cancel = useAfterSale('cancel');
  const id = useId();
  const lines = order.items.filter((i) => !i.cancelled && i.id);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!whole && chosen.size === 0) return;
    cancel.mutate(
      { id: order.id, requestKey, destination, ...(whole ? {} : { itemIds: [...chosen] }) },
      {
        onSuccess: () => {
          setOpen(false);
          const to = destination === 'credit' ? 'given as store credit' : 'sent back to the card';
          toast({ title: 'Cancelled', description: `Order ${order.orderNumber} was cancelled and the money ${to}.` });
        },
        onError: (err) =>
          toast({ title: 'Error', description: err instanceof ApiError ? err.serverMessage : 'Could not cancel the order', variant: 'destructive' }),
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={(o) => { setOpen(o); if (o) { setWhole(true); setChosen(new Set()); setDestination('card'); } }}>
      <Button type="button" variant="outline" className="min-h-11" onClick={() => setOpen(true)}>
        Cancel order<span className="sr-only"> {order.orderNumber}</span>
      </Button>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cancel order {order.orderNumber}?</DialogTitle>
          <DialogDescription>
            The money goes back to the card (or as store credit) and the pieces back on sale with their edition numbers. The customer is e-mailed.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4">
          {lines.length > 1 && (
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-semibold">What to cancel</legend>
              <label className="flex items-center gap-3 text-sm">
                <input type="radio" name={`${id}-scope`} className="h-5 w-5 accent-ink" checked={whole} onChange={() => setWhole(true)} />
                The whole order
              </label>
              <label className="flex items-center gap-3 text-sm">
                <input type="radio" name={`${id}-scope`} className="h-5 w-5 accent-ink" checked={!whole} onChange={() => setWhole(false)} />
                Some lines
              </label>
            </fieldset>
          )}
          {!whole && <LinePicker order={order} chosen={chosen} onChange={setChosen} legend="Lines to cancel" />}
          <DestinationPicker value={destination} onChange={setDestination} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="ghost" className="min-h-11" onClick={() => setOpen(false)}>
              Keep order
            </Button>
            <Button type="submit" variant="destructive" className="min-h-11" disabled={cancel.isPending || (!whole && chosen.size === 0)}>
              {whole ? 'Cancel and refund' : 'Cancel lines and refund'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function RefundDialog({ order, left }: { order: AdminOrder; left: number }) {
  const [open, setOpen] = useState(false);
  const [byLines, setByLines] = useState(false);
  const [destination, setDestination] = useState<RefundDestination>('card');
  const [amount, setAmount] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const requestKey = useMemo(newRequestKey, [open]);
  const refund = useAfterSale('refund');
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    refund.mutate(
      { id: order.id, requestKey, destination, ...(byLines ? { itemIds: [...chosen] } : { amount: amount.trim() }) },
      {
        onSuccess: () => {
          setOpen(false);
          const description =
            destination === 'credit'
              ? `The refund of order ${order.orderNumber} was given as store credit.`
              : `The refund of order ${order.orderNumber} is on its way to the card.`;
          toast({ title: 'Refunded', description });
        },
        onError: (err) =>
          toast({ title: 'Error', description: err instanceof ApiError ? err.serverMessage : 'Could not refund the order', variant: 'destructive' }),
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={(o) => { setOpen(o); if (o) { setAmount(''); setChosen(new Set()); setByLines(false); setDestination('card'); } }}>
      <Button type="button" variant="outline" className="min-h-11" onClick={() => setOpen(true)}>
        Refund<span className="sr-only"> order {order.orderNumber}</span>
      </Button>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Refund order {order.orderNumber}</DialogTitle>
          <DialogDescription>
            A goodwill refund to the card or as store credit; the pieces stay with the customer. Up to {formatUsd(left)} is left to refund.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4">
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-semibold">Refund</legend>
            <label className="flex items-center gap-3 text-sm">
              <input type="radio" name={`${id}-by`} className="h-5 w-5 accent-ink" checked={!byLines} onChange={() => setByLines(false)} />
              An amount
            </label>
            <label className="flex items-center gap-3 text-sm">
              <input type="radio" name={`${id}-by`} className="h-5 w-5 accent-ink" checked={byLines} onChange={() => setByLines(true)} />
              What some lines cost
            </label>
          </fieldset>
          {byLines ? (
            <LinePicker order={order} chosen={chosen} onChange={setChosen} legend="Lines to refund" />
          ) : (
            <div className="grid gap-1">
              <label htmlFor={`${id}-amount`} className="text-sm font-semibold">
                Amount (USD)
              </label>
              <Input
                id={`${id}-amount`}
                inputMode="decimal"
                autoComplete="off"
                placeholder={formatMoney(left)}
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                aria-describedby={`${id}-amount-hint`}
              />
              <p id={`${id}-amount-hint`} className="text-xs text-muted">
                At most {formatUsd(left)}.
              </p>
            </div>
          )}
          <DestinationPicker value={destination} onChange={setDestination} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="ghost" className="min-h-11" onClick={() => setOpen(false)}>
              Back
            </Button>
            <Button type="submit" className="min-h-11" disabled={refund.isPending || (byLines ? chosen.size === 0 : amount.trim() === '')}>
              {destination === 'credit' ? 'Refund as store credit' : 'Refund to card'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
