import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminDrawEntryListSchema,
  adminDrawListSchema,
  adminDrawSchema,
  publicDrawSchema,
  type AdminDraw,
  type AdminDrawEntry,
  type AdminDrawCreate,
  type AdminDrawUpdate,
  type PublicDraw,
} from '../../../common/contracts/draws';
import { apiJson } from '../../lib/api-client';

// The owner's draw calls (common/contracts/draws.ts): list, create, edit, run now, cancel; the public draw for the
// winners' export.

export const adminDrawsKey = ['/api/admin/draws'] as const;

/** The owner's draws, refreshed every 5 s while the Draws tab is on screen (it is mounted only then). */
export function useAdminDraws() {
  return useQuery<AdminDraw[]>({
    queryKey: adminDrawsKey,
    queryFn: () => apiJson('GET', '/api/admin/draws', undefined, adminDrawListSchema),
    refetchInterval: 5000,
    refetchOnWindowFocus: 'always',
  });
}

/** A draw's entries as the owner sees them (who, sizes, rank, outcome, why removed); fetched when shown. */
export function useDrawEntries(id: string, enabled: boolean) {
  return useQuery<AdminDrawEntry[]>({
    queryKey: [...adminDrawsKey, id, 'entries'],
    queryFn: () =>
      apiJson(
        'GET',
        `/api/admin/draws/${encodeURIComponent(id)}/entries`,
        undefined,
        adminDrawEntryListSchema,
      ),
    enabled,
    refetchInterval: enabled ? 5000 : false,
  });
}

function useDrawWrite<V>(call: (v: V) => Promise<AdminDraw>) {
  const queryClient = useQueryClient();
  return useMutation<AdminDraw, Error, V>({
    mutationFn: call,
    onSuccess: (draw) =>
      queryClient.setQueryData<AdminDraw[]>(adminDrawsKey, (list) =>
        list?.some((d) => d.id === draw.id)
          ? list.map((d) => (d.id === draw.id ? draw : d))
          : [draw, ...(list ?? [])],
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminDrawsKey }),
  });
}

export const useCreateDraw = () =>
  useDrawWrite((body: AdminDrawCreate) => apiJson('POST', '/api/admin/draws', body, adminDrawSchema));

/** The owner edits a scheduled draw before its window opens (here: its fair-over-time rule). */
export const useUpdateDraw = () =>
  useDrawWrite(({ id, patch }: { id: string; patch: AdminDrawUpdate }) =>
    apiJson('PATCH', `/api/admin/draws/${encodeURIComponent(id)}`, patch, adminDrawSchema),
  );

export const useRunDraw = () =>
  useDrawWrite((id: string) =>
    apiJson('POST', `/api/admin/draws/${encodeURIComponent(id)}/run`, {}, adminDrawSchema),
  );

export const useCancelDraw = () =>
  useDrawWrite((id: string) =>
    apiJson('POST', `/api/admin/draws/${encodeURIComponent(id)}/cancel`, {}, adminDrawSchema),
  );

export function fetchPublicDraw(id: string): Promise<PublicDraw> {
  return apiJson('GET', `/api/draws/${encodeURIComponent(id)}`, undefined, publicDrawSchema);
}
