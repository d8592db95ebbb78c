import crypto from 'node:crypto';
import type { Product } from '../../../common/contracts/catalog';
import type { DropFirstSoldOut, DropSizeLeft, DropStatus, DropTicket, TicketStatus } from '../../../common/contracts/drops';
import { dropMessages, dropPhase, estimateWaitSeconds, roomOpensAtMs, type DropClock } from '../../../common/domain/drop';
import { DEFAULT_IPV6_PREFIX, networkKey } from '../../lib/network-address';
import { conflict, HttpError, notFound } from '../../lib/http-error';
import type { KeyService } from '../../lib/keys';
import type { AdmissionOutlook } from './admission-outlook';
import { iso, type DropContext } from './drop-context';
import {
  countAddressPlaces,
  findDropRows,
  findTicket,
  insertTicket,
  lockAddress,
  readRoom,
  requeueTicket,
  type DropRow,
  type PolledTicket,
  type RoomRead,
} from './drops.repository';
import type { DropBotCheck, DropInventory, DropSizeStock } from './drops.ports';
import { createRoomSnapshots, type RoomSnapshot } from './room-snapshot';

/** A status read older than this is read again (the ticker refreshes live drops every DROP_TICK_MS). */
const SNAPSHOT_MAX_AGE_MS = 1000;

/** What a join or rejoin brings from the request. */
export interface JoinRequest {
  sessionId: string | null;
  ensureSession: () => Promise<string>;
  ip: string;
  altcha: string;
}

/**
 * The waiting room's state (ADR 010): the places (join, rejoin, leave as this instance saw it) and every
 * status, answered from the room's last ranking read in memory (room-snapshot.ts), so the cost of a read
 * does not grow with the queue. The ticker refreshes the read of each live drop once per tick.
 */
