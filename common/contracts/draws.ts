import { z } from 'zod';
import { DRAW_PIECES_MAX } from '../domain/draw-allocation';
import { DRAW_FAIRNESS_RULES, FAIRNESS_LOOKBACK_MAX, FAIRNESS_LOOKBACK_MIN } from '../domain/draw-fairness';
import { DRAW_ENTRY_STATUSES, DRAW_STATUSES } from '../domain/draw-lifecycle';
import { customerInfoFields } from './checkout';
import { withAddressRules } from './address';
import { safeString } from './safe-string';
import { shippingMethodSchema } from './settings';

// The draw (docs/draw.md, ADR 018): a product sold by draw instead of first come, first served.
//
// Public:
//   GET    /api/draws/:id                        → PublicDraw (commitment always; seed, entries and winners once drawn)
//   GET    /api/products/:productId/draw         → PublicDraw of the product's current (or last) draw; null (200) when it never had one
//   POST   /api/draws/:id/entries                body EnterDrawBody (proof of work) → 202 EnterDrawResult (entered,
//          pending: the card is kept, not sent to the bank until the entry is confirmed; docs/draw.md);
//          400 invalid / no card; 404 no draw; 409 window not open / already entered / an authorisationId
//          instead of a card; 429 join limits or the decline budget
//   GET    /api/draw-entries/:token              → DrawEntryView (the token comes from the mailed link)
//   POST   /api/draw-entries/:token/confirm      body ConfirmDrawEntryBody? → DrawEntryView (the card authorised
//          now, then confirmed; again: the same; `cardAction` when the bank asks for 3-D Secure); 402 one
//          message for every decline; 429 the decline budget (docs/security.md, "Card testing")
//   PATCH  /api/draw-entries/:token              body ChangeDrawEntryBody → DrawEntryView (until the window closes)
//   DELETE /api/draw-entries/:token              → DrawEntryView (withdrawn, card released; until the window closes)
// Owner (admin login, like every /api/admin route):
//   GET    /api/admin/draws                      → AdminDraw[]
//   POST   /api/admin/draws                      body AdminDrawCreate → 201 AdminDraw
//   GET    /api/admin/draws/:id                  → AdminDraw
//   PATCH  /api/admin/draws/:id                  body AdminDrawUpdate → AdminDraw (only while scheduled)
//   POST   /api/admin/draws/:id/run              → AdminDraw (runs the draw now; 409 before the window closes)
//   GET    /api/admin/draws/:id/entries          → AdminDrawEntry[] (ranked first, then by entry time)
//   POST   /api/admin/draws/:id/cancel           → AdminDraw (before the draw; every authorisation released)
//
// Fair over time (common/domain/draw-fairness.ts): the owner sets `fairness` when making or editing a
// scheduled draw — off (default), loyalty (entrants who lost their last draws here weigh 1 + those losses
// in a row, up to K) or sit_out (winners of the shop's last K draws are removed before the draw). It is part
// of the public draw; the weights it gives are computed when the draw runs and published on each entry.

export const DRAW_METHOD = 'fifty-draw-v1';

export const drawStatusSchema = z.enum(DRAW_STATUSES);
export const drawEntryStatusSchema = z.enum(DRAW_ENTRY_STATUSES);

export const drawIdParams = z.object({ id: safeString().uuid({ message: 'Draw not found' }) });
export const drawProductParams = z.object({ productId: safeString().uuid({ message: 'Product not found' }) });
export const drawEntryTokenParams = z.object({
  token: safeString().regex(/^[A-Za-z0-9_-]{43}$/, { message: 'This link is not valid.' }),
});

const isoTime = (label: string) =>
  safeString({ message: `${label} is required` }).datetime({ offset: true, message: `${label} must be an ISO 8601 time` });

/** The owner's fair-over-time rule; `lookback` (K) is required unless the rule is off (checked by the server). */
export const drawFairnessSchema = z.object({
  rule: z.enum(DRAW_FAIRNESS_RULES, { message: 'The fairness rule must be off, loyalty or sit_out.' }),
  lookback: z
    .number({ message: 'The look-back must be a whole number' })
    .int({ message: 'The look-back must be a whole number' })
    .min(FAIRNESS_LOOKBACK_MIN, { message: `The look-back is ${FAIRNESS_LOOKBACK_MIN} to ${FAIRNESS_LOOKBACK_MAX} draws` })
    .max(FAIRNESS_LOOKBACK_MAX, { message: `The look-back is ${FAIRNESS_LOOKBACK_MIN} to ${FAIRNESS_LOOKBACK_MAX} draws` })
    .nullable()
    .optional(),
});
export type DrawFairnessBody = z.infer<typeof drawFairnessSchema>;

/** The rule as the API answers it: `lookback` null exactly when the rule is off. */
const drawFairnessView = z.object({
  rule: z.enum(DRAW_FAIRNESS_RULES),
  lookback: z.number().int().nullable(),
});

