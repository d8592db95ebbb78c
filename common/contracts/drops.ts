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
 * are drawn at the release); open: the drop is live, shoppers are let in; sold_out: every piece is sold or
 * held in a checkout, and nobody else will be let in; ended: the drop window is over, the product is on
 * sale like any other (no pass needed).
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
  editionSize: number;
  ticket: DropTicket | null;
}

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

export interface AdminDrop {
  productId: string;
  name: string;
  releaseAt: string;
  phase: DropPhase;
  admitPerMinute: number;
  paused: boolean;
  /** Shoppers waiting now. */
  queueLength: number;
  /** Shoppers let in so far. */
  admitted: number;
  /** Let in over the last 10 seconds, per second. */
  admittedPerSecond: number;
  held: number;
  sold: number;
  left: number;
  editionSize: number;
  /** Seconds from the release to the last piece sold; null until it sells out. */
  sellOutSeconds: number | null;
}

export const adminDropUpdate = z
  .object({
    admitPerMinute: z
      .number({ message: 'Admission rate must be a number' })
      .int({ message: 'Admission rate must be a whole number' })
      .min(1, { message: 'Admission rate must be at least 1 per minute' })
      .max(100_000, { message: 'Admission rate must be at most 100000 per minute' })
      .optional(),
    paused: z.boolean({ message: 'Paused must be true or false' }).optional(),
  })
  .strict();
export type AdminDropUpdate = z.infer<typeof adminDropUpdate>;
  /** Shown live to everyone waiting; null: none. */
  message?: string | null;
  /** Let in over the last minute: 0 while shoppers wait means admission is stuck. */
  admittedLastMinute?: number;
  /** When the next place is due at the current pace (ISO 8601); null while paused, empty or sold out. */
  nextAdmissionAt?: string | null;
    /** Shown live to everyone waiting; empty or null clears it. */
    message: z
      .union([z.null(), safeString().trim().max(200, { message: 'Message must be at most 200 characters' })], {
        message: 'Message must be text',
      })
      .transform((v) => (v ? v : null))
      .optional(),
