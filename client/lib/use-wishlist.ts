import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Product } from '../../common/contracts/catalog';
import type { Wishlist, WishlistChange } from '../../common/contracts/wishlist';
import { apiJson } from './api-client';

export const WISHLIST_KEY = ['/api/wishlist'] as const;

/** The shopper's saved pieces (per session on the server: kept across visits and reloads). */
export function useWishlist(opts: { enabled?: boolean } = {}) {
  return useQuery<Wishlist>({
    queryKey: WISHLIST_KEY,
    queryFn: () => apiJson<Wishlist>('GET', '/api/wishlist'),
    enabled: opts.enabled ?? true,
    staleTime: 60_000,
  });
}

export function useIsSaved(productId: string): boolean {
  const { data } = useWishlist();
  return data?.items.some((i) => i.productId === productId) ?? false;
}

/** Save or remove, shown at once (optimistic), put back if the server refuses. */
export function useToggleWishlist() {
  const qc = useQueryClient();
  return useMutation<WishlistChange, Error, { product: Product; save: boolean }, { previous?: Wishlist }>({
    mutationFn: ({ product, save }) =>
      save
        ? apiJson<WishlistChange>('POST', '/api/wishlist', { productId: product.id })
        : apiJson<WishlistChange>('DELETE', `/api/wishlist/${product.id}`),
    onMutate: async ({ product, save }) => {
      await qc.cancelQueries({ queryKey: WISHLIST_KEY });
      const previous = qc.getQueryData<Wishlist>(WISHLIST_KEY);
      const items = (previous?.items ?? []).filter((i) => i.productId !== product.id);
      qc.setQueryData<Wishlist>(WISHLIST_KEY, {
        items: save ? [{ productId: product.id, savedAt: new Date().toISOString(), product }, ...items] : items,
      });
      return { previous };
    },
    onError: (_err, _vars, ctx) => {
      if (ctx?.previous) qc.setQueryData(WISHLIST_KEY, ctx.previous);
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: WISHLIST_KEY }),
  });
}