export const DRAW_PIECES_MESSAGE = `Pieces in the draw must be a whole number from 1 to ${DRAW_PIECES_MAX.toLocaleString('en-US')}, or empty for every piece.`;

export const adminDrawCreate = z.object({
  productId: safeString().uuid({ message: 'Product not found' }),
  opensAt: isoTime('opensAt'),
  closesAt: isoTime('closesAt'),
  drawAt: isoTime('drawAt'),
  /** Absent: off. */
  fairness: drawFairnessSchema.optional(),
  /** How many pieces the draw gives out; absent or null: every piece (docs/draw.md, Pieces). */
  pieces: z
    .number({ message: DRAW_PIECES_MESSAGE })
    .int({ message: DRAW_PIECES_MESSAGE })
    .min(1, { message: DRAW_PIECES_MESSAGE })
    .max(DRAW_PIECES_MAX, { message: DRAW_PIECES_MESSAGE })
    .nullable()
    .optional(),
});
export type AdminDrawCreate = z.infer<typeof adminDrawCreate>;

export const adminDrawUpdate = adminDrawCreate.omit({ productId: true }).partial();
export type AdminDrawUpdate = z.infer<typeof adminDrawUpdate>;

const sizeLabel = safeString().trim().min(1).max(20);

/** The shopper's entry: where the piece ships, the sizes, the card. */
export const enterDrawBody = withAddressRules(customerInfoFields.extend({
  size: sizeLabel.nullable().optional(),
  secondSize: sizeLabel.nullable().optional(),
  shippingMethod: shippingMethodSchema.optional(),
  /** With Stripe: the PaymentMethod id Stripe.js made from the card form. */
  paymentMethodId: safeString().trim().min(1).max(200).optional(),
  /** With the offline test gateway: one of Stripe's test cards. */
  card: z
    .object({ cardNumber: safeString().min(1).max(40), expiry: safeString().min(1).max(10), cvc: safeString().min(1).max(8) })
    .optional(),
  /**
   * From pages made when 3-D Secure came at entry (the second send after the bank's step). Entries never
   * authorise now (the card is asked at confirmation, docs/draw.md): an entry with it and no card is 409.
   */
  authorisationId: safeString()
    .trim()
    .regex(/^pi_[A-Za-z0-9_]{1,120}$/, { message: 'This card check is not valid. Please enter your card again.' })
    .optional(),
  altcha: safeString().max(10_000, { message: 'Invalid proof of work' }),
}));
export type EnterDrawBody = z.infer<typeof enterDrawBody>;

export const changeDrawEntryBody = z.object({
  size: sizeLabel.nullable().optional(),
  secondSize: sizeLabel.nullable().optional(),
});
export type ChangeDrawEntryBody = z.infer<typeof changeDrawEntryBody>;

/** Entered: pending until the mailed link is used. */
export const enteredDrawResult = z.object({
  publicId: safeString(),
  status: drawEntryStatusSchema,
  message: safeString(),
});
/**
 * The card's bank asks for 3-D Secure: nothing is recorded yet. The page lets the shopper confirm with
 * `clientSecret` (Stripe.js's handleNextAction, or the offline gateway's authenticate route), then sends the
 * entry again (a fresh proof of work) with `authorisationId`.
 */
export const drawEntryActionResult = z.object({
  status: z.literal('requires_action'),
  clientSecret: safeString(),
  authorisationId: safeString(),
  message: safeString(),
});
/** 202 of POST /api/draws/:id/entries. */
export const enterDrawResult = z.union([drawEntryActionResult, enteredDrawResult]);
export type EnterDrawResult = z.infer<typeof enterDrawResult>;

/**
 * The offline test gateway's stand-in for the bank's 3-D Secure page (Stripe's test page has the same two
 * buttons): POST /api/payments/offline/authorisations/:id/authenticate body OfflineAuthenticateBody →
 * 200 OfflineAuthenticateResult (authorised), 402 after `fail` (nothing held), 404 for a wrong secret.
 */
export const offlineAuthenticateParams = z.object({
  id: safeString().regex(/^pi_offline_auth_[0-9a-f]{24}$/, { message: 'Payment not found' }),
});
export const offlineAuthenticateBody = z.object({
  clientSecret: safeString().min(1).max(300),
  outcome: z.enum(['complete', 'fail'], { message: "The outcome must be 'complete' or 'fail'." }),
});
export type OfflineAuthenticateBody = z.infer<typeof offlineAuthenticateBody>;
export const offlineAuthenticateResult = z.object({ id: safeString(), status: z.literal('requires_capture') });
export type OfflineAuthenticateResult = z.infer<typeof offlineAuthenticateResult>;