export function createRoomState(
  ctx: DropContext,
  deps: { inventory: DropInventory; botCheck: DropBotCheck; outlook: AdmissionOutlook; keys: KeyService },
) {
  const { db, clock, settings } = ctx;
  const { inventory, botCheck, outlook } = deps;
  const addressSecret = deps.keys.derive('fifty:drop-address');
  /**
   * A keyed hash of the network (server/lib/network-address.ts: IPv6 by IPV6_PREFIX, default /48, as the rate
   * limits count it), so every /64 of one subscriber's /48 is one address per raffle round: no address is stored.
   */
  const addressKey = (ip: string) =>
    crypto
      .createHmac('sha256', addressSecret)
      .update(networkKey(ip, settings.ipv6Prefix ?? DEFAULT_IPV6_PREFIX))
      .digest('base64url')
      .slice(0, 22);

  const stockLeft = async (productId: string) => (await inventory.stockOf(productId))?.stock ?? 0;

  /** The product's sizes when it is split into sizes (ADR 015); [] for one pool. */
  const sizesOf = async (productId: string): Promise<DropSizeStock[]> => {
    if (!inventory.sizeStock) return [];
    const run = (await inventory.sizeStock([productId])).get(productId) ?? [];
    return run.some((s) => s.size !== null) ? run : [];
  };

  const snapshots = createRoomSnapshots({
    read: async (productId) => {
      await ctx.ensureRows([productId]);
      return readRoom(db, productId);
    },
    stockOf: stockLeft,
    sizesOf,
    maxAgeMs: SNAPSHOT_MAX_AGE_MS,
  });

  /** What is left of each size, in run order (the pieces of the old one run, kept on no size, are not one). */
  const sizesLeft = (sizes: readonly DropSizeStock[]): DropSizeLeft[] =>
    sizes.filter((s) => s.size !== null).map((s) => ({ size: s.size!, colour: s.colour, left: s.left }));

  /** The size whose last piece sold first, timed from the release ('M first, in 41 s'); null when none sold out. */
  function firstSoldOutOf(sizes: readonly DropSizeStock[], releaseAtMs: number): DropFirstSoldOut | null {
    let first: DropSizeStock | null = null;
    for (const s of sizes)
      if (s.size !== null && s.soldOutAt && (!first || s.soldOutAt < first.soldOutAt!)) first = s;
    if (!first) return null;
    const seconds = Math.round((first.soldOutAt!.getTime() - releaseAtMs) / 1000);
    return { size: first.size!, seconds: seconds >= 0 ? seconds : null };
  }

  function ticketOf(
    t: PolledTicket,
    phase: DropStatus['phase'],
    drop: DropRow,
    stock: number,
    now = clock.now(),
    room = outlook.roomAt(drop.productId, now),
  ): DropTicket {
    const position = t.status === 'waiting' && phase === 'open' ? t.position : null;
    return {
      id: t.id,
      status: t.status as TicketStatus,
      raffle: t.raffle,
      position,
      estimatedWaitSeconds:
        position === null ? null : estimateWaitSeconds(position, drop.admitPerMinute, !drop.paused && stock > 0, room),
      passExpiresAt: t.status === 'admitted' && t.admittedAt ? iso(t.admittedAt.getTime() + settings.passMs) : null,
    };
  }

  /** The status without its ticket, keys in the contract's order (the ticket is last: ./status-push.ts relies on it). */
  function dropWideOf(
    product: Product,
    dropClock: DropClock,
    poll: RoomRead & { sizes?: DropSizeStock[] },
    stock: number,
    phase: DropStatus['phase'],
  ): Omit<DropStatus, 'ticket'> {
    const sizes = poll.sizes ?? [];
    return {
      productId: product.id,
      releaseAt: iso(dropClock.releaseAtMs),
      roomOpensAt: iso(roomOpensAtMs(dropClock)),
      phase,
      paused: poll.drop.paused,
      message: poll.drop.message,
      queueLength: poll.waiting,
      left: stock,
      ...(phase === 'open' ? { held: outlook.held(product.id) } : {}),
      // Final only once stamped (nothing can come back); 0 left in a live drop is "all pieces are in checkouts".
      ...(phase === 'sold_out' ? { soldOut: 'final' as const } : phase === 'open' && stock === 0 ? { soldOut: 'in_checkouts' as const } : {}),
      editionSize: product.editionSize,
      ...(sizes.length > 0 ? { sizes: sizesLeft(sizes) } : {}),
      ...(sizes.length > 0 && phase === 'sold_out' ? { firstSoldOut: firstSoldOutOf(sizes, dropClock.releaseAtMs) } : {}),
    };
  }

  /**
   * This session's place: from the snapshot, else (joined since it was read, or never) one indexed
   * point read of its own ticket; a place newer than the snapshot is at the end of the queue.
   */
  async function ticketIn(snapshot: RoomSnapshot, productId: string, sessionId: string | null): Promise<PolledTicket | null> {
    if (!sessionId) return null;
    const known = snapshot.tickets.get(sessionId);
    if (known) return known;
    const row = await findTicket(db, productId, sessionId);
    if (!row) return null;
    return {
      id: row.id,
      sessionId,
      status: row.status,
      raffle: row.raffle,
      admittedAt: row.admittedAt,
      position: row.status === 'waiting' ? snapshot.waiting + 1 : null,
    };
  }

  /** The status of a drop for one session (null: no ticket), from the room's last read. */
  async function status(productId: string, sessionId: string | null): Promise<DropStatus> {
    const { product, clock: dropClock } = await ctx.dropProduct(productId);
    const snapshot = await snapshots.get(productId, dropPhase(dropClock, clock.now(), false));
    if (!snapshot) throw notFound(dropMessages.noDrop);
    const ticket = await ticketIn(snapshot, productId, sessionId);
    const now = clock.now();
    const phase = dropPhase(dropClock, now, snapshot.drop.soldOutAt !== null);
    return { ...dropWideOf(product, dropClock, snapshot, snapshot.stock, phase), ticket: ticket ? ticketOf(ticket, phase, snapshot.drop, snapshot.stock, now) : null };
  }

  /** 409 unless the room is open and the drop neither sold out nor over. */
  function assertRoomOpen(product: Product, dropClock: DropClock, soldOut: boolean): void {
    const phase = dropPhase(dropClock, clock.now(), soldOut);
    if (phase === 'not_open') throw conflict(dropMessages.roomNotOpen(product.name, iso(roomOpensAtMs(dropClock))));
    if (phase === 'sold_out') throw conflict(dropMessages.soldOut(product.name));
    if (phase === 'ended') throw conflict(dropMessages.over(product.name));
  }

  /**
   * Takes a place in the waiting room (POST /api/drops/:productId/queue). The room must be open and the
   * drop not over (409); the proof of work is checked and spent next (400); a session that already has
   * a place gets it back (created: false); an address with DROP_PLACES_PER_ADDRESS places gets 429.
   */
  async function join(productId: string, req: JoinRequest): Promise<{ status: DropStatus; created: boolean }> {
    const { product, clock: dropClock } = await ctx.dropProduct(productId);
    await ctx.ensureRows([productId]);
    const [drop] = await findDropRows(db, [productId]);
    assertRoomOpen(product, dropClock, Boolean(drop?.soldOutAt));
    await botCheck.verify(req.altcha);

    if (req.sessionId && (await findTicket(db, productId, req.sessionId)))
      return { status: await status(productId, req.sessionId), created: false };
    const key = addressKey(req.ip);
    const tooMany = () => new HttpError(429, dropMessages.tooManyPlaces, { 'retry-after': '60', 'cache-control': 'no-store' });
    // Refused before a session is made for it.
    if ((await countAddressPlaces(db, productId, key)) >= settings.placesPerAddress) throw tooMany();
    const sessionId = req.sessionId ?? (await req.ensureSession());
    // A random draw from the operating system's CSPRNG: 48 bits, as a double in [0, 1), plus the number of
    // places this network address already holds. The raffle is drawn in rounds: every address's first place
    // in a random order, then every address's second place, and so on (ADR 010). 50 people behind one NAT
    // all get places; a bot farm's 50 sessions on one address count as one ticket per round.
    const draw = crypto.randomInt(0, 2 ** 48 - 1) / 2 ** 48;
    const created = await db.transaction(async (tx) => {
      await lockAddress(tx, productId, key);
      const held = await countAddressPlaces(tx, productId, key);
      if (held >= settings.placesPerAddress) throw tooMany();
      return insertTicket(tx, { productId, sessionId, addressKey: key, lotteryKey: held + draw, releaseAt: new Date(dropClock.releaseAtMs), now: clock.sqlNow() });
    });
    if (created && !created.raffle)
      snapshots.joined(productId, { id: created.id, sessionId, status: created.status, raffle: false, admittedAt: null, position: null });
    return { status: await status(productId, sessionId), created: created !== null };
  }

  /**
   * "Rejoin the line" (POST /api/drops/:productId/rejoin): a session whose pass lapsed unused (or that left
   * the line) gets a new place at the back, with a fresh proof of work (400), while the drop is live (409
   * as for join). Without a place it is a join; a waiting place or a live pass is answered as it is.
   */
  async function rejoin(productId: string, req: JoinRequest): Promise<{ status: DropStatus; created: boolean }> {
    const ticket = req.sessionId ? await findTicket(db, productId, req.sessionId) : null;
    if (!req.sessionId || !ticket) return join(productId, req);
    const { product, clock: dropClock } = await ctx.dropProduct(productId);
    const [drop] = await findDropRows(db, [productId]);
    if (ticket.status === 'sold_out') throw conflict(dropMessages.soldOut(product.name));
    assertRoomOpen(product, dropClock, Boolean(drop?.soldOutAt));
    await botCheck.verify(req.altcha);
    const moved = await requeueTicket(db, productId, req.sessionId, {
      now: clock.sqlNow(),
      passMs: settings.passMs,
      releaseAt: new Date(dropClock.releaseAtMs),
    });
    // The snapshot still has the old place: read the room again before answering.
    if (moved) snapshots.invalidate(productId);
    return { status: await status(productId, req.sessionId), created: moved !== null };
  }

  return {
    status,
    join,
    rejoin,
    ticketOf,
    dropWideOf,
    stockLeft,
    /** The in-memory reads: the ticker refreshes them, status reads and streams use them. */
    snapshots,
    /** A session left the line on this instance (turn-mail.ts `leave`): its next status read says so. */
    ticketLeft(productId: string, sessionId: string): void {
      snapshots.left(productId, sessionId);
    },
  };
}

export type RoomState = ReturnType<typeof createRoomState>;
