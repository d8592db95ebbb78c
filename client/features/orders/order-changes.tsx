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
import { AddressFields, addressErrors, addressForSubmit } from '../../components/forms/address-fields';
import { ApiError } from '../../lib/api-client';
import { orderChangeContracts, useCancelOwnOrder, useChangeOrderAddress } from './order-changes-api';

type Fields = Omit<OrderAddressBody, 'shippingCountry'>;
type FieldErrors = Partial<Record<keyof Fields | 'shippingCountry', string>>;

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
        className="border-l-2 border-success bg-success-soft px-4 py-3 text-sm font-medium text-success focus:outline-none"
      >
        Your order is cancelled. The money goes back to your card.
      </p>
    );
  if (!order.changeUntil) return null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const { orderAddressBody } = await orderChangeContracts();
    const address = addressForSubmit({ ...fields, shippingCountry: order.shippingAddress.country });
    // The country's own rules and words (the server's data) first, then the contract.
    const next: FieldErrors = addressErrors(address);
    const parsed = orderAddressBody.safeParse(address);
    if (!parsed.success)
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof Fields] ??= issue.message;
    if (!parsed.success || Object.keys(next).length > 0) {
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

  return (
    <section
      aria-labelledby="order-changes-heading"
      className="border-t border-hairline pt-5"
      data-testid="order-changes"
    >
      <h2
        id="order-changes-heading"
        className="type-eyebrow flex items-center gap-2 text-muted"
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
          className="mt-4 border-l-2 border-success bg-success-soft px-4 py-3 text-sm font-medium text-success focus:outline-none"
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
          <AddressFields
            className="sm:col-span-2"
            country={order.shippingAddress.country}
            countryChoice={false}
            countryNote="Shipping to another country changes shipping: please contact support."
            errors={errors}
            bind={(name) => ({
              name,
              value: name === 'shippingCountry' ? order.shippingAddress.country : fields[name],
              onChange: (e) => setFields((f) => ({ ...f, [name]: e.target.value })),
            })}
          />
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
