import { z } from 'zod';
import { safeString } from './safe-string';

/** docs/product.md §5: required, e-mail type, trimmed (and lower-cased so one address subscribes once). */
export const newsletterBody = z.object({
  email: z
    .string({ message: 'Email is required' })
    .trim()
    .min(1, { message: 'Email is required' })
    .max(254, { message: 'Email is too long' })
    .toLowerCase()
    .pipe(z.email({ message: 'Please enter a valid email address' })),
  /** The solved proof-of-work challenge of GET /api/pow-challenge (base64 JSON { challenge, solution }). */
  altcha: safeString().max(10_000).optional(),
});
export type NewsletterBody = z.infer<typeof newsletterBody>;

export const newsletterSubscriptionSchema = z.object({
  id: safeString().uuid(),
  email: safeString(),
  subscribedAt: safeString(),
});
export type NewsletterSubscription = z.infer<typeof newsletterSubscriptionSchema>;

/**
 * The answer to every valid signup, new or already on the list, in any spelling: the same status and body
 * (the address as sent and the message), so the answer never tells who is subscribed (docs/security.md,
 * "Who is on the list"). The mailbox itself learns which by mail.
 */
export const newsletterResponse = z.object({ email: safeString(), message: safeString() });
export type NewsletterResponse = z.infer<typeof newsletterResponse>;
