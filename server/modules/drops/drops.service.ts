import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { DEFAULT_IPV6_PREFIX, networkKey } from '../../lib/network-address';
import type { Product } from '../../../common/contracts/catalog';
import type { AdminDrop, AdminDropUpdate, AdmissionPass, DropStatus, DropTicket, TicketStatus } from '../../../common/contracts/drops';
import {
  admissionRoom,
  dropMessages,
  dropPhase,
  estimateWaitSeconds,
  passRequired,
  roomOpensAtMs,
  type DropClock,
} from '../../../common/domain/drop';
import { systemClock, type Clock } from '../../lib/db-clock';
import { conflict, forbidden, HttpError, notFound } from '../../plugins/http-error';
import { cookieName } from '../../plugins/session';
import type { BotCheckService } from '../bot-check/bot-check.service';
import type { CatalogService } from '../catalog/catalog.service';
import type { InventoryService } from '../inventory/inventory.service';
import { createEventStreamHub, PER_ADDRESS_MESSAGE, type StreamSlot } from '../../lib/event-stream-hub';
import { createPassSigner, PASS_COOKIE } from './admission-pass';
import { createRoomSnapshots, type RoomSnapshot } from './room-snapshot';
import { createStatusPusher, type StatusStreamMeta } from './status-push';
import {
  advanceAdmissions,
  countAddressPlaces,
  countQueues,
  ensureDropRows,
  findDropRows,
  findTicket,
  insertTicket,
  listLiveAdmissions,
  lockAddress,
  markSoldOut,
  readRoom,
  requeueTicket,
  updateDropSettings,
  type DropRow,
  type PolledTicket,
  type RoomRead,
} from './drops.repository';

export interface DropSettings {
  /** DROP_RAFFLE_MINUTES in ms. */
  raffleMs: number;
  /** DROP_WINDOW_MINUTES in ms. */
  windowMs: number;
  /** DROP_PLACES_PER_ADDRESS. */
  placesPerAddress: number;
  /** DROP_PASS_MINUTES in ms. */
  passMs: number;
  /** Open event streams this instance serves at most (beyond: 503). */
  maxStreams?: number;
  /** Open event streams one network address holds at most (beyond: 429; STREAMS_PER_ADDRESS). */
  streamsPerAddress?: number;
  /** IPv6 addresses count by this prefix (IPV6_PREFIX). */
  ipv6Prefix?: number;
  /** DROP_OVERBOOKING: live admissions may reach the free pieces × (1 + this) (ADR 010). */
  overbooking?: number;
}

/** What the waiting room keeps of each open GET /api/drops/:productId/events (./status-push.ts). */
type DropStreamMeta = StatusStreamMeta;

/** After the window, a drop is still looked at this long (the end-of-window sell-out check). */
const WINDOW_GRACE_MS = 60_000;
export const DEFAULT_MAX_STREAMS = 10_000;
export const DEFAULT_STREAMS_PER_ADDRESS = 50;
/** A status read older than this is read again (the ticker refreshes live drops every DROP_TICK_MS). */
const SNAPSHOT_MAX_AGE_MS = 1000;

const iso = (ms: number) => new Date(ms).toISOString();

export const sseEvent = (status: DropStatus) => `event: status\ndata: ${JSON.stringify(status)}\n\n`;

/**
 * The fair waiting room (ADR 010). Everything that decides (the queue order, how many are let in, who
 * is sold out) lives in PostgreSQL, so any number of instances serve one drop: each runs `tick()` a few
 * times a second (one conditional UPDATE per live drop paces admissions; one poll per live drop feeds
 * every event stream this instance holds for it).
 */
