import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api-client';

// docs/product.md §7: no retries, no refetch on interval or focus, data never stale.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}

/** The browser's one cache (the server renders each request with its own). */
export const queryClient = createQueryClient();
