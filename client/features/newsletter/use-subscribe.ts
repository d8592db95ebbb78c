import { useMutation } from '@tanstack/react-query';
import type { NewsletterResponse } from '../../../common/contracts/newsletter';
import { ApiError, apiJson } from '../../lib/api-client';

/** POST /api/newsletter; callers show their own toasts (docs/product.md §8 differs per screen). */
export function useSubscribe() {
  return useMutation({
    mutationFn: (email: string) => apiJson<NewsletterResponse>('POST', '/api/newsletter', { email }),
  });
}

/**
 * The server's reason for a refusal it knows about ('This email is already subscribed to our
 * newsletter.', an invalid address), so the popup and the home form say the same thing; null for
 * anything unexpected, where each screen keeps its own 'try again' line (docs/product.md §8).
 */
export function knownSubscribeFailure(err: unknown): string | null {
  return err instanceof ApiError &&
    err.status < 500 &&
    err.serverMessage &&
    !err.serverMessage.startsWith(`${err.status}:`)
    ? err.serverMessage
    : null;
}
