import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import type { Totals } from '../../../common/contracts/checkout';
import type { CheckoutCreditBalance } from '../../../common/contracts/store-credit';
import { displayPrice, formatUsd } from '../../../common/domain/money';
import { formatShopDay } from '../../../common/domain/date-time-format';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api-client';
import { CART_KEY } from '../../lib/cart/use-cart';
import { placeOrderWithCredit, type CheckoutChoices } from './checkout-api';


/**
 * The buyer's store credit at checkout (docs/product.md §2.15): offered once the e-mail is known, applied by one
 * checkbox. The server decides how much it pays (min(balance, total)); this only shows it.
 */
export function StoreCreditBox({
  credit,
  checked,
  onChange,
  appliedCents,
}: {
  credit: CheckoutCreditBalance | undefined;
  checked: boolean;
  onChange: (use: boolean) => void;
  appliedCents: number | null;
}) {
  const id = useId();
  if (!credit || Number(credit.balance) <= 0) return null;
  return (
    <div className="border border-hairline bg-surface p-4" data-testid="store-credit">
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          className="mt-0.5 h-6 w-6 shrink-0 cursor-pointer accent-ink"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={`${id}-hint`}
        />
        <label htmlFor={id} className="text-sm font-semibold">
          Use my store credit ({displayPrice(credit.balance)} available)
        </label>
      </div>
      <p id={`${id}-hint`} className="mt-1 pl-9 text-xs text-muted">
        {credit.nextExpiry
          ? `${displayPrice(credit.nextExpiry.amount)} of it is valid until ${formatShopDay(credit.nextExpiry.expiresAt, { timeZone: 'UTC' })}.`
          : 'Valid 1 year from when it was given.'}
        {checked && appliedCents !== null ? ` Store credit applied: ${formatUsd(appliedCents)}.` : ''}
      </p>
    </div>
  );
}

/** Credit pays all of it: no card form; one press holds the credit and places the order (no payment intent). */
export function PlaceWithCredit({ choices, totals }: { choices: CheckoutChoices; totals: Totals }) {
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  const place = async () => {
    setBusy(true);
    try {
      const { orderNumber } = await placeOrderWithCredit(choices, totals);
      toast({ title: 'Order placed', description: `Your order number is ${orderNumber}. Store credit paid ${displayPrice(totals.total)}.` });
      navigate('/order-success');
      void qc.invalidateQueries({ queryKey: CART_KEY });
    } catch (err) {
      toast({ title: 'Error', description: err instanceof ApiError ? err.serverMessage : 'Could not place the order. Please try again.', variant: 'destructive' });
      setBusy(false);
    }
  };
  return (
    <div className="space-y-3">
      <h2 className="type-title">Store credit</h2>
      <p className="text-sm">Your store credit pays all {displayPrice(totals.total)} of this order. Nothing is charged to a card.</p>
      <Button type="button" className="min-h-11 w-full" disabled={busy} onClick={() => void place()}>
        Place order with store credit
      </Button>
    </div>
  );
}
