import { z } from 'zod';
import { newsletterBody } from './newsletter';
import { safeString } from './safe-string';

// 'Notify me' (ADR 011; docs/product.md §9):
//   POST /api/products/:id/alerts  { email, altcha, size? } → 201 { message } (already signed up: 200, same message);
//                                  409 { message: "It's on sale now." } while it (or the size asked for) can be bought;
//                                  400 a size the product's run does not have
//   (size: "tell me if an M comes back", ADR 015; absent or null: any size. One signup per mailbox and product:
//    asking again with another size changes the size it waits for.)
//   POST /api/alerts/claim         { token }          → 200 AlertClaim and an httpOnly claim cookie
//   GET  /api/alerts/unsubscribe?token=              → a confirmation (HTML for a browser, else JSON)
//   POST /api/alerts/unsubscribe?token=              → 200 { message } (RFC 8058 one-click)

/** The e-mail is checked like the newsletter's; the proof of work too. `size`: one label of the product's run. */
export const alertSignupBody = newsletterBody.extend({
  size: safeString()
    .trim()
    .max(20, { message: 'A size is at most 20 characters.' })
    .nullable()
    .optional()
    .transform((s) => (s ? s : null)),
});
export type AlertSignupBody = z.infer<typeof alertSignupBody>;

export const alertSignupResponse = z.object({ message: safeString(), kind: z.enum(['release', 'restock']) });
export type AlertSignupResponse = z.infer<typeof alertSignupResponse>;

const token = safeString()
  .trim()
  .regex(/^[A-Za-z0-9_-]{16,128}$/, { message: 'This link is not valid (any more).' });

export const alertClaimBody = z.object({ token });
export const alertClaim = z.object({
  productId: safeString().uuid(),
  /** ISO 8601: only this shopper can add the piece to a cart until then. */
  reservedUntil: safeString(),
  message: safeString(),
  /** The size of the kept piece (the product page picks it); null or absent: any size. */
  size: safeString().nullable().optional(),
});
export type AlertClaim = z.infer<typeof alertClaim>;

export const alertTokenQuery = z.object({ token });

/** GET /api/alerts/unsubscribe as JSON (a browser gets the HTML page): what the link is about. */
export const alertUnsubscribeInfo = z.object({ productName: safeString(), unsubscribed: z.boolean(), message: safeString() });
export type AlertUnsubscribeInfo = z.infer<typeof alertUnsubscribeInfo>;
/** POST /api/alerts/unsubscribe as JSON (RFC 8058 one-click; a browser gets the HTML page). */
export const alertUnsubscribed = z.object({ message: safeString() });
export type AlertUnsubscribed = z.infer<typeof alertUnsubscribed>;
