import type { FastifyBaseLogger } from 'fastify';
import type { Product } from '../../../common/contracts/catalog';
import { dropPhase, roomOpensAtMs, type DropClock } from '../../../common/domain/drop';
import type { AdmissionOutlook } from './admission-outlook';
import type { DropContext } from './drop-context';
import { advanceAdmissions, findDropRows, listLiveAdmissions, markSoldOut, reopenSoldOut } from './drops.repository';
import type { DropInventory, EngagedSessions } from './drops.ports';
import type { RoomState } from './room-state';
import type { RoomStreams } from './room-streams';

/** After the window, a drop is still looked at this long (the end-of-window sell-out check). */
const WINDOW_GRACE_MS = 60_000;

/**
 * The admission ticker (ADR 010: pacing at any rate, admission that matches what can be bought). Every
 * instance runs `tick()` a few times a second (server/services.ts, DROP_TICK_MS): per live drop, one
 * conditional UPDATE lets in whoever the pace and the room allow, the sell-out is stamped when nothing is
 * left, and one ranking read of the queue feeds the status reads and the event streams of this instance.
 * Every decision reads the context's clock (`now()` here, `sqlNow()` in the statements).
 */
export function createAdmissionTicker(
  ctx: DropContext,
  deps: {
    inventory: DropInventory;
    room: RoomState;
    streams: RoomStreams;
    outlook: AdmissionOutlook;
    engagedSessions?: EngagedSessions;
    log: FastifyBaseLogger;
  },
) {
  const { db, clock, settings } = ctx;
  const { inventory, room, streams, outlook, log } = deps;
  const overbooking = settings.overbooking ?? 0.2;

  /**
   * Lets in whoever the pace and the room allow, in one conditional UPDATE (advanceAdmissions), and keeps
   * what it saw for the estimates. The live promises are the admitted places whose pass has not lapsed,
   * less the sessions that already hold or bought the product (asked of checkout, which owns that).
   */
  async function admit(productId: string, dropClock: DropClock, stock: number): Promise<void> {
    const live = await listLiveAdmissions(db, productId, { now: clock.sqlNow(), passMs: settings.passMs });
    const engaged =
      live.length > 0 && deps.engagedSessions
        ? await deps.engagedSessions(productId, live.map((a) => a.sessionId))
        : new Set<string>();
    const letIn = await advanceAdmissions(db, productId, {
      releaseAt: new Date(dropClock.releaseAtMs),
      now: clock.sqlNow(),
      stock,
      overbooking,
      passMs: settings.passMs,
      engagedSessions: [...engaged],
    });
    outlook.admitted(productId, {
      stock,
      now: clock.now(),
      live: live.map((a) => ({ sessionId: a.sessionId, admittedAtMs: a.admittedAt.getTime() })),
      engaged,
      letIn,
    });
  }

  /** The drops to look at now: the room open or the window (and its grace) not over, or someone watching. */
  async function liveDrops(now: number): Promise<Array<{ product: Product; clock: DropClock }>> {
    const live: Array<{ product: Product; clock: DropClock }> = [];
    for (const product of await ctx.catalog.listProducts()) {
      const dropClock = ctx.clockOf(product);
      if (!dropClock) continue;
      const inWindow = now >= roomOpensAtMs(dropClock) && now < dropClock.releaseAtMs + dropClock.windowMs + WINDOW_GRACE_MS;
      // Pieces still in checkouts when the window closed: watched until they are sold (then the sell-out is
      // final and stamped) or come back (then it never is).
      const heldLate = now >= dropClock.releaseAtMs && outlook.held(product.id) > 0;
      if (inWindow || heldLate || streams.has(product.id)) live.push({ product, clock: dropClock });
    }
    return live;
  }

  async function tick(): Promise<void> {
    const now = clock.now();
    const live = await liveDrops(now);
    // Streams of a product that lost its release time (or was deleted) are told nothing more; they stay until closed.
    if (live.length === 0) return;
    await ctx.ensureRows(live.map((l) => l.product.id));
    const rows = new Map((await findDropRows(db, live.map((l) => l.product.id))).map((r) => [r.productId, r]));

    for (const { product, clock: dropClock } of live) {
      const drop = rows.get(product.id);
      if (!drop) continue;
      let stock = product.stock;
      const windowOver = now >= dropClock.releaseAtMs + dropClock.windowMs;
      // A piece back on the shelf after the stamp, inside the window: whoever was told "sold out" is in line again.
      let reopened = false;
      if (now >= dropClock.releaseAtMs && drop.soldOutAt !== null && !windowOver) {
        stock = (await inventory.editionRoom(product.id))?.stock ?? 0;
        if (stock > 0 && (await reopenSoldOut(db, product.id, clock.sqlNow()))) {
          reopened = true;
          log.info({ productId: product.id }, 'drop re-opened: a piece came back after the sell-out');
        }
      }
      if (now >= dropClock.releaseAtMs && (drop.soldOutAt === null || reopened)) {
        const edition = await inventory.editionRoom(product.id);
        stock = edition?.stock ?? 0;
        const held = edition?.held ?? 0;
        outlook.setHeld(product.id, held);
        if (stock === 0 && held === 0) {
          // "Sold out" is final only here: every piece sold, none in a checkout, so none can come back through a
          // lapsed hold or a refunded payment (docs/product.md §9, Drops). Everyone waiting is told at once.
          if (await markSoldOut(db, product.id, clock.sqlNow())) log.info({ productId: product.id }, 'drop sold out');
        } else if (!windowOver && stock > 0 && !drop.paused) {
          await admit(product.id, dropClock, stock);
        } else {
          // Paused, the window over, or every piece left in checkouts: the line stays, told "all pieces are in checkouts".
          outlook.forget(product.id);
        }
      } else if (now >= dropClock.releaseAtMs && streams.has(product.id)) {
        stock = await room.stockLeft(product.id);
      }
      // The one ranking read of this drop this tick: status reads and streams are answered from it.
      const snapshot = await room.snapshots.refresh(product.id, dropPhase(dropClock, clock.now(), false), stock);
      if (!snapshot || !streams.has(product.id)) continue;
      streams.push(product, dropClock, snapshot, stock, clock.now());
    }
    room.snapshots.evict(60_000);
  }

  return { tick };
}
