import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminOrderSchema, type AdminOrder } from '../../../common/contracts/admin';
import { orderAddressBody, type OrderAddressBody } from '../../../common/contracts/order-address';
import { countryName } from '../../../common/domain/address-format';
import { mayChangeOrder } from '../../../common/domain/order-address';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { AddressFields, addressErrors, addressForSubmit } from '../../components/forms/address-fields';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiJson } from '../../lib/api-client';
import { adminOrdersKey } from './use-admin-data';

// The owner corrects an order's delivery address until it ships (docs/product.md "Order page"): the checkout's
// own rules, the same country; every change is kept on the order and the buyer is e-mailed.

type Fields = Omit<OrderAddressBody, 'shippingCountry'>;
type FieldErrors = Partial<Record<keyof Fields | 'shippingCountry', string>>;

const fieldsOf = (order: AdminOrder): Fields => ({
  shippingAddress: order.shippingAddress,
  shippingCity: order.shippingCity,
  shippingState: order.shippingState,
  shippingZip: order.shippingZip,
});

export function OrderAddressDialog({ order }: { order: AdminOrder }) {
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState<Fields>(() => fieldsOf(order));
  const [errors, setErrors] = useState<FieldErrors>({});
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (body: OrderAddressBody) =>
      apiJson('POST', `/api/admin/orders/${order.id}/address`, body, adminOrderSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminOrdersKey }),
  });
  if (!mayChangeOrder('owner', { status: order.status, placedAt: new Date(order.createdAt) }, Date.now()))
    return null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const address = addressForSubmit({ ...fields, shippingCountry: order.shippingCountry });
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
      onSuccess: () => {
        setOpen(false);
        toast({
          title: 'Address changed',
          description: `Order ${order.orderNumber} now ships to the new address. The customer is e-mailed.`,
        });
      },
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) {
          setFields(fieldsOf(order));
          setErrors({});
          change.reset();
        }
      }}
    >
      <Button type="button" variant="outline" className="min-h-11" onClick={() => setOpen(true)}>
        Change address<span className="sr-only"> of {order.orderNumber}</span>
      </Button>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change the address of {order.orderNumber}</DialogTitle>
          <DialogDescription>
            Until the order ships, in {countryName(order.shippingCountry)}. The change is kept on the order and the
            customer is e-mailed.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <AddressFields
            country={order.shippingCountry}
            countryChoice={false}
            autoFill={false}
            errors={errors}
            bind={(name) => ({
              name,
              value: name === 'shippingCountry' ? order.shippingCountry : fields[name],
              onChange: (e) => setFields((f) => ({ ...f, [name]: e.target.value })),
            })}
          />
          {change.error && (
            <p role="alert" className="text-sm font-medium text-red-700">
              {change.error instanceof ApiError ? change.error.serverMessage : 'Could not change the address'}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="ghost" className="min-h-11" onClick={() => setOpen(false)}>
              Keep address
            </Button>
            <Button type="submit" className="min-h-11" disabled={change.isPending}>
              Save address
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
