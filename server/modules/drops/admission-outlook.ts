import { admissionRoom } from '../../../common/domain/drop';

/**
 * What the last admission tick of each live drop saw (ADR 010, "admission that matches what can be
 * bought"): the capacity (free pieces × (1 + overbooking)), when each live promise's pass lapses, and the
 * pieces held in checkouts. The ticker writes it (admission-ticker.ts); the room's estimates and its
 * "all pieces are in checkouts" read it (room-state.ts). Per instance, in memory.
 */
export function createAdmissionOutlook(opts: { overbooking: number; passMs: number }) {
  const outlooks = new Map<string, { capacity: number; stock: number; lapseAt: number[] }>();
  const heldNow = new Map<string, number>();

  return {
    /** Places that can still be promised now, and in how long each live promise lapses (the estimate's input). */
    roomAt(productId: string, now: number): { room: number; lapsesInMs: number[] } | undefined {
      const o = outlooks.get(productId);
      if (!o) return undefined;
      const lapsesInMs = o.lapseAt.map((at) => at - now).filter((ms) => ms > 0);
      return { room: Math.max(0, o.capacity - lapsesInMs.length), lapsesInMs };
    },

    /** Pieces of a live drop its last tick saw held in checkouts (DropStatus.held). */
    held(productId: string): number {
      return heldNow.get(productId) ?? 0;
    },

    setHeld(productId: string, held: number): void {
      heldNow.set(productId, held);
    },

    /**
     * An admission tick's view: the live promises it found (less the engaged sessions) and the places it
     * let in, whose passes lapse a full pass time from now.
     */
    admitted(
      productId: string,
      seen: { stock: number; now: number; live: Array<{ sessionId: string; admittedAtMs: number }>; engaged: ReadonlySet<string>; letIn: number },
    ): void {
      const room = admissionRoom({
        freePieces: seen.stock,
        overbooking: opts.overbooking,
        passMs: opts.passMs,
        now: seen.now,
        live: seen.live,
        engaged: seen.engaged,
      });
      const fresh = Array.from({ length: seen.letIn }, () => seen.now + opts.passMs);
      outlooks.set(productId, {
        capacity: room.room + room.lapsesInMs.length,
        stock: seen.stock,
        lapseAt: [...room.lapsesInMs.map((ms) => seen.now + ms), ...fresh].sort((a, b) => a - b),
      });
    },

    /** Nothing is being let in (paused, window over, nothing free): no outlook to estimate from. */
    forget(productId: string): void {
      outlooks.delete(productId);
    },
  };
}

export type AdmissionOutlook = ReturnType<typeof createAdmissionOutlook>;
