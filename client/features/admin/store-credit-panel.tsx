import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Wallet } from 'lucide-react';
import { creditAccountListSchema, creditAccountSchema, type CreditAccount } from '../../../common/contracts/store-credit';
import { displayPrice } from '../../../common/domain/money';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiJson } from '../../lib/api-client';
import { formatOrderDate } from './order-display';
import { PanelEmpty, PanelError, PanelHeading, PanelLoading, PanelTable } from './panel-parts';

// Store credit (docs/product.md §2.15): the owner grants credit by hand with a reason and sees every balance
// with its grants. Fetched when the tab is shown (mounted only then).

const storeCreditKey = ['/api/admin/store-credit'] as const;
const SOURCE_LABEL = { return: 'Return', cancellation: 'Cancellation', refund: 'Refund', manual: 'By hand' } as const;

function GrantForm() {
  const id = useId();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const grant = useMutation({
    mutationFn: (body: { email: string; amount: string; reason: string }) => apiJson('POST', '/api/admin/store-credit', body, creditAccountSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: storeCreditKey }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    grant.mutate(
      { email: email.trim(), amount: amount.trim(), reason: reason.trim() },
      {
        onSuccess: (account) => {
          toast({ title: 'Credit granted', description: `${account.email} now has ${displayPrice(account.balance)} of store credit.` });
          setEmail('');
          setAmount('');
          setReason('');
        },
        onError: (err) => toast({ title: 'Error', description: err instanceof ApiError ? err.serverMessage : 'Could not grant the credit', variant: 'destructive' }),
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Grant store credit" className="grid gap-3 border-2 border-ink bg-white p-4 sm:grid-cols-[2fr_1fr_2fr_auto] sm:items-end">
      <div className="grid gap-1">
        <label htmlFor={`${id}-email`} className="text-sm font-semibold">Customer e-mail</label>
        <Input id={`${id}-email`} type="email" autoComplete="off" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div className="grid gap-1">
        <label htmlFor={`${id}-amount`} className="text-sm font-semibold">Amount (USD)</label>
        <Input id={`${id}-amount`} inputMode="decimal" autoComplete="off" required placeholder="10.00" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </div>
      <div className="grid gap-1">
        <label htmlFor={`${id}-reason`} className="text-sm font-semibold">Reason</label>
        <Input id={`${id}-reason`} autoComplete="off" required maxLength={300} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      <Button type="submit" className="min-h-11" disabled={grant.isPending}>
        Grant credit
      </Button>
    </form>
  );
}

function Grants({ account }: { account: CreditAccount }) {
  return (
    <ul className="grid gap-0.5 text-xs">
      {account.grants.map((g) => (
        <li key={g.id}>
          {SOURCE_LABEL[g.source]} {displayPrice(g.amount)} on {formatOrderDate(g.grantedAt)}
          {g.reason ? ` — ${g.reason}` : ''}: {g.expired ? 'expired' : `${displayPrice(g.left)} left until ${formatOrderDate(g.expiresAt)}`}
        </li>
      ))}
    </ul>
  );
}

export function StoreCreditPanel() {
  const list = useQuery({
    queryKey: storeCreditKey,
    queryFn: () => apiJson('GET', '/api/admin/store-credit', undefined, creditAccountListSchema),
  });
  const accounts = list.data?.accounts;
  return (
    <div className="grid grid-cols-1 gap-4">
      <PanelHeading title="Store credit" />
      <GrantForm />
      {list.isLoading ? (
        <PanelLoading>Loading store credit...</PanelLoading>
      ) : list.isError ? (
        <PanelError what="store credit" />
      ) : !accounts || accounts.length === 0 ? (
        <PanelEmpty icon={Wallet}>
          <p className="font-semibold">No store credit yet</p>
        </PanelEmpty>
      ) : (
        <PanelTable label="Store credit balances table" caption="Store credit balances and grants" minWidth="min-w-[40rem]">
          <thead className="border-b-2 border-ink bg-bone text-xs uppercase tracking-wide">
            <tr>
              <th scope="col" className="px-4 py-2.5">Email</th>
              <th scope="col" className="px-4 py-2.5">Balance</th>
              <th scope="col" className="px-4 py-2.5">Next expiry</th>
              <th scope="col" className="px-4 py-2.5">Grants</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-200">
            {accounts.map((a) => (
              <tr key={a.email} className="align-top">
                <td className="break-all px-4 py-2.5 font-medium">{a.email}</td>
                <td className="whitespace-nowrap px-4 py-2.5 tabular-nums">{displayPrice(a.balance)}</td>
                <td className="whitespace-nowrap px-4 py-2.5">
                  {a.nextExpiry ? `${displayPrice(a.nextExpiry.amount)} on ${formatOrderDate(a.nextExpiry.expiresAt)}` : '—'}
                </td>
                <td className="px-4 py-2.5"><Grants account={a} /></td>
              </tr>
            ))}
          </tbody>
        </PanelTable>
      )}
    </div>
  );
}
