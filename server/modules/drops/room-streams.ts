import type { Product } from '../../../common/contracts/catalog';
import type { DropStatus } from '../../../common/contracts/drops';
import { dropMessages, dropPhase, type DropClock } from '../../../common/domain/drop';
import { PER_ADDRESS_MESSAGE, type EventStreamHub, type StreamSlot } from '../../lib/event-stream-hub';
import type { AdmissionOutlook } from './admission-outlook';
import type { RoomSnapshot } from './room-snapshot';
import type { RoomState } from './room-state';
import { createStatusPusher, type StatusStreamMeta } from './status-push';

export const sseEvent = (status: DropStatus) => `event: status\ndata: ${JSON.stringify(status)}\n\n`;

/**
 * The waiting room's event streams (GET /api/drops/:productId/events): a channel of the instance's one
 * event-stream hub (server/lib/event-stream-hub.ts), whose caps count live stock's streams too. Each
 * tick's read of a drop is pushed to its streams by ./status-push.ts.
 */
export function createRoomStreams(deps: { hub: EventStreamHub<unknown>; room: RoomState; outlook: AdmissionOutlook }) {
  const { room, outlook } = deps;
  const channel = deps.hub.channel<StatusStreamMeta>('drop', {
    messages: { full: dropMessages.tooManyStreams, perAddress: PER_ADDRESS_MESSAGE },
    retryAfterSeconds: { full: 5, perAddress: 30 },
  });
  const pusher = createStatusPusher();

  return {
    /** Takes a slot before the route awaits anything (a slot, or the 503/429 to answer). */
    reserve: channel.reserve,
    /** Someone on this instance follows this drop. */
    has: (productId: string) => channel.has(productId),
    /** Starts a reserved stream with its first status; false when the client already left. */
    start(slot: StreamSlot<StatusStreamMeta>, productId: string, sessionId: string | null, first: DropStatus, headers?: Record<string, string>): boolean {
      return slot.start(productId, pusher.meta(sessionId), sseEvent(first), headers) !== null;
    },
    /**
     * Sends each stream of a drop its session's status from this tick's read (./status-push.ts): the drop-wide
     * part serialised once, per stream only its ticket; position-only changes paced per stream (within 1 s),
     * changes of state at once, unchanged frames not written.
     */
    push(product: Product, clock: DropClock, snapshot: RoomSnapshot, stock: number, now: number): void {
      const phase = dropPhase(clock, now, snapshot.drop.soldOutAt !== null);
      const roomNow = outlook.roomAt(product.id, now);
      const visible = phase === 'open';
      pusher.push(product.id, channel.streamsOf(product.id), room.dropWideOf(product, clock, snapshot, stock, phase), {
        of: (sessionId) => snapshot.tickets.get(sessionId),
        state: (t) => `${t.id}|${t.status}|${t.raffle}|${t.admittedAt?.getTime() ?? ''}|${visible && t.status === 'waiting'}`,
        render: (t) => room.ticketOf(t, phase, snapshot.drop, stock, now, roomNow),
      });
    },
    /** The waiting room's streams (slots) in use on this instance. */
    get size(): number {
      return channel.size;
    },
  };
}

export type RoomStreams = ReturnType<typeof createRoomStreams>;
