import { z } from 'zod';
import { safeString } from './safe-string';
import { RETURN_STATUSES } from '../domain/returns';
import { RETURN_POLICY } from '../domain/return-policy';

// Returns by the refund policy (docs/product.md "Returns"):
//
//   GET  /api/orders/:orderNumber/returns?key=…   → ReturnsView (the order page); 404 for a wrong key
//   POST /api/orders/:orderNumber/returns?key=…   body ReturnRequestBody → ReturnsView; 409 { message } for a
//                                                 final-sale line, after the 2 days, or a line already asked for
//   POST /api/admin/orders/:orderId/returns/:returnId/:action   action approve | decline | receive-accept |
//                                                 receive-reject; body { note? } → ReturnRecord[]

export const returnLineBody = z.object({
  itemId: safeString().max(100),
  quantity: z.number().int().min(1).max(50),
});

export const returnRequestBody = z.object({
  lines: z.array(returnLineBody).min(1, 'Choose at least one piece to return').max(50),
  reason: safeString().trim().min(1, 'Tell us why you are returning it').max(500),
});
export type ReturnRequestBody = z.infer<typeof returnRequestBody>;

export const RETURN_ACTIONS = ['approve', 'decline', 'receive-accept', 'receive-reject'] as const;
export type ReturnAction = (typeof RETURN_ACTIONS)[number];

export const adminReturnParams = z.object({
  orderId: safeString().max(100),
  returnId: safeString().max(100),
  action: z.enum(RETURN_ACTIONS),
});
export const adminReturnBody = z.object({ note: safeString().trim().max(500).optional() }).optional();

export const returnRecordSchema = z.object({
  id: z.string(),
  status: z.enum(RETURN_STATUSES),
  reason: z.string(),
  lines: z.array(z.object({ itemId: z.string(), productName: z.string(), quantity: z.number(), editionNumbers: z.array(z.number()) })),
  /** The store credit granted once accepted ("0.00" until then). */
  credit: z.string(),
  /** When an approved return must be shipped back by (ISO), null until approved. */
  shipBackBy: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type ReturnRecord = z.infer<typeof returnRecordSchema>;
export const returnListSchema = z.array(returnRecordSchema);

/** The order page's returns: the returns asked for, each line with the pieces still returnable, and until when. */
export const returnsViewSchema = z.object({
  returns: returnListSchema,
  lines: z.array(
    z.object({
      itemId: z.string(),
      productName: z.string(),
      selectedSize: z.string().nullable(),
      /** Pieces of the line not yet in an open or accepted return. */
      left: z.number(),
      finalSale: z.boolean(),
    }),
  ),
  /** The end of the 2 days after delivery (ISO) while it is open; null before delivery and after. */
  requestUntil: z.string().nullable(),
});
export type ReturnsView = z.infer<typeof returnsViewSchema>;

export const RETURN_MESSAGES = {
  notDelivered: 'A return can be asked for once the order is delivered.',
  windowClosed: `Returns must be requested within ${RETURN_POLICY.requestDays} days of receipt. Please contact support if something is wrong.`,
  finalSale: (name: string) => `${name} is a final sale and can't be returned.`,
  unknownLine: 'That piece is not part of this order.',
  tooMany: (name: string) => `You can return at most the pieces you received of ${name}.`,
  alreadyAsked: (name: string) => `A return for ${name} was already requested.`,
  notFound: 'Return not found',
  wrongState: 'This return has already moved on; refresh to see where it is.',
} as const;
