import type { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminOrderListSchema,
  adminOrderSchema,
  adminProductListSchema,
  adminProductSchema,
  discountCodeListSchema,
  discountCodeSchema,
  newsletterSignupListSchema,
  type AdminOrder,
  type AdminProduct,
  type DiscountCode,
  type DiscountCodeCreate,
  type NewsletterSignup,
  type ProductPayload,
} from '../../../common/contracts/admin';
import type { OrderStatus } from '../../../common/contracts/checkout';
import { apiJson, apiRequest } from '../../lib/api-client';

export const adminProductsKey = ['/api/admin/products'] as const;
export const adminOrdersKey = ['/api/admin/orders'] as const;
export const adminSignupsKey = ['/api/admin/newsletter-signups'] as const;
export const adminDiscountCodesKey = ['/api/admin/discount-codes'] as const;
/** The storefront's product queries (list and detail share this prefix). */
const publicProductsKey = ['/api/products'] as const;

const get =
  <T>(url: string, schema: z.ZodType<T>) =>
  () =>
    apiJson('GET', url, undefined, schema);

/** docs/product.md §6: admin data is requested only when the status call says the session is an admin's. */
export function useAdminProducts(enabled: boolean) {
  return useQuery<AdminProduct[]>({
    queryKey: adminProductsKey,
    queryFn: get('/api/admin/products', adminProductListSchema),
    enabled,
  });
}

export function useAdminOrders(enabled: boolean) {
  return useQuery<AdminOrder[]>({
    queryKey: adminOrdersKey,
    queryFn: get('/api/admin/orders', adminOrderListSchema),
    enabled,
  });
}

export function useNewsletterSignups(enabled: boolean) {
  return useQuery<NewsletterSignup[]>({
    queryKey: adminSignupsKey,
    queryFn: get('/api/admin/newsletter-signups', newsletterSignupListSchema),
    enabled,
  });
}

export function useDiscountCodes(enabled: boolean) {
  return useQuery<DiscountCode[]>({
    queryKey: adminDiscountCodesKey,
    queryFn: get('/api/admin/discount-codes', discountCodeListSchema),
    enabled,
  });
}

/** docs/product.md §7: after a product save or delete, the admin list and the public list are refreshed. */
function useRefreshProducts() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminProductsKey }),
      queryClient.invalidateQueries({ queryKey: publicProductsKey }),
    ]);
}

export function useSaveProduct() {
  const refresh = useRefreshProducts();
  return useMutation({
    mutationFn: ({ id, payload }: { id: string | null; payload: ProductPayload }) =>
      id
        ? apiJson('PUT', `/api/admin/products/${id}`, payload, adminProductSchema)
        : apiJson('POST', '/api/admin/products', payload, adminProductSchema),
    onSettled: refresh,
  });
}

export function useDeleteProduct() {
  const refresh = useRefreshProducts();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/admin/products/${id}`),
    onSettled: refresh,
  });
}

export function useUpdateOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: OrderStatus }) =>
      apiJson('PUT', `/api/admin/orders/${id}/status`, { status }, adminOrderSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminOrdersKey }),
  });
}

export function useCreateDiscountCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DiscountCodeCreate) => apiJson('POST', '/api/admin/discount-codes', body, discountCodeSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminDiscountCodesKey }),
  });
}

export function useSetDiscountCodeActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) =>
      apiJson('PUT', `/api/admin/discount-codes/${id}`, { isActive }, discountCodeSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminDiscountCodesKey }),
  });
}