/** What the entrant sees of their own entry (from the mailed link). */
export const drawEntryViewSchema = z.object({
  publicId: safeString(),
  drawId: safeString().uuid(),
  productId: safeString().uuid(),
  productName: safeString(),
  drawStatus: drawStatusSchema,
  status: drawEntryStatusSchema,
  email: safeString(),
  size: safeString().nullable(),
  secondSize: safeString().nullable(),
  /** The amount authorised on the card ("12.34"); charged only if the entry wins. */
  amount: safeString(),
  closesAt: safeString(),
  drawAt: safeString(),
  /** Whether size changes and withdrawal are still possible. */
  changeable: z.boolean(),
  rank: z.number().int().nullable(),
  allocatedSize: safeString().nullable(),
  orderNumber: safeString().nullable(),
  removedReason: safeString().nullable(),
  /** Pending, and its card could not be authorised at confirmation: confirm again with another card. */
  cardFailed: z.boolean().optional(),
  /**
   * Only in the answer of a confirmation whose card's bank asks for 3-D Secure (the entry is still pending):
   * run the bank's step with `clientSecret`, then confirm again.
   */
  cardAction: z.object({ clientSecret: safeString(), authorisationId: safeString(), message: safeString() }).optional(),
});
export type DrawEntryView = z.infer<typeof drawEntryViewSchema>;

/**
 * POST /api/draw-entries/:token/confirm: the card is authorised now (docs/draw.md); after a decline the page
 * may send another card (`card` offline, `paymentMethodId` with Stripe). Empty: the entry's own card.
 */
export const confirmDrawEntryBody = z
  .object({
    paymentMethodId: safeString().trim().min(1).max(200).optional(),
    card: z
      .object({ cardNumber: safeString().min(1).max(40), expiry: safeString().min(1).max(10), cvc: safeString().min(1).max(8) })
      .optional(),
  })
  .optional();
export type ConfirmDrawEntryBody = z.infer<typeof confirmDrawEntryBody>;

export const publishedEntrySchema = z.object({
  publicId: safeString(),
  /** 1, or more under the loyalty rule: fixed when the draw ran; the ranking uses it. */
  weight: z.number(),
  size: safeString().nullable(),
  secondSize: safeString().nullable(),
  rank: z.number().int().nullable(),
  /** won | lost | capture_failed (selected / waiting while the draw is being settled). */
  outcome: safeString(),
});

/** GET /api/draws/:id — everything scripts/verify-draw.mjs needs, once the draw has run. */
export const publicDrawSchema = z.object({
  id: safeString().uuid(),
  productId: safeString().uuid(),
  productName: safeString(),
  status: drawStatusSchema,
  method: z.literal(DRAW_METHOD),
  opensAt: safeString(),
  closesAt: safeString(),
  drawAt: safeString(),
  price: safeString(),
  /** How many pieces the draw gives out; null: every piece. */
  pieces: z.number().int().nullable(),
  commitment: safeString(),
  /** null until the draw runs. */
  seed: safeString().nullable(),
  /** Entries in the draw (confirmed, duplicates removed), in rank order; empty until the draw runs. */
  entries: z.array(publishedEntrySchema),
  winners: z.array(z.object({ publicId: safeString(), size: safeString().nullable() })),
  /** The fair-over-time rule in force (off unless the owner chose one). */
  fairness: drawFairnessView,
  /** Entries removed before the draw as duplicates of an earlier one (how many; their reasons are private). */
  removedDuplicates: z.number().int(),
  /** Entries removed before the draw because the entrant won a recent draw here (the sit_out rule). */
  removedRecentWinners: z.number().int(),
  /** Confirmed entries so far (before the draw) or in the draw. */
  entryCount: z.number().int(),
});
export type PublicDraw = z.infer<typeof publicDrawSchema>;

export const adminDrawSchema = z.object({
  id: safeString().uuid(),
  productId: safeString().uuid(),
  productName: safeString(),
  status: drawStatusSchema,
  opensAt: safeString(),
  closesAt: safeString(),
  drawAt: safeString(),
  price: safeString(),
  pieces: z.number().int().nullable(),
  commitment: safeString(),
  seed: safeString().nullable(),
  fairness: drawFairnessView,
  drawnAt: safeString().nullable(),
  settledAt: safeString().nullable(),
  /** Entries per status. */
  counts: z.record(safeString(), z.number().int()),
});
export type AdminDraw = z.infer<typeof adminDrawSchema>;
export const adminDrawListSchema = z.array(adminDrawSchema);

/** One entry as the owner sees it (GET /api/admin/draws/:id/entries): who, what, and why it was removed. */
export const adminDrawEntrySchema = z.object({
  publicId: safeString(),
  email: safeString(),
  name: safeString(),
  status: drawEntryStatusSchema,
  size: safeString().nullable(),
  secondSize: safeString().nullable(),
  weight: z.number().int(),
  rank: z.number().int().nullable(),
  allocatedSize: safeString().nullable(),
  orderNumber: safeString().nullable(),
  /** Why the entry left the draw before it ran (a duplicate of which entry, by what; a recent winner). */
  removedReason: safeString().nullable(),
  enteredAt: safeString(),
  confirmedAt: safeString().nullable(),
});
export type AdminDrawEntry = z.infer<typeof adminDrawEntrySchema>;
export const adminDrawEntryListSchema = z.array(adminDrawEntrySchema);
