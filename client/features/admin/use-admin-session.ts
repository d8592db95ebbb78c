import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, ApiError } from '../../lib/api-client';
import { toast } from '../../components/ui/use-toast';

export const adminStatusKey = ['/api/admin/status'] as const;

interface AdminStatus {
  isAuthenticated: boolean;
}

/** docs/product.md §7: the status call is not retried; admin data is only requested once this says yes. */
export function useAdminStatus() {
  return useQuery<AdminStatus>({ queryKey: adminStatusKey, retry: false });
}

function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage;
  return error instanceof Error ? error.message : String(error);
}

export function useAdminLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => apiJson<unknown>('POST', '/api/admin/login', { password }),
    onSuccess: async () => {
      toast({ title: 'Success', description: 'Admin access granted' });
      await queryClient.invalidateQueries({ queryKey: adminStatusKey });
    },
    onError: (error) => {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    },
  });
}

export function useAdminLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<unknown>('POST', '/api/admin/logout', {}),
    onSuccess: async () => {
      toast({ title: 'Success', description: 'Logged out successfully' });
      queryClient.setQueryData<AdminStatus>(adminStatusKey, { isAuthenticated: false });
      queryClient.removeQueries({ predicate: (q) => isAdminDataKey(q.queryKey) });
      await queryClient.invalidateQueries({ queryKey: adminStatusKey });
    },
    onError: (error) => {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    },
  });
}

/** Admin data queries (everything under /api/admin/ except the status) are dropped on logout. */
export function isAdminDataKey(key: readonly unknown[]): boolean {
  return typeof key[0] === 'string' && key[0].startsWith('/api/admin/') && key[0] !== adminStatusKey[0];
}

export { errorMessage as adminErrorMessage };
