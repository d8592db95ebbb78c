import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createPaymentIntentResult,
  customerInfoSchema,
  discountResult,
  offlineConfirmResult,
  orderSchema,
  paymentSuccessResult,
  savedCustomerInfoSchema,
  totalsSchema,
  type CreatePaymentIntentResult,
  type CustomerInfo,
  type CustomerInfoBody,
  type DiscountResult,
  type Order,
  type Totals,
} from '../../../common/contracts/checkout';
import type { ShippingMethod } from '../../../common/contracts/settings';
import { checkoutCreditBalanceSchema, type CheckoutCreditBalance } from '../../../common/contracts/store-credit';
import { parseMoney } from '../../../common/domain/money';
import { ApiError, apiJson, apiRequest } from '../../lib/api-client';

export const CUSTOMER_INFO_KEY = ['/api/customer-info'] as const;

/** The session's saved shipping details, or null when none are saved yet. */
export function useCustomerInfo() {
  return useQuery<CustomerInfo | null>({
    queryKey: CUSTOMER_INFO_KEY,
    queryFn: () => apiJson('GET', '/api/customer-info', undefined, savedCustomerInfoSchema),
    staleTime: 0,
  });
}

export function useSaveCustomerInfo() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CustomerInfoBody) => apiJson('POST', '/api/customer-info', body, customerInfoSchema),
    onSuccess: (saved) => qc.setQueryData(CUSTOMER_INFO_KEY, saved),
  });
}

export function validateDiscount(code: string): Promise<DiscountResult> {
  return apiJson('POST', '/api/validate-discount', { code }, discountResult);
}

export interface CheckoutChoices {
  discountCode: string | null;
  shippingMethod: ShippingMethod;
  /** The destination's country (saved, or being chosen): the server prices its zone, so totals are asked again when it changes. */
  country?: string;
  /** The saved address's country: saving it asks again, so the payment is never priced on a preview. */
  savedCountry?: string | null;
  /** Changes whenever the cart's lines or quantities change, so totals are recomputed. */
  cartSignature: string;
}

/** Totals computed by the server from the session's cart; the client only sends its choices. */
export function useTotals(
  { discountCode, shippingMethod, country, savedCountry, cartSignature }: CheckoutChoices,
  enabled: boolean,
) {
  return useQuery<Totals>({
    queryKey: ['/api/calculate-shipping', discountCode, shippingMethod, country, savedCountry, cartSignature],
    // The country is the one on screen (the info step's choice before it is saved): a preview, the payment
    // is priced on the saved address.
    queryFn: () =>
      apiJson('POST', '/api/calculate-shipping', { discountCode, shippingMethod, shippingCountry: country }, totalsSchema),
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled,
  });
}

export interface PaymentIntent extends CreatePaymentIntentResult {
  /** Local clock time the stock hold ends, corrected for the server's clock. */
  holdEndsAt: number;
}

/**
 * Creates (and so holds stock for) a payment intent whenever the payable total changes. Only
 * requested when the amount is above 0 (docs/product.md §5); never cached across visits (gcTime 0).
 */
export function usePaymentIntent(choices: CheckoutChoices, totals: Totals | undefined, useCredit = false) {
  const amount = totals ? parseMoney(totals.total) : 0;
  return useQuery<PaymentIntent>({
    queryKey: [
      '/api/create-payment-intent',
      totals?.total,
      choices.discountCode,
      choices.shippingMethod,
      choices.cartSignature,
      useCredit,
    ],
    queryFn: async () => {
      const res = await apiRequest('POST', '/api/create-payment-intent', {
        amount: amount / 100,
        discountCode: choices.discountCode,
        shippingMethod: choices.shippingMethod,
        ...(useCredit ? { useCredit: true } : {}),
      });
      const intent = createPaymentIntentResult.parse(await res.json());
      const serverNow = Date.parse(res.headers.get('date') ?? '');
      const skew = Number.isFinite(serverNow) ? serverNow - Date.now() : 0;
      return { ...intent, holdEndsAt: Date.parse(intent.holdExpiresAt) - skew };
    },
    enabled: amount > 0,
    // The previous intent stays on screen (disabled) while the new one is made, so card details survive.
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    gcTime: 0,
  });
}

/** The store credit of the saved e-mail (docs/product.md §2.15), asked once the checkout knows the address. */
export function useCheckoutCredit(email: string | null) {
  return useQuery<CheckoutCreditBalance>({
    queryKey: ['/api/checkout/store-credit', email],
    queryFn: () => apiJson('GET', '/api/checkout/store-credit', undefined, checkoutCreditBalanceSchema),
    enabled: email !== null,
    staleTime: 0,
  });
}

/** Credit pays all of it: one call holds it and places the order, with no payment intent. */
export async function placeOrderWithCredit(choices: CheckoutChoices, totals: Totals): Promise<{ orderNumber: string }> {
  const placed = await apiJson(
    'POST',
    '/api/create-payment-intent',
    { amount: parseMoney(totals.total) / 100, discountCode: choices.discountCode, shippingMethod: choices.shippingMethod, useCredit: true },
    createPaymentIntentResult,
  );
  if (!placed.orderNumber) throw new Error('Store credit did not cover the order');
  return { orderNumber: placed.orderNumber };
}

/** Offline test gateway (docs/product.md §11): 200 on success, 402 {message} for a declined card. */
export function confirmOfflinePayment(body: {
  clientSecret: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
}) {
  return apiJson('POST', '/api/payments/offline/confirm', body, offlineConfirmResult);
}

export function recordPaymentSuccess(paymentIntentId: string): Promise<{ orderNumber: string }> {
  return apiJson('POST', '/api/payment-success', { paymentIntentId }, paymentSuccessResult);
}

/** The session's latest order, or null when it has none (404). */
export function useLatestOrder() {
  return useQuery<Order | null>({
    queryKey: ['/api/orders/latest'],
    queryFn: async () => {
      try {
        return await apiJson('GET', '/api/orders/latest', undefined, orderSchema);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    staleTime: 0,
    gcTime: 0,
  });
}

/** A 4xx carries a message meant for the shopper (sold out, code used up); anything else is generic. */
export function shopperMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.status >= 400 && err.status < 500 ? err.serverMessage : fallback;
}
