import { useQuery } from '@tanstack/react-query';
import type { CartItem } from '../../../common/contracts/cart';
import { apiJson } from '../api-client';
import { loadStorefrontContracts } from '../storefront-contracts';

// The cart as every screen reads it (the header's count). The changes (use-cart.ts) carry
// TanStack's mutation code and load with the screens that make them.
export const CART_KEY = ['/api/cart'] as const;

export function useCart() {
  return useQuery<CartItem[]>({
    queryKey: CART_KEY,
    // Parsed with the server's own contract, loaded with zod on the first fetch (not in the page's first script).
    queryFn: () => apiJson('GET', CART_KEY[0], undefined, () => loadStorefrontContracts().then((m) => m.cartSchema)),
  });
}

export function useCartCount(): number {
  const { data } = useCart();
  return (data ?? []).reduce((n, item) => n + item.quantity, 0);
}
