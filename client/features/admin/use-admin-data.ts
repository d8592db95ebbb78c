import type { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminOrderPageSchema,
  adminOrderSchema,
  bulkOrderStatusResult,
  notifyDemandSchema,
  notifySignupListSchema,
  ADMIN_ORDERS_PAGE_SIZE,
  type AdminOrderPage,
  type NotifyDemand,
  type NotifySignupList,
  adminProductListSchema,
  adminProductSchema,
  discountCodeListSchema,
  discountCodeSchema,
  newsletterSignupListSchema,
  type AdminProduct,
  type DiscountCode,
  type DiscountCodeCreate,
  type NewsletterSignup,
  type Carrier,
  type ProductPayload,
  type BulkOrderStatusBody,
} from '../../../common/contracts/admin';
import type { OrderStatus } from '../../../common/contracts/checkout';
import type { AdminDrop } from '../../../common/contracts/drops';
import { apiJson, apiRequest } from '../../lib/api-client';

export const adminProductsKey = ['/api/admin/products'] as const;
export const adminOrdersKey = ['/api/admin/orders'] as const;
export const adminSignupsKey = ['/api/admin/newsletter-signups'] as const;
export const adminDiscountCodesKey = ['/api/admin/discount-codes'] as const;
export const notifyDemandKey = ['/api/admin/notify-demand'] as const;
/** The storefront's product queries (list and detail share this prefix). */
const publicProductsKey = ['/api/products'] as const;

const get =
  <T>(url: string, schema: z.ZodType<T>) =>
  () =>
    apiJson('GET', url, undefined, schema);

/** While a drop is live (its room open or selling), the owner's lists refresh this often (docs/operations.md, Running a drop). */
export const LIVE_REFRESH_MS = 5000;

/** True while any drop is in its room or selling: orders, products and drops then refresh on their own. */
export function isAnyDropLive(drops: AdminDrop[] | undefined): boolean {
  return (drops ?? []).some((d) => d.phase === 'open' || d.phase === 'raffle');
}

/**
 * How an owner's list refreshes: every LIVE_REFRESH_MS while a drop is live, and whenever the window
 * gets focus again (the app's default is never: the storefront's data is pushed or fresh enough).
 */
export const liveRefresh = (live: boolean) =>
  ({ refetchInterval: live ? LIVE_REFRESH_MS : false, refetchOnWindowFocus: 'always' }) as const;

/** docs/product.md §6: admin data is requested only when the status call says the session is an admin's. */
export function useAdminProducts(enabled: boolean, live = false) {
  return useQuery<AdminProduct[]>({
    queryKey: adminProductsKey,
    queryFn: get('/api/admin/products', adminProductListSchema),
    enabled,
    ...liveRefresh(live),
  });
}

export interface OrdersPageParams {
  status?: OrderStatus;
  q?: string;
  /** Only orders not yet shipped and past their ship-by date. */
  late?: boolean;
  offset: number;
  limit?: number;
}

/** The query string of the orders page, the same filters for the CSV export (status, q). */
export function ordersQueryString({ status, q, late, offset, limit }: Partial<OrdersPageParams>): string {
  const params = new URLSearchParams();
  if (status) params.set('status', status);
  if (late) params.set('late', '1');
  if (q) params.set('q', q);
  if (limit !== undefined) params.set('limit', String(limit));
  if (offset !== undefined) params.set('offset', String(offset));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** One page of orders, filtered and counted by the server; the last page stays on screen while the next loads. */
export function useAdminOrdersPage(params: OrdersPageParams, live: boolean) {
  const query = { ...params, limit: params.limit ?? ADMIN_ORDERS_PAGE_SIZE };
  return useQuery<AdminOrderPage>({
    queryKey: [...adminOrdersKey, 'page', query],
    queryFn: get(`/api/admin/orders/page${ordersQueryString(query)}`, adminOrderPageSchema),
    placeholderData: (previous) => previous,
    ...liveRefresh(live),
  });
}

/** Every order, unfiltered: the tab's count and whether the shop has any order at all. */
export function useAdminOrderCount(enabled: boolean, live = false) {
  return useQuery<number>({
    queryKey: [...adminOrdersKey, 'count'],
    queryFn: async () => (await apiJson('GET', '/api/admin/orders/page?limit=1', undefined, adminOrderPageSchema)).total,
    enabled,
    ...liveRefresh(live),
  });
}

export function useNotifyDemand(live = false) {
  return useQuery<NotifyDemand>({
    queryKey: notifyDemandKey,
    queryFn: get('/api/admin/notify-demand', notifyDemandSchema),
    ...liveRefresh(live),
  });
}

export function useNotifySignups(productId: string, enabled: boolean) {
  return useQuery<NotifySignupList>({
    queryKey: [...notifyDemandKey, productId],
    queryFn: get(`/api/admin/notify-demand/${productId}`, notifySignupListSchema),
    enabled,
    refetchOnWindowFocus: 'always',
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

/** A product edit names only the fields the owner changed; with a stock change, the stock the form loaded. */
export type ProductPatch = Partial<ProductPayload> & { expectedStock?: number };

/** Create: POST the whole form. Edit: PATCH only the changed fields (409 stockConflictSchema when stock moved). */
export function useSaveProduct() {
  const refresh = useRefreshProducts();
  return useMutation({
    mutationFn: (save: { id: null; payload: ProductPayload } | { id: string; patch: ProductPatch }) =>
      save.id === null
        ? apiJson('POST', '/api/admin/products', save.payload, adminProductSchema)
        : apiJson('PATCH', `/api/admin/products/${save.id}`, save.patch, adminProductSchema),
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

export interface OrderStatusChange {
  id: string;
  status: OrderStatus;
  /** Sent with the change when given: becoming "shipped" mails the customer the carrier's tracking link. */
  trackingNumber?: string | null;
  carrier?: Carrier | null;
}

export function useUpdateOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: OrderStatusChange) =>
      apiJson('PUT', `/api/admin/orders/${id}/status`, body, adminOrderSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminOrdersKey }),
  });
}

/** One status for the selected orders, all or none (the server's one transaction). */
export function useBulkOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkOrderStatusBody) =>
      apiJson('POST', '/api/admin/orders/bulk-status', body, bulkOrderStatusResult),
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
