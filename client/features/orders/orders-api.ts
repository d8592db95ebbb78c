import { useMutation, useQuery } from '@tanstack/react-query';
import type { Certificate, FindOrderBody, LatestOrder, OrderView } from '../../../common/contracts/orders';
import { ApiError, apiJson } from '../../lib/api-client';

// The order page's calls (common/contracts/orders.ts lists the routes). Answers are parsed with the shared
// contract, loaded on first use like the other storefront contracts (zod's JIT switched off first: the CSP refuses it).

async function orderContracts() {
  await import('../../lib/zod-jitless');
  return import('../../../common/contracts/orders');
}

/** null when the link is not (or no longer) good: the page then offers "Find my order". */
async function nullOn404<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export function useOrderView(orderNumber: string, key: string | null) {
  return useQuery<OrderView | null>({
    queryKey: ['/api/orders', orderNumber, key],
    queryFn: () =>
      nullOn404(() =>
        apiJson('GET', `/api/orders/${encodeURIComponent(orderNumber)}?key=${encodeURIComponent(key ?? '')}`, undefined, () =>
          orderContracts().then((m) => m.orderViewSchema),
        ),
      ),
    enabled: !!key,
    staleTime: 30_000,
    retry: false,
  });
}

export function useCertificate(id: string) {
  return useQuery<Certificate | null>({
    queryKey: ['/api/certificates', id],
    queryFn: () =>
      nullOn404(() =>
        apiJson('GET', `/api/certificates/${encodeURIComponent(id)}`, undefined, () => orderContracts().then((m) => m.certificateSchema)),
      ),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useFindOrder() {
  return useMutation({
    mutationFn: (body: FindOrderBody) =>
      apiJson('POST', '/api/orders/find', body, () => orderContracts().then((m) => m.findOrderResult)),
  });
}

/** The success page's order with its order page's signed path (null: no order from this browser). */
export function useLatestOrderWithLink() {
  return useQuery<LatestOrder | null>({
    queryKey: ['/api/orders/latest'],
    queryFn: () => nullOn404(() => apiJson('GET', '/api/orders/latest', undefined, () => orderContracts().then((m) => m.latestOrderSchema))),
    staleTime: 0,
    gcTime: 0,
  });
}
