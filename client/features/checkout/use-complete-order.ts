import { useCallback, useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api-client';
import { CART_KEY } from '../../lib/cart/use-cart';
import { recordPaymentSuccess } from './checkout-api';
import { paymentFailed } from './payment-messages';

/** The server refunds a payment whose hold expired and whose stock is gone; it says so in the body. */
function refundMessage(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.status >= 500) return null;
  try {
    const body = JSON.parse(err.body) as { message?: unknown; refunded?: unknown };
    if (typeof body.message === 'string' && (body.refunded === true || /refund/i.test(body.message)))
      return body.message;
  } catch {
    /* not JSON */
  }
  return null;
}

/** After the provider says "paid": record the order, tell the shopper, go to /order-success. */
export function useCompleteOrder() {
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  return useCallback(
    async (paymentIntentId: string) => {
      try {
        const { orderNumber } = await recordPaymentSuccess(paymentIntentId);
        toast({ title: 'Payment Successful', description: `Your order number is ${orderNumber}.` });
      } catch (err) {
        const refunded = refundMessage(err);
        if (refunded) {
          // Never an oversell: the payment was returned, so the shopper stays on checkout.
          toast({ title: 'Warning', description: refunded, variant: 'destructive' });
          await qc.invalidateQueries({ queryKey: CART_KEY });
          return;
        }
        toast({
          title: 'Warning',
          description: 'Payment successful but order creation failed. Please contact support.',
          variant: 'destructive',
        });
      }
      navigate('/order-success');
      void qc.invalidateQueries({ queryKey: CART_KEY });
    },
    [qc, navigate],
  );
}

/** Redirect-based Stripe methods return to /checkout with the intent in the query string. */
export function useStripeRedirectReturn(complete: (paymentIntentId: string) => Promise<void>) {
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current) return;
    const params = new URLSearchParams(window.location.search);
    const intentId = params.get('payment_intent');
    const status = params.get('redirect_status');
    if (!intentId || !status) return;
    handled.current = true;
    window.history.replaceState(null, '', '/checkout');
    if (status === 'succeeded') void complete(intentId);
    else paymentFailed(new Error('Your payment could not be processed. Please try again.'));
  }, [complete]);
}
