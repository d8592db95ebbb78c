import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminDrop, AdminDropUpdate } from '../../../common/contracts/drops';
import { apiJson } from '../../lib/api-client';

export const adminDropsKey = ['/api/admin/drops'] as const;

/** Drops that are in their room or selling: the owner's lists then refresh every 5 s. */
const isLive = (list: AdminDrop[] | undefined) => (list ?? []).some((d) => d.phase === 'open' || d.phase === 'raffle');

/**
 * The owner's drops (ADR 010). The Drops view refreshes every 2 s while on screen (it is mounted only then);
 * the dashboard's own watch (`watch`) every 5 s while a drop is live, else every 30 s to notice one opening.
 */
export function useAdminDrops({ watch = false }: { watch?: boolean } = {}) {
  return useQuery<AdminDrop[]>({
    queryKey: adminDropsKey,
    queryFn: () => apiJson<AdminDrop[]>('GET', '/api/admin/drops'),
    refetchInterval: watch ? (query) => (isLive(query.state.data) ? 5000 : 30_000) : 2000,
    refetchOnWindowFocus: 'always',
  });
}

export function useUpdateDrop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ productId, update }: { productId: string; update: AdminDropUpdate }) =>
      apiJson<AdminDrop>('PATCH', `/api/admin/drops/${productId}`, update),
    onSuccess: (drop) =>
      queryClient.setQueryData<AdminDrop[]>(adminDropsKey, (list) =>
        list?.map((d) => (d.productId === drop.productId ? drop : d)),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminDropsKey }),
  });
}
