import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/db-clock';
import type { KeyService } from '../../lib/keys';
import type { EventStreamHub, StreamSlot } from '../../lib/event-stream-hub';
import type { DropStatus } from '../../../common/contracts/drops';
import { passRequired } from '../../../common/domain/drop';
import { createAdmissionOutlook } from './admission-outlook';
import { createAdmissionTicker } from './admission-ticker';
import { createAdminView } from './admin-view';
import { createDropContext } from './drop-context';
import { createDropPasses } from './drop-passes';
import type { DropBotCheck, DropCatalog, DropInventory, DropSettings, EngagedSessions } from './drops.ports';
import { createRoomState } from './room-state';
import { countToldSoldOut, findDropRows } from './drops.repository';
import { createRoomStreams } from './room-streams';
import type { StatusStreamMeta } from './status-push';

export type { DropSettings } from './drops.ports';
export { sseEvent } from './room-streams';

/**
 * The fair waiting room (ADR 010), assembled from its parts, one job each:
 * - room-state.ts: the places (join, rejoin) and every status, from the room's last read in memory;
 * - admission-ticker.ts: `tick()`, a few times a second on every instance — paces admissions (one
 *   conditional UPDATE per live drop), stamps the sell-out, reads each live room once and pushes it;
 * - drop-passes.ts: the admission pass (issue, and the check a cart add or payment needs);
 * - room-streams.ts: the waiting room's event streams, a channel of the instance's one event-stream hub;
 * - admin-view.ts: the owner's list and controls.
 * Everything that decides lives in PostgreSQL (the queue order, how many are let in, who is sold out), so
 * any number of instances serve one drop, and every decision reads one clock (`deps.clock`). What drops
 * needs of other modules comes through the ports of drops.ports.ts, wired in server/services.ts.
 */
export function createDropsService(deps: {
  db: Db;
  catalog: DropCatalog;
  inventory: DropInventory;
  botCheck: DropBotCheck;
  /** The instance's one event-stream hub (server/lib/event-stream-hub.ts), shared with live stock. */
  streamHub: EventStreamHub<unknown>;
  /** The shop's key service (server/lib/keys.ts): passes and address keys are HMACs under keys derived from it. */
  keys: KeyService;
  settings: DropSettings;
  /** https shop (PUBLIC_URL https://…): the pass cookie carries the `__Host-` prefix, like the session's. */
  secureCookies?: boolean;
  log: FastifyBaseLogger;
  /** The clock of every drop-day decision (server/lib/db-clock.ts, ADR 010 "One clock"). */
  clock: Clock;
  /** Of these sessions, those that hold or bought the product (checkout's answer): they are no longer promised a piece. */
  engagedSessions?: EngagedSessions;
}) {
  const ctx = createDropContext({ db: deps.db, clock: deps.clock, settings: deps.settings, catalog: deps.catalog });
  const outlook = createAdmissionOutlook({ overbooking: deps.settings.overbooking ?? 0.2, passMs: deps.settings.passMs });
  const room = createRoomState(ctx, { inventory: deps.inventory, botCheck: deps.botCheck, outlook, keys: deps.keys });
  const streams = createRoomStreams({ hub: deps.streamHub, room, outlook });
  const ticker = createAdmissionTicker(ctx, { inventory: deps.inventory, room, streams, outlook, engagedSessions: deps.engagedSessions, log: deps.log });
  const passes = createDropPasses(ctx, { keys: deps.keys, secureCookies: deps.secureCookies });
  const admin = createAdminView(ctx, { inventory: deps.inventory, room });

  return {
    status: room.status,
    join: room.join,
    rejoin: room.rejoin,
    ticketLeft: room.ticketLeft,
    tick: ticker.tick,
    issuePass: passes.issuePass,
    assertAdmitted: passes.assertAdmitted,
    passCookieName: passes.passCookieName,
    adminList: admin.adminList,
    adminUpdate: admin.adminUpdate,

    /**
     * The drop is live and every piece left is in a checkout (0 free, some held, not finally sold out): a cart
     * add or a hold refused for stock is told to stay, not "sold out" (server/flows/assert-may-buy.ts).
     */
    async allPiecesInCheckouts(productId: string): Promise<boolean> {
      const product = await deps.catalog.getProduct(productId);
      const dropClock = product ? ctx.clockOf(product) : null;
      if (!dropClock || !passRequired(dropClock, ctx.clock.now(), false)) return false;
      const [drop] = await findDropRows(deps.db, [productId]);
      if (drop?.soldOutAt) return false;
      const edition = await deps.inventory.editionRoom(productId);
      return (edition?.stock ?? 0) === 0 && (edition?.held ?? 0) > 0;
    },

    /**
     * Whether a piece returned inside the drop window goes to the Notify-me list: only when the drop sold out
     * with nobody in line. Anyone who was told "sold out" gets it first: the tick re-opens the drop for them.
     */
    async soldOutWithNobodyInLine(productId: string): Promise<boolean> {
      const [drop] = await findDropRows(deps.db, [productId]);
      return Boolean(drop?.soldOutAt) && (await countToldSoldOut(deps.db, productId)) === 0;
    },

    /**
     * The waiting room's event streams: `streams.reserve(req, res, ip)` before the route awaits anything
     * (a slot, or the 503/429 to answer), then `startStream` with the first status.
     */
    streams,
    startStream(slot: StreamSlot<StatusStreamMeta>, productId: string, sessionId: string | null, first: DropStatus, headers?: Record<string, string>): boolean {
      return streams.start(slot, productId, sessionId, first, headers);
    },
    /** The waiting room's streams (slots) in use on this instance. */
    get streamCount() {
      return streams.size;
    },
    /** Ranking reads of the queue this instance has made (status reads make none). */
    get roomReads() {
      return room.snapshots.reads;
    },
    /** App shutdown: every open stream of the hub is ended, so closing the server does not wait for them. */
    closeStreams(): void {
      deps.streamHub.closeAll();
    },
  };
}

export type DropsService = ReturnType<typeof createDropsService>;
