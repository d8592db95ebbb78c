import { z } from 'zod';
import { safeString } from './safe-string';

// The fair waiting room of a scheduled drop (docs/decisions/010-fair-waiting-room.md).
//
// A product with a release time has a drop. Its waiting room opens DROP_RAFFLE_MINUTES before the release:
// everyone who joins before the release is in the raffle and is let in in a random order once the drop
// opens; later arrivals queue first come, first served behind them. Admission is paced (the owner's rate,
// shoppers per minute). An admitted shopper gets a signed admission pass (an httpOnly cookie set by
// POST /api/drops/:productId/pass); while the drop window lasts, cart adds and payment intents for the
// product need it. The window ends when the edition sells out or DROP_WINDOW_MINUTES after the release.
//
// Routes (server/modules/drops/drops.routes.ts):
//   GET  /api/drops/:productId            → DropStatus for this session (no ticket: ticket = null)
//   POST /api/drops/:productId/queue      body JoinQueueBody → 201 DropStatus (joining twice returns the same ticket, 200)
//        400 bad or reused proof of work; 409 the room is not open yet / the drop is over; 429 too many places
//        from one network address (Retry-After)
//   GET  /api/drops/:productId/events     text/event-stream; `event: status` + `data: <DropStatus JSON>`
//        at once, then on every change (position updates reach the shopper within 1 s); works behind
//        several app instances (the state is in PostgreSQL)
//   POST /api/drops/:productId/pass       → 200 AdmissionPass and the pass cookie, when this session was admitted;
//        403 { message } when it was not (yet)
//   GET  /api/admin/drops                 → AdminDrop[] (admin only)
//   PATCH /api/admin/drops/:productId     body AdminDropUpdate → AdminDrop (admin only)

/**
 * not_open: the room opens at roomOpensAt; raffle: the room is open, the release is still to come (places
 * are drawn at the release); open: the drop is live, shoppers are let in (while every piece left is in a
 * checkout nobody is, and the line stays: `soldOut: 'in_checkouts'`); sold_out: final, every piece is sold
 * and none is held or paid for in a checkout, so none can come back; ended: the drop window is over, the
 * product is on sale like any other (no pass needed).
 */
export const DROP_PHASES = ['not_open', 'raffle', 'open', 'sold_out', 'ended'] as const;
export type DropPhase = (typeof DROP_PHASES)[number];

