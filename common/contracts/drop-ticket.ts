import { z } from 'zod';
import { newsletterBody } from './newsletter';
import { safeString } from './safe-string';

// The shopper's own waiting-room ticket (ADR 011, "Alerts people can act on"):
//   PUT    /api/drops/:productId/ticket/email      { email }    → 200 { message }  ("E-mail me when it's my turn")
//   POST   /api/drops/:productId/ticket/heartbeat  { visible }  → 200 { visible }  (the page is seen or hidden)
//   DELETE /api/drops/:productId/queue                          → 200 { message }  ("Leave the line")
//   GET    /api/drops/:productId/turn?token=                    → 303 to the product's waiting room (the "your
//          turn" mail's link: following it is what extends the pass); 404 { message } for a token not ours
// No ticket in this room for this session: 404 { message }.

/** The e-mail is checked like the newsletter's (trimmed, lower-cased, valid). */
export const ticketEmailBody = newsletterBody.pick({ email: true });
export type TicketEmailBody = z.infer<typeof ticketEmailBody>;

export const ticketHeartbeatBody = z.object({ visible: z.boolean({ message: 'visible must be true or false' }) });
export type TicketHeartbeatBody = z.infer<typeof ticketHeartbeatBody>;

export const ticketMessage = z.object({ message: safeString() });

export const turnLinkQuery = z.object({
  token: safeString().min(1, { message: 'This link is not valid (any more).' }).max(200, { message: 'This link is not valid (any more).' }),
});
export type TicketMessage = z.infer<typeof ticketMessage>;

export const ticketMessages = {
  emailSaved: "We'll e-mail you when it's your turn.",
  left: 'You left the line.',
  noTicket: 'You are not in this waiting room.',
} as const;
