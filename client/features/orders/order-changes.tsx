import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Clock, MapPin, XCircle } from 'lucide-react';
import type { OrderAddressBody } from '../../../common/contracts/order-address';
import type { OrderView } from '../../../common/contracts/orders';
import { displayPrice } from '../../../common/domain/money';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { ApiError } from '../../lib/api-client';
import { orderChangeContracts, useCancelOwnOrder, useChangeOrderAddress } from './order-changes-api';

type Fields = Omit<OrderAddressBody, 'shippingCountry'>;
type FieldErrors = Partial<Record<keyof Fields, string>>;

const messageOf = (err: unknown) =>
  err instanceof ApiError ? err.serverMessage : 'Something went wrong. Please try again.';

/**
 * The buyer's hour after ordering (docs/product.md "Order page"): while it is open and the order unshipped,
 * the delivery address can be corrected (the checkout's own rules, the same country) and the order cancelled.
 */
export function OrderChanges({ order, orderKey }: { order: OrderView; orderKey: string }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [fields, setFields] = useState<Fields>(() => fromView(order));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  const change = useChangeOrderAddress(order.orderNumber, orderKey);
  const cancel = useCancelOwnOrder(order.orderNumber, orderKey);
  const doneRef = useRef<HTMLParagraphElement>(null);
  const savedRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (cancel.isSuccess) doneRef.current?.focus();
  }, [cancel.isSuccess]);
  useEffect(() => {
    if (saved) savedRef.current?.focus();
  }, [saved]);

  if (cancel.isSuccess)
    return (
      <p
        ref={doneRef}
        tabIndex={-1}
        role="status"
        className="border-2 border-ink bg-accent px-4 py-3 text-sm font-semibold focus:outline-none"
      >
        Your order is cancelled. The money goes back to your card.
      </p>
    );
  if (!order.changeUntil) return null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const { orderAddressBody } = await orderChangeContracts();
    const parsed = orderAddressBody.safeParse({ ...fields, shippingCountry: order.shippingAddress.country });
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const name = issue.path[0] as keyof Fields;
        next[name] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    change.mutate(parsed.data, {
      onSuccess: (view) => {
        setFields(fromView(view));
        setEditing(false);
        setSaved(true);
      },
    });
  };

  const field = (name: keyof Fields, label: string, autoComplete: string, maxLength: number) => (
    <FormField label={label} error={errors[name]} required>
      {(control) => (
        <Input
          {...control}
          name={name}
          autoComplete={autoComplete}
          maxLength={maxLength}
          value={fields[name]}
          onChange={(e) => setFields((f) => ({ ...f, [name]: e.target.value }))}
        />
      )}
    </FormField>
  );

  return (
    <section
      aria-labelledby="order-changes-heading"
      className="border-2 border-ink bg-white p-5"
      data-testid="order-changes"
    >
      <h2
        id="order-changes-heading"
        className="flex items-center gap-2 text-xs font-bold uppercase tracking-[0.2em] text-muted"
      >
        <Clock className="h-4 w-4" aria-hidden="true" />
        Change or cancel
      </h2>
      <p className="mt-3 font-semibold">You can change the address until {order.changeUntil.time}.</p>
      <p className="mt-1 text-sm text-muted">
        Until then you can also cancel the order and get your money back in full.
      </p>
      {saved && (
        <p
          ref={savedRef}
          tabIndex={-1}
          role="status"
          className="mt-4 border-2 border-ink bg-accent px-4 py-3 text-sm font-semibold focus:outline-none"
        >
          Address changed. We have e-mailed you the new delivery address.
        </p>
      )}

      {editing ? (
        <form
          onSubmit={submit}
          noValidate
          aria-label="New delivery address"
          className="mt-5 grid gap-4 sm:grid-cols-2"
        >
          <div className="sm:col-span-2">{field('shippingAddress', 'Address', 'street-address', 300)}</div>
          {field('shippingCity', 'City', 'address-level2', 100)}
          {field('shippingState', 'State', 'address-level1', 100)}
          {field('shippingZip', 'ZIP Code', 'postal-code', 20)}
          <div className="grid content-start gap-1.5">
            <p className="text-sm font-semibold">Country</p>
            <p className="text-sm">{order.shippingAddress.country}</p>
            <p className="text-xs text-muted">
              Shipping to another country changes shipping: please contact support.
            </p>
          </div>
          {change.error && (
            <p role="alert" className="text-sm font-medium text-red-700 sm:col-span-2">
              {messageOf(change.error)}
            </p>
          )}
          <div className="flex flex-wrap gap-2 sm:col-span-2">
            <Button type="submit" disabled={change.isPending} aria-busy={change.isPending}>
              {change.isPending ? 'Saving…' : 'Save address'}
            </Button>
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                setEditing(false);
                setErrors({});
                setFields(fromView(order));
                change.reset();
              }}
            >
              Keep the old address
            </Button>
          </div>
        </form>
      ) : (
        <div className="mt-5 flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setEditing(true);
              setSaved(false);
            }}
          >
            <MapPin className="h-4 w-4" aria-hidden="true" />
            Change address
          </Button>
          <Dialog
            open={confirming}
            onOpenChange={(open) => {
              setConfirming(open);
              if (!open) cancel.reset();
            }}
          >
            <Button type="button" variant="destructive" onClick={() => setConfirming(true)}>
              <XCircle className="h-4 w-4" aria-hidden="true" />
              Cancel order
            </Button>
            <DialogContent>
              <DialogHeader>
                <DialogTitle>Cancel order {order.orderNumber}?</DialogTitle>
                <DialogDescription>
                  The whole order is cancelled and {displayPrice(order.total)} goes back to your card. This
                  cannot be undone.
                </DialogDescription>
              </DialogHeader>
              {cancel.error && (
                <p role="alert" className="text-sm font-medium text-red-700">
                  {messageOf(cancel.error)}
                </p>
              )}
              <div className="flex flex-wrap justify-end gap-2">
                <DialogClose asChild>
                  <Button type="button" variant="outline">
                    Keep my order
                  </Button>
                </DialogClose>
                <Button
                  type="button"
                  variant="destructive"
                  onClick={() => cancel.mutate(undefined)}
                  disabled={cancel.isPending}
                  aria-busy={cancel.isPending}
                >
                  {cancel.isPending ? 'Cancelling…' : 'Yes, cancel the order'}
                </Button>
              </div>
            </DialogContent>
          </Dialog>
        </div>
      )}
    </section>
  );
}

function fromView(view: OrderView): Fields {
  const a = view.shippingAddress;
  return { shippingAddress: a.address, shippingCity: a.city, shippingState: a.state, shippingZip: a.zip };
}
