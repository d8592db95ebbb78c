import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderAddressBody } from '../../../common/contracts/order-address';
import type { OrderView } from '../../../common/contracts/orders';
import { apiJson } from '../../lib/api-client';

// The buyer's hour after ordering (common/contracts/order-address.ts lists the routes): each answer is the
// order page's view as it is after, put straight into the page's query.

export async function orderChangeContracts() {
  await import('../../lib/zod-jitless');
  const [address, orders] = await Promise.all([
    import('../../../common/contracts/order-address'),
    import('../../../common/contracts/orders'),
  ]);
  return { orderAddressBody: address.orderAddressBody, orderViewSchema: orders.orderViewSchema };
}

function useOrderChange<T>(orderNumber: string, key: string, action: 'address' | 'cancel') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: T) =>
      apiJson(
        'POST',
        `/api/orders/${encodeURIComponent(orderNumber)}/${action}?key=${encodeURIComponent(key)}`,
        body ?? {},
        () => orderChangeContracts().then((m) => m.orderViewSchema),
      ),
    onSuccess: (view: OrderView) => queryClient.setQueryData(['/api/orders', orderNumber, key], view),
  });
}

export const useChangeOrderAddress = (orderNumber: string, key: string) =>
  useOrderChange<OrderAddressBody>(orderNumber, key, 'address');
export const useCancelOwnOrder = (orderNumber: string, key: string) =>
  useOrderChange<undefined>(orderNumber, key, 'cancel');
