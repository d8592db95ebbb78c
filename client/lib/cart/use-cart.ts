import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddToCartBody, CartItem } from '../../../common/contracts/cart';
import { ApiError, apiJson, apiRequest } from '../api-client';
import { loadStorefrontContracts } from '../storefront-contracts';
import { toast } from '../../components/ui/use-toast';
import { cartDrawer } from './cart-drawer-store';
import { CART_KEY } from './cart-query';

export { CART_KEY, useCart, useCartCount } from './cart-query';

/** Adds a line; opens the drawer when the cart was empty before (docs/product.md §4). */
export function useAddToCart() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AddToCartBody) =>
      apiJson('POST', '/api/cart', body, () => loadStorefrontContracts().then((m) => m.cartItemSchema)),
    // A cart read still in flight (the page's first, on a slow line) was asked before this add: the refetch
    // below would only wait for it (TanStack dedupes onto a first fetch) and the drawer would open empty.
    onMutate: () => qc.cancelQueries({ queryKey: CART_KEY }),
    onSuccess: async () => {
      const before = qc.getQueryData<CartItem[]>(CART_KEY) ?? [];
      await qc.invalidateQueries({ queryKey: CART_KEY });
      if (before.length === 0) cartDrawer.open();
    },
  });
}

/** Cart call failures (e.g. the stock cap) surface the server's own message. */
function toastCartError(err: unknown) {
  toast({
    title: 'Error',
    description: err instanceof ApiError ? err.serverMessage : 'Something went wrong. Please try again.',
    variant: 'destructive',
  });
}

const CART_WRITE_KEY = ['cart-write'];

type Optimistic<V> = (lines: CartItem[], vars: V) => CartItem[];

/**
 * Every cart write refetches the cart afterwards (docs/product.md §7), success or not. Writes share one
 * mutation scope so rapid stepper clicks reach the server in order; the optimistic update keeps
 * the drawer responsive and the refetch corrects it (e.g. when the server caps at stock).
 */
function useCartWrite<V>(fn: (vars: V) => Promise<unknown>, optimistic: Optimistic<V>) {
  const qc = useQueryClient();
  return useMutation({
    scope: { id: 'cart' },
    mutationKey: CART_WRITE_KEY,
    mutationFn: fn,
    onMutate: async (vars: V) => {
      await qc.cancelQueries({ queryKey: CART_KEY });
      const before = qc.getQueryData<CartItem[]>(CART_KEY);
      if (before) qc.setQueryData<CartItem[]>(CART_KEY, optimistic(before, vars));
      return { before };
    },
    onError: (err, _vars, context) => {
      if (context?.before) qc.setQueryData(CART_KEY, context.before);
      toastCartError(err);
    },
    // Refetch once the last queued write settles, so the stepper doesn't flicker between clicks.
    onSettled: () =>
      qc.isMutating({ mutationKey: CART_WRITE_KEY }) <= 1
        ? qc.invalidateQueries({ queryKey: CART_KEY })
        : undefined,
  });
}

/** PUT /api/cart/:id; a quantity of 0 or less removes the line on the server. */
export function useUpdateCartItem() {
  return useCartWrite(
    ({ id, quantity }: { id: string; quantity: number }) =>
      apiRequest('PUT', `/api/cart/${encodeURIComponent(id)}`, { quantity }),
    (lines, { id, quantity }) =>
      quantity <= 0
        ? lines.filter((l) => l.id !== id)
        : lines.map((l) => (l.id === id ? { ...l, quantity } : l)),
  );
}

export function useRemoveCartItem() {
  return useCartWrite(
    (id: string) => apiRequest('DELETE', `/api/cart/${encodeURIComponent(id)}`),
    (lines, id) => lines.filter((l) => l.id !== id),
  );
}

export function useClearCart() {
  return useCartWrite(
    (_: void) => apiRequest('DELETE', '/api/cart'),
    () => [],
  );
}

/**
 * After an add to a cart that already had lines (the drawer opens by itself on the first one):
 * say what went in and offer the cart, so the shopper is one tap from checking out.
 */
export function toastAddedToCart(description: string) {
  toast({ title: 'Success', description, action: { label: 'View cart', onClick: cartDrawer.open } });
}
