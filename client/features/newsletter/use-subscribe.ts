import { useMutation } from '@tanstack/react-query';
import type { NewsletterResponse } from '../../../common/contracts/newsletter';
import { apiJson } from '../../lib/api-client';

/** POST /api/newsletter; callers show their own toasts (SPEC §8 differs per screen). */
export function useSubscribe() {
  return useMutation({
    mutationFn: (email: string) => apiJson<NewsletterResponse>('POST', '/api/newsletter', { email }),
  });
}
