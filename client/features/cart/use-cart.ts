import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddToCartBody, CartItem } from '../../../common/contracts/cart';
import { apiJson } from '../../lib/api-client';
import { cartDrawer } from './cart-drawer-store';

export const CART_KEY = ['/api/cart'] as const;

export function useCart() {
  return useQuery<CartItem[]>({ queryKey: CART_KEY });
}

export function useCartCount(): number {
  const { data } = useCart();
  return (data ?? []).reduce((n, item) => n + item.quantity, 0);
}

/** Adds a line; opens the drawer when the cart was empty before (SPEC §4). */
export function useAddToCart() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AddToCartBody) => apiJson<CartItem>('POST', '/api/cart', body),
    onSuccess: async () => {
      const before = qc.getQueryData<CartItem[]>(CART_KEY) ?? [];
      await qc.invalidateQueries({ queryKey: CART_KEY });
      if (before.length === 0) cartDrawer.open();
    },
  });
}