export const TICKET_STATUSES = ['waiting', 'admitted', 'sold_out', 'left'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export interface DropTicket {
  id: string;
  status: TicketStatus;
  /** Joined before the release: the place is drawn at random when the drop opens. */
  raffle: boolean;
  /** 1 = next to be let in; null while the raffle is not drawn yet, or once admitted. */
  position: number | null;
  /** Seconds until this shopper is likely let in at the current pace; null when unknown or admitted. */
  estimatedWaitSeconds: number | null;
  /** While admitted: when the admission pass stops working (ISO 8601). */
  passExpiresAt: string | null;
}

/** One size of a drop split into sizes (ADR 015): what a shopper can still pick. */
export interface DropSizeLeft {
  size: string;
  /** Set only where colours are stocked apart. */
  colour: string | null;
  /** Pieces of this size not yet sold or held. */
  left: number;
}

/** The first size of a sold-out drop to sell out, timed from the release ('M first, in 41 s'). */
export interface DropFirstSoldOut {
  size: string;
  /** Seconds from the release to the sale of its last piece; null when not known. */
  seconds: number | null;
}

export interface DropStatus {
  productId: string;
  /** ISO 8601 (UTC). */
  releaseAt: string;
  /** When the waiting room opens (release − raffle window). */
  roomOpensAt: string;
  phase: DropPhase;
  /** The owner paused admissions: positions hold still. */
  paused: boolean;
  /** The owner's word to everyone waiting, shown live in the room; null or absent: none. */
  message?: string | null;
  /** Shoppers still waiting. */
  queueLength: number;
  /** Pieces not yet sold or held. */
  left: number;
  /**
   * Pieces held in checkouts while the drop is live (absent: not known). `left` 0 with `held` above 0 is
   * not sold out: a hold that lapses puts its piece back for the line.
   */
  held?: number;
  /**
   * Nothing free to let anyone in for: 'final' (phase sold_out: every piece sold, none can come back; the
   * storefront says "SOLD OUT"), or 'in_checkouts' (the drop is live with 0 left, the rest in checkouts: a
   * lapsed hold or a refunded payment puts a piece back for the line, which is told to stay). Absent: pieces are left.
   */
  soldOut?: 'final' | 'in_checkouts';
  editionSize: number;
  /**
   * A drop split into sizes (ADR 015): what is left of each size, in run order, live like `left` (an admitted
   * shopper sees which sizes are left). Absent: one pool (not split).
   */
  sizes?: DropSizeLeft[];
  /** Sold out and split into sizes: the size that sold out first (common/domain/size-run.ts sell-out story). */
  firstSoldOut?: DropFirstSoldOut | null;
  ticket: DropTicket | null;
}

// Response contracts (the serializer encodes each answer by them; server/route-contracts.test.ts).
export const dropTicketSchema = z.object({
  id: z.string(),
  status: z.enum(TICKET_STATUSES),
  raffle: z.boolean(),
  position: z.number().int().nullable(),
  estimatedWaitSeconds: z.number().nullable(),
  passExpiresAt: z.string().nullable(),
});
export const dropStatusSchema = z.object({
  productId: z.string(),
  releaseAt: z.string(),
  roomOpensAt: z.string(),
  phase: z.enum(DROP_PHASES),
  paused: z.boolean(),
  message: z.string().nullable().optional(),
  queueLength: z.number().int(),
  left: z.number().int(),
  held: z.number().int().optional(),
  soldOut: z.enum(['final', 'in_checkouts']).optional(),
  editionSize: z.number().int(),
  sizes: z.array(z.object({ size: z.string(), colour: z.string().nullable(), left: z.number().int() })).optional(),
  firstSoldOut: z.object({ size: z.string(), seconds: z.number().nullable() }).nullable().optional(),
  ticket: dropTicketSchema.nullable(),
});

export const dropProductParams = z.object({ productId: safeString().uuid({ message: 'Invalid product id' }) });

export const joinQueueBody = z.object({
  /** The solved proof-of-work challenge of GET /api/pow-challenge (base64 JSON { challenge, solution }). */
  altcha: safeString().max(10_000, { message: 'Invalid proof of work' }),
});
export type JoinQueueBody = z.infer<typeof joinQueueBody>;

export interface AdmissionPass {
  productId: string;
  ticketId: string;
  /** ISO 8601. */
  expiresAt: string;
}

export const admissionPassSchema = z.object({ productId: z.string(), ticketId: z.string(), expiresAt: z.string() });

export interface AdminDrop {
  productId: string;
  name: string;
  releaseAt: string;
  phase: DropPhase;
  admitPerMinute: number;
  paused: boolean;
  /** Shown live to everyone waiting; null: none. */
  message?: string | null;
  /** Shoppers waiting now. */
  queueLength: number;
  /** Shoppers let in so far. */
  admitted: number;
  /** Let in over the last 10 seconds, per second. */
  admittedPerSecond: number;
  /** Let in over the last minute: 0 while shoppers wait means admission is stuck. */
  admittedLastMinute?: number;
  /** When the next place is due at the current pace (ISO 8601); null while paused, empty or sold out. */
  nextAdmissionAt?: string | null;
  held: number;
  sold: number;
  left: number;
  editionSize: number;
  /** Seconds from the release to the last piece sold; null until it sells out. */
  sellOutSeconds: number | null;
  /**
   * A drop split into sizes (ADR 015): held, sold and left per size, in run order (size null: pieces sold
   * before the split, kept on no size). Absent: one pool.
   */
  sizes?: AdminDropSize[];
  /** Split into sizes: the size that sold out first, timed from the release; null while none has. */
  firstSoldOut?: DropFirstSoldOut | null;
}

/** One size of a split drop as the owner follows it (ADR 015). */
export interface AdminDropSize {
  /** null: the pieces held or sold before the edition was split ("sold before sizes"). */
  size: string | null;
  colour: string | null;
  held: number;
  sold: number;
  left: number;
}

export const adminDropSchema = z.object({
  productId: z.string(),
  name: z.string(),
  releaseAt: z.string(),
  phase: z.enum(DROP_PHASES),
  admitPerMinute: z.number().int(),
  paused: z.boolean(),
  message: z.string().nullable().optional(),
  queueLength: z.number().int(),
  admitted: z.number().int(),
  admittedPerSecond: z.number(),
  admittedLastMinute: z.number().int().optional(),
  nextAdmissionAt: z.string().nullable().optional(),
  held: z.number().int(),
  sold: z.number().int(),
  left: z.number().int(),
  editionSize: z.number().int(),
  sellOutSeconds: z.number().nullable(),
  sizes: z
    .array(
      z.object({
        size: z.string().nullable(),
        colour: z.string().nullable(),
        held: z.number().int(),
        sold: z.number().int(),
        left: z.number().int(),
      }),
    )
    .optional(),
  firstSoldOut: z.object({ size: z.string(), seconds: z.number().nullable() }).nullable().optional(),
});
export const adminDropListSchema = z.array(adminDropSchema);

// The schemas and the interfaces above say the same thing: a field added to one and not the other fails tsc.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const contractsAgree: [
  Same<z.infer<typeof dropStatusSchema>, DropStatus>,
  Same<z.infer<typeof admissionPassSchema>, AdmissionPass>,
  Same<z.infer<typeof adminDropSchema>, AdminDrop>,
] = [true, true, true];
void contractsAgree;

export const adminDropUpdate = z
  .object({
    admitPerMinute: z
      .number({ message: 'Admission rate must be a number' })
      .int({ message: 'Admission rate must be a whole number' })
      .min(1, { message: 'Admission rate must be at least 1 per minute' })
      .max(100_000, { message: 'Admission rate must be at most 100000 per minute' })
      .optional(),
    paused: z.boolean({ message: 'Paused must be true or false' }).optional(),
    /** Shown live to everyone waiting; empty or null clears it. */
    message: z
      .union([z.null(), safeString().trim().max(200, { message: 'Message must be at most 200 characters' })], {
        message: 'Message must be text',
      })
      .transform((v) => (v ? v : null))
      .optional(),
  })
  .strict();
export type AdminDropUpdate = z.infer<typeof adminDropUpdate>;
