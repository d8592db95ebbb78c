import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { NewsletterResponse } from '../../../common/contracts/newsletter';
import { ApiError, apiJson } from '../../lib/api-client';

/**
 * POST /api/newsletter after the bot check (a proof of work, prove-human.ts, loaded when first used);
 * `checking` is true while it runs (HumanCheckStatus says so). Callers show their own toasts
 * (docs/product.md §8 differs per screen).
 */
export function useSubscribe() {
  const [checking, setChecking] = useState(false);
  const mutation = useMutation({
    mutationFn: async (email: string) => {
      setChecking(true);
      let altcha: string;
      try {
        const { proveHuman } = await import('../../lib/proof-of-work/prove-human');
        altcha = await proveHuman();
      } finally {
        setChecking(false);
      }
      return apiJson<NewsletterResponse>('POST', '/api/newsletter', { email, altcha });
    },
  });
  return { ...mutation, checking };
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
