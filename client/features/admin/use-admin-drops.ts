import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminDrop, AdminDropUpdate } from '../../../common/contracts/drops';
import { apiJson } from '../../lib/api-client';

export const adminDropsKey = ['/api/admin/drops'] as const;

/** The owner's Drops view (ADR 010): refreshed every 2 s while the tab is on screen (it is mounted only then). */
export function useAdminDrops() {
  return useQuery<AdminDrop[]>({
    queryKey: adminDropsKey,
    queryFn: () => apiJson<AdminDrop[]>('GET', '/api/admin/drops'),
    refetchInterval: 2000,
    refetchOnWindowFocus: true,
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