export function createDropsService(deps: {
  db: Db;
  catalog: CatalogService;
  inventory: InventoryService;
  botCheck: BotCheckService;
  /** The session secret: passes and address keys are HMACs under keys derived from it. */
  secret: string;
  settings: DropSettings;
  /** https shop (PUBLIC_URL https://…): the pass cookie carries the `__Host-` prefix, like the session's. */
  secureCookies?: boolean;
  log: FastifyBaseLogger;
  /** The database's clock: every drop-day decision reads it (server/lib/db-clock.ts, ADR 010 "One clock"). */
  clock?: Clock;
  /** Of these sessions, those that hold or bought the product (checkout's answer): they are no longer promised a piece. */
  engagedSessions?: (productId: string, sessionIds: readonly string[]) => Promise<ReadonlySet<string>>;
}) {
  const { db, catalog, inventory, botCheck, settings, log } = deps;
  const dbClock = deps.clock ?? systemClock;
  const overbooking = settings.overbooking ?? 0.2;
  /**
   * Per live drop, what its last admission tick saw: the capacity (free pieces × (1 + overbooking)) and
   * when each live promise's pass lapses. Estimates are computed from it (what really can be let in).
   */
  const outlooks = new Map<string, { capacity: number; stock: number; lapseAt: number[] }>();
  function roomAt(productId: string, now: number) {
    const o = outlooks.get(productId);
    if (!o) return undefined;
    const lapsesInMs = o.lapseAt.map((at) => at - now).filter((ms) => ms > 0);
    return { room: Math.max(0, o.capacity - lapsesInMs.length), lapsesInMs };
  }
  /** Per live drop, the pieces its last tick saw held in checkouts (DropStatus.held: "all pieces are in checkouts"). */
  const heldNow = new Map<string, number>();
  const maxStreams = settings.maxStreams ?? DEFAULT_MAX_STREAMS;
  const signer = createPassSigner(deps.secret);
  const passCookieName = cookieName(PASS_COOKIE, deps.secureCookies ?? false);
  const addressSecret = crypto.createHmac('sha256', deps.secret).update('fifty:drop-address').digest();
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

  const ensured = new Set<string>();
  async function ensureRows(productIds: readonly string[]): Promise<void> {
    const missing = productIds.filter((id) => !ensured.has(id));
    if (missing.length === 0) return;
    await ensureDropRows(db, missing);
    for (const id of missing) ensured.add(id);
  }

  const clockOf = (product: Product): DropClock | null =>
    product.releaseAt
      ? { releaseAtMs: Date.parse(product.releaseAt), raffleMs: settings.raffleMs, windowMs: settings.windowMs }
      : null;

  /** The product and its drop clock; 404 when there is no such product or it has no release time. */
  async function dropProduct(productId: string, fresh = false): Promise<{ product: Product; clock: DropClock }> {
    const product = fresh
      ? await catalog.getProductFresh(productId)
      : ((await catalog.getProduct(productId)) ?? (await catalog.getProductFresh(productId)));
    if (!product) throw notFound('Product not found');
    const clock = clockOf(product);
    if (!clock) throw notFound(dropMessages.noDrop);
    return { product, clock };
  }

  function ticketOf(
    t: PolledTicket,
    phase: DropStatus['phase'],
    drop: DropRow,
    stock: number,
    now = dbClock.now(),
    room = roomAt(drop.productId, now),
  ): DropTicket {
    const position = t.status === 'waiting' && phase === 'open' ? t.position : null;
    return {
      id: t.id,
      status: t.status as TicketStatus,
      raffle: t.raffle,
      position,
      estimatedWaitSeconds:
        position === null
          ? null
          : estimateWaitSeconds(position, drop.admitPerMinute, !drop.paused && stock > 0, room),
      passExpiresAt: t.status === 'admitted' && t.admittedAt ? iso(t.admittedAt.getTime() + settings.passMs) : null,
    };
  }

  function statusOf(product: Product, clock: DropClock, poll: RoomRead, stock: number, ticket: PolledTicket | null, now: number): DropStatus {
    const phase = dropPhase(clock, now, poll.drop.soldOutAt !== null);
    return { ...dropWideOf(product, clock, poll, stock, phase), ticket: ticket ? ticketOf(ticket, phase, poll.drop, stock, now) : null };
  }

  /** The status without its ticket, keys in the contract's order (the ticket is last: ./status-push.ts relies on it). */
  function dropWideOf(product: Product, clock: DropClock, poll: RoomRead, stock: number, phase: DropStatus['phase']): Omit<DropStatus, 'ticket'> {
    return {
      productId: product.id,
      releaseAt: iso(clock.releaseAtMs),
      roomOpensAt: iso(roomOpensAtMs(clock)),
      phase,
      paused: poll.drop.paused,
      message: poll.drop.message,
      queueLength: poll.waiting,
      left: stock,
      ...(phase === 'open' ? { held: heldNow.get(product.id) ?? 0 } : {}),
      editionSize: product.editionSize,
    };
  }

  async function stockLeft(productId: string): Promise<number> {
    return (await inventory.stockOf(productId))?.stock ?? 0;
  }

  // ---- status from memory ------------------------------------------------------------------------

  // The queue is ranked once per tick per live drop (one query) and every status read, stream start
  // and push is answered from that read: the cost of a read does not grow with the queue.
  const snapshots = createRoomSnapshots({
    read: async (productId) => {
      await ensureRows([productId]);
      return readRoom(db, productId);
    },
    stockOf: stockLeft,
    maxAgeMs: SNAPSHOT_MAX_AGE_MS,
  });

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
    const { product, clock } = await dropProduct(productId);
    const snapshot = await snapshots.get(productId, dropPhase(clock, dbClock.now(), false));
    if (!snapshot) throw notFound(dropMessages.noDrop);
    const ticket = await ticketIn(snapshot, productId, sessionId);
    return statusOf(product, clock, snapshot, snapshot.stock, ticket, dbClock.now());
  }

  // ---- event streams (server/lib/event-stream-hub.ts) -------------------------------------------

  const streams = createEventStreamHub<DropStreamMeta>({
    maxStreams,
    perAddress: settings.streamsPerAddress ?? DEFAULT_STREAMS_PER_ADDRESS,
    ipv6Prefix: settings.ipv6Prefix,
    messages: { full: dropMessages.tooManyStreams, perAddress: PER_ADDRESS_MESSAGE },
    retryAfterSeconds: { full: 5, perAddress: 30 },
  });

  const pusher = createStatusPusher();

  /**
   * Sends each stream of a drop its session's status from this tick's read (./status-push.ts): the drop-wide
   * part serialised once, per stream only its ticket; position-only changes paced per stream (within 1 s),
   * changes of state at once, unchanged frames not written.
   */
  function push(product: Product, clock: DropClock, snapshot: RoomSnapshot, stock: number, now: number) {
    const phase = dropPhase(clock, now, snapshot.drop.soldOutAt !== null);
    const room = roomAt(product.id, now);
    const visible = phase === 'open';
    pusher.push(product.id, streams.streamsOf(product.id), dropWideOf(product, clock, snapshot, stock, phase), {
      of: (sessionId) => snapshot.tickets.get(sessionId),
      state: (t) => `${t.id}|${t.status}|${t.raffle}|${t.admittedAt?.getTime() ?? ''}|${visible && t.status === 'waiting'}`,
      render: (t) => ticketOf(t, phase, snapshot.drop, stock, now, room),
    });
  }

  // ---- admission (ADR 010: pacing at any rate, admission that matches what can be bought) ----------

  /**
   * Lets in whoever the pace and the room allow, in one conditional UPDATE (advanceAdmissions), and keeps
   * what it saw for the estimates. The live promises are the admitted places whose pass has not lapsed,
   * less the sessions that already hold or bought the product (asked of checkout, which owns that).
   */
  async function admit(productId: string, clock: DropClock, stock: number): Promise<void> {
    const live = await listLiveAdmissions(db, productId, { now: dbClock.sqlNow(), passMs: settings.passMs });
    const engaged =
      live.length > 0 && deps.engagedSessions
        ? await deps.engagedSessions(productId, live.map((a) => a.sessionId))
        : new Set<string>();
    const letIn = await advanceAdmissions(db, productId, {
      releaseAt: new Date(clock.releaseAtMs),
      now: dbClock.sqlNow(),
      stock,
      overbooking,
      passMs: settings.passMs,
      engagedSessions: [...engaged],
    });
    const now = dbClock.now();
    const seen = admissionRoom({
      freePieces: stock,
      overbooking,
      passMs: settings.passMs,
      now,
      live: live.map((a) => ({ sessionId: a.sessionId, admittedAtMs: a.admittedAt.getTime() })),
      engaged,
    });
    // Places this tick let in are promises too; their passes lapse a full pass time from now.
    const fresh = Array.from({ length: letIn }, () => now + settings.passMs);
    outlooks.set(productId, {
      capacity: seen.room + seen.lapsesInMs.length,
      stock,
      lapseAt: [...seen.lapsesInMs.map((ms) => now + ms), ...fresh].sort((a, b) => a - b),
    });
  }

  // ---- the ticker -------------------------------------------------------------------------------

  async function tick(): Promise<void> {
    const now = dbClock.now();
    const live: Array<{ product: Product; clock: DropClock }> = [];
    for (const product of await catalog.listProducts()) {
      const clock = clockOf(product);
      if (!clock) continue;
      const watched = streams.has(product.id);
      if (watched || (now >= roomOpensAtMs(clock) && now < clock.releaseAtMs + clock.windowMs + WINDOW_GRACE_MS))
        live.push({ product, clock });
    }
    // Streams of a product that lost its release time (or was deleted) are told nothing more; they stay until closed.
    if (live.length === 0) return;
    await ensureRows(live.map((l) => l.product.id));
    const rows = new Map((await findDropRows(db, live.map((l) => l.product.id))).map((r) => [r.productId, r]));

    for (const { product, clock } of live) {
      const drop = rows.get(product.id);
      if (!drop) continue;
      let stock = product.stock;
      if (now >= clock.releaseAtMs && drop.soldOutAt === null) {
        const room = await inventory.editionRoom(product.id);
        stock = room?.stock ?? 0;
        const held = room?.held ?? 0;
        heldNow.set(product.id, held);
        const windowOver = now >= clock.releaseAtMs + clock.windowMs;
        if (stock === 0 && (held === 0 || windowOver)) {
          // Every piece sold (or, at the end of the window, none left to let anyone in for): all waiting are told at once.
          if (await markSoldOut(db, product.id)) log.info({ productId: product.id }, 'drop sold out');
        } else if (!windowOver && stock > 0 && !drop.paused) {
          await admit(product.id, clock, stock);
        } else {
          outlooks.delete(product.id);
        }
      } else if (now >= clock.releaseAtMs && streams.has(product.id)) {
        stock = await stockLeft(product.id);
      }
      // The one ranking read of this drop this tick: status reads and streams are answered from it.
      const snapshot = await snapshots.refresh(product.id, dropPhase(clock, dbClock.now(), false), stock);
      if (!snapshot || !streams.has(product.id)) continue;
      push(product, clock, snapshot, stock, dbClock.now());
    }
    snapshots.evict(60_000);
  }

  // ---- the owner's view -------------------------------------------------------------------------

  async function adminDrops(products: Product[]): Promise<AdminDrop[]> {
    const ids = products.map((p) => p.id);
    await ensureRows(ids);
    const [rows, counts] = await Promise.all([findDropRows(db, ids), countQueues(db, ids)]);
    const dropById = new Map(rows.map((r) => [r.productId, r]));
    const countsById = new Map(counts.map((c) => [c.productId, c]));
    const now = dbClock.now();
    const out: AdminDrop[] = [];
    for (const product of products) {
      const clock = clockOf(product)!;
      const drop = dropById.get(product.id);
      if (!drop) continue;
      const room = await inventory.editionRoom(product.id);
      const held = room?.held ?? 0;
      const sold = room?.sold ?? product.soldCount;
      const left = room?.stock ?? 0;
      const c = countsById.get(product.id);
      const phase = dropPhase(clock, now, drop.soldOutAt !== null);
      const waiting = c?.waiting ?? 0;
      out.push({
        productId: product.id,
        name: product.name,
        releaseAt: iso(clock.releaseAtMs),
        phase,
        admitPerMinute: drop.admitPerMinute,
        paused: drop.paused,
        message: drop.message,
        queueLength: waiting,
        admitted: c?.admitted ?? 0,
        admittedPerSecond: (c?.admittedRecently ?? 0) / 10,
        admittedLastMinute: c?.admittedLastMinute ?? 0,
        // The pacing clock (admitted_at) plus one place's interval; none while paused, empty or sold out.
        nextAdmissionAt:
          phase === 'open' && !drop.paused && waiting > 0 && left > 0
            ? iso(Math.max(now, (drop.admittedAt?.getTime() ?? clock.releaseAtMs) + 60_000 / drop.admitPerMinute))
            : null,
        held,
        sold,
        left,
        editionSize: room?.editionSize ?? product.editionSize,
        // products.sold_out_at (stamped with the sale of the last piece, through the catalogue); else the
        // drop's own stamp, set by the tick when nothing was left or held.
        sellOutSeconds:
          product.sellOutSeconds ??
          (drop.soldOutAt && left === 0 && held === 0
            ? Math.max(0, Math.round((drop.soldOutAt.getTime() - clock.releaseAtMs) / 1000))
            : null),
      });
    }
    return out;
  }

  return {
    status,
    tick,

    /**
     * Takes a place in the waiting room (POST /api/drops/:productId/queue). The room must be open and the
     * drop not over (409); the proof of work is checked and spent next (400); a session that already has
     * a place gets it back (created: false); an address with DROP_PLACES_PER_ADDRESS places gets 429.
     */
    async join(
      productId: string,
      req: { sessionId: string | null; ensureSession: () => Promise<string>; ip: string; altcha: string },
    ): Promise<{ status: DropStatus; created: boolean }> {
      const { product, clock } = await dropProduct(productId);
      await ensureRows([productId]);
      const [drop] = await findDropRows(db, [productId]);
      const now = dbClock.now();
      const phase = dropPhase(clock, now, Boolean(drop?.soldOutAt));
      if (phase === 'not_open') throw conflict(dropMessages.roomNotOpen(product.name, iso(roomOpensAtMs(clock))));
      if (phase === 'sold_out') throw conflict(dropMessages.soldOut(product.name));
      if (phase === 'ended') throw conflict(dropMessages.over(product.name));
      await botCheck.verify(req.altcha);

      if (req.sessionId && (await findTicket(db, productId, req.sessionId)))
        return { status: await status(productId, req.sessionId), created: false };
      const key = addressKey(req.ip);
      const tooMany = () =>
        new HttpError(429, dropMessages.tooManyPlaces, { 'retry-after': '60', 'cache-control': 'no-store' });
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
        return insertTicket(tx, { productId, sessionId, addressKey: key, lotteryKey: held + draw, releaseAt: new Date(clock.releaseAtMs), now: dbClock.sqlNow() });
      });
      if (created && !created.raffle)
        snapshots.joined(productId, { id: created.id, sessionId, status: created.status, raffle: false, admittedAt: null, position: null });
      return { status: await status(productId, sessionId), created: created !== null };
    },

    /**
     * "Rejoin the line" (POST /api/drops/:productId/rejoin): a session whose pass lapsed unused (or that left
     * the line) gets a new place at the back, with a fresh proof of work (400), while the drop is live (409
     * as for join). Without a place it is a join; a waiting place or a live pass is answered as it is.
     */
    async rejoin(
      productId: string,
      req: { sessionId: string | null; ensureSession: () => Promise<string>; ip: string; altcha: string },
    ): Promise<{ status: DropStatus; created: boolean }> {
      const ticket = req.sessionId ? await findTicket(db, productId, req.sessionId) : null;
      if (!req.sessionId || !ticket) return this.join(productId, req);
      const { product, clock } = await dropProduct(productId);
      const [drop] = await findDropRows(db, [productId]);
      const phase = dropPhase(clock, dbClock.now(), Boolean(drop?.soldOutAt));
      if (phase === 'not_open') throw conflict(dropMessages.roomNotOpen(product.name, iso(roomOpensAtMs(clock))));
      if (phase === 'sold_out' || ticket.status === 'sold_out') throw conflict(dropMessages.soldOut(product.name));
      if (phase === 'ended') throw conflict(dropMessages.over(product.name));
      await botCheck.verify(req.altcha);
      const moved = await requeueTicket(db, productId, req.sessionId, {
        now: dbClock.sqlNow(),
        passMs: settings.passMs,
        releaseAt: new Date(clock.releaseAtMs),
      });
      // The snapshot still has the old place: read the room again before answering.
      if (moved) snapshots.invalidate(productId);
      return { status: await status(productId, req.sessionId), created: moved !== null };
    },

    /** POST /api/drops/:productId/pass: the signed pass of an admitted ticket, to be set as a cookie. */
    async issuePass(
      productId: string,
      sessionId: string | null,
      cookieHeader: string | undefined,
    ): Promise<{ pass: AdmissionPass; cookie: string; maxAgeMs: number }> {
      const { product } = await dropProduct(productId);
      const ticket = sessionId ? await findTicket(db, productId, sessionId) : null;
      if (!sessionId || !ticket || ticket.status !== 'admitted' || !ticket.admittedAt)
        throw forbidden(dropMessages.notAdmitted(product.name));
      const expiresAtMs = ticket.admittedAt.getTime() + settings.passMs;
      if (expiresAtMs <= dbClock.now()) throw forbidden(dropMessages.passExpired(product.name));
      const token = signer.sign({ productId, ticketId: ticket.id, expiresAtMs }, sessionId);
      return {
        pass: { productId, ticketId: ticket.id, expiresAt: iso(expiresAtMs) },
        cookie: signer.merge(readCookie(cookieHeader, passCookieName), token, productId),
        maxAgeMs: settings.passMs,
      };
    },

    /**
     * Cart adds and payment intents of a product inside its drop window need this session's valid pass
     * for it (403 otherwise). Products without a release time, not released yet (refused elsewhere with
     * 409), past their window or sold out need none. Answers the products whose valid pass it saw: a pass
     * is proof of release (the callers skip their own release check for them), whatever this instance's clock.
     */
    async assertAdmitted(sessionId: string | null, productIds: readonly string[], cookieHeader: string | undefined): Promise<Set<string>> {
      const now = dbClock.now();
      const passed = new Set<string>();
      const cookie = readCookie(cookieHeader, passCookieName);
      for (const productId of new Set(productIds)) {
        if (cookie && signer.verify(cookie, productId, sessionId, now)) {
          passed.add(productId);
          continue;
        }
        const product = (await catalog.getProduct(productId)) ?? (await catalog.getProductFresh(productId));
        const clock = product ? clockOf(product) : null;
        if (!product || !clock || !passRequired(clock, now, false)) continue;
        const [drop] = await findDropRows(db, [productId]);
        if (drop?.soldOutAt) continue;
        throw forbidden(dropMessages.passNeeded(product.name));
      }
      return passed;
    },

    /** The cookie the pass travels in (prefixed `__Host-` on https shops). */
    passCookieName,

    /**
     * The waiting room's event streams: `streams.reserve(req, res, ip)` before the route awaits anything
     * (a slot, or the 503/429 to answer), then `startStream` with the first status.
     */
    streams,
    /** Starts a reserved stream with its first status; false when the client already left. */
    startStream(slot: StreamSlot<DropStreamMeta>, productId: string, sessionId: string | null, first: DropStatus, headers?: Record<string, string>): boolean {
      return slot.start(productId, pusher.meta(sessionId), sseEvent(first), headers) !== null;
    },
    /** Streams (slots) in use on this instance. */
    get streamCount() {
      return streams.size;
    },
    /** Ranking reads of the queue this instance has made (status reads make none). */
    get roomReads() {
      return snapshots.reads;
    },
    /** App shutdown: every open stream is ended, so closing the server does not wait for them. */
    closeStreams(): void {
      streams.closeAll();
    },

    /** GET /api/admin/drops: every product with a release time, newest release first. */
    async adminList(): Promise<AdminDrop[]> {
      const products = (await catalog.listProductsFresh())
        .filter((p) => p.releaseAt)
        .sort((a, b) => Date.parse(b.releaseAt!) - Date.parse(a.releaseAt!));
      return adminDrops(products);
    },

    /** A session left the line on this instance (turn-mail.ts `leave`): its next status read says so. */
    ticketLeft(productId: string, sessionId: string): void {
      snapshots.left(productId, sessionId);
    },

    /** PATCH /api/admin/drops/:productId: the owner's admission rate and pause. */
    async adminUpdate(productId: string, change: AdminDropUpdate): Promise<AdminDrop> {
      const { product } = await dropProduct(productId, true);
      await ensureRows([productId]);
      if (!(await updateDropSettings(db, productId, change))) throw notFound(dropMessages.noDrop);
      snapshots.invalidate(productId);
      const [drop] = await adminDrops([product]);
      return drop!;
    },
  };
}

/** One cookie's value from a Cookie header (our values are URL-safe; anything odd reads as absent). */
function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

export type DropsService = ReturnType<typeof createDropsService>;
