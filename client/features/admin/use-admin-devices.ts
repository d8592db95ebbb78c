import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminDeviceListSchema, type AdminDevice } from '../../../common/contracts/admin-devices';
import { apiJson, apiRequest } from '../../lib/api-client';

export const adminDevicesKey = ['/api/admin/devices'] as const;

/** The owner's known devices (ADR 012), most recently used first. */
export function useAdminDevices(enabled: boolean) {
  return useQuery<AdminDevice[]>({
    queryKey: adminDevicesKey,
    queryFn: () => apiJson('GET', '/api/admin/devices', undefined, adminDeviceListSchema),
    enabled,
  });
}

export function useRevokeDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/admin/devices/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminDevicesKey }),
  });
}
