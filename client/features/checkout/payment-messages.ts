import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api-client';

/** docs/product.md §8 'Payment Failed' with the provider's own message (cart, form and discount stay). */
export function paymentFailed(err: unknown): void {
  toast({ title: 'Payment Failed', description: paymentFailureMessage(err), variant: 'destructive' });
}

/** The provider's message for a refused payment, e.g. 'Your card was declined.' */
export function paymentFailureMessage(err: unknown): string {
  return err instanceof ApiError
    ? err.serverMessage
    : err instanceof Error && !(err instanceof TypeError) && err.message
      ? err.message
      : 'Your payment could not be processed. Please try again.';
}
