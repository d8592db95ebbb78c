import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type { AlertClaim } from '../../../common/contracts/alerts';
import type { Product } from '../../../common/contracts/catalog';
import { alertKindFor, alertMessages, isReservedForOthers, reservedMessage, type AlertKind } from '../../../common/domain/product-alerts';
import { passRequired } from '../../../common/domain/drop';
import { mailboxKey } from '../../../common/domain/identity';
import { isReleased } from '../../../common/domain/release';
import { sizeKey } from '../../../common/domain/size-run';
import { isAvailable } from '../../../common/domain/stock';
import { lockClass } from '../../lib/advisory-locks';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../lib/http-error';
import { absoluteUrl, type MailBrand } from '../../lib/mail-template';
import type { Mailer, MailMessage } from '../../lib/mailer';
import type { KeyService } from '../../lib/keys';
import type { Clock } from '../../lib/db-clock';
import { buildDropCalendar } from './alerts.calendar';
import { buildReleaseMail, buildRestockMail, buildRoomOpenMail } from './alerts.mail';
import {
  claimReleaseAlerts,
  claimReservedMails,
  findByClaimToken,
  findByToken,
  findReservations,
  insertAlert,
  listPendingProducts,
  listUnkeyedAlerts,
  markClaimed,
  reserveNext,
  setAlertMailboxKey,
  unmarkNotified,
  unsubscribeByToken,
  type MailableAlert,
  type Reservation,
} from './alerts.repository';
const BATCH = 100;
/** Claim tokens one browser's cookie keeps (the newest first), '.'-separated: a token never holds a '.'. */
const CLAIMS_PER_BROWSER = 5;
const claimTokensOf = (cookie: string | null | undefined): string[] => (cookie ? cookie.split('.').filter(Boolean) : []);

/** Notify me for one size (ADR 015): what the signup answers, and a size the run does not have. */
export const sizeAlertMessages = {
  restock: (size: string) => `We'll e-mail you if a piece in ${size} comes back.`,
  unknownSize: (size: string) => `This piece has no size ${size}.`,
} as const;

export const claimMessages = {
  /** A claim link opened in a second browser (forwarded, leaked): only the first one keeps the piece. */
  otherBrowser:
    'This link was already opened in another browser. Open it in the browser where you first used it: the piece is kept for that one only.',
} as const;

/** What alerts reads of the catalogue (the catalog service fits it; wired in server/services.ts). */
export interface AlertsCatalog {
  getProductFresh(id: string, tx?: DbOrTx): Promise<Product | null>;
  getProductsFresh(ids: readonly string[]): Promise<Map<string, Product>>;
}

/** One size of a product's run as inventory counts it (inventory's readSizeStock fits it). */
export interface AlertsSizeStock {
  variantId: string;
  /** null: the "one run" of an edition not split into sizes (any listed size). */
  size: string | null;
  colour: string | null;
  /** Pieces a shopper can take now. */
  left: number;
}

/** What alerts needs of inventory: the stock of a product, and word of units that came back (in inventory's transaction). */
export interface AlertsStock {
  stockOf(productId: string, tx?: DbOrTx): Promise<{ stock: number; inStock: boolean } | null>;
  /**
   * The size runs of these products, in run order (ADR 015); a product absent or with only its one run is
   * not split (its pieces are one pool). Absent: no product is split.
   */
  sizeStock?(productIds: readonly string[], tx?: DbOrTx): Promise<Map<string, AlertsSizeStock[]>>;
  onUnitsReturned(listener: (tx: Tx, productIds: string[]) => Promise<void>): void;
}

export interface AlertsDeps {
  db: Db;
  catalog: AlertsCatalog;
  inventory: AlertsStock;
  mailer: Mailer;
  log: FastifyBaseLogger;
  shopName: string;
  /** SUPPORT_EMAIL: the mails' footer names it. */
  supportEmail?: string;
  /** Links in the mails are built from it (PUBLIC_URL, else this server's address). */
  baseUrl: string;
  reserveMinutes: number;
  /** DROP_WINDOW_MINUTES in ms: inside a product's drop window a returned piece goes back to the admitted line. */
  dropWindowMs: number;
  /**
   * Whether the product's drop is sold out (the waiting room has told everyone): then, even inside the window,
   * a returned piece goes to the waiting list. Called after commits only, never inside inventory's transaction.
   */
  isDropSoldOut?: (productId: string) => Promise<boolean>;
  /** The shop's key service: keys the hashes of folded mailboxes (ADR 013) alike in every instance. */
  keys: KeyService;
  /** The clock of drop-day decisions (server/lib/db-clock.ts): released yet, a reservation still running. */
  clock: Clock;
  /**
   * DROP_RAFFLE_MINUTES in ms: release subscribers are mailed when the waiting room opens, this long before
   * the release (everyone who joins before the release is in the draw). 0: at the release.
   */
  raffleMs?: number;
  /** The shop's time zone for the times the mails name (IANA name); default UTC. */
  timeZone?: string;
}

/**
 * 'Notify me' (ADR 011; docs/product.md §9). Release alerts are mailed by a job once the release
 * time has passed. Restock alerts: when inventory gives a piece back to a sold-out product, the first
 * waiting subscriber gets a reservation in that same transaction (nobody can take the piece in between),
 * is mailed right after, and only their claim can add it to a cart until the window ends; a window that
 * lapses unused passes to the next subscriber (job). Every step is one conditional UPDATE … SKIP LOCKED,
 * so several instances never mail anyone twice.
 */
export function createAlertsService(deps: AlertsDeps) {
  const { db, catalog, inventory, mailer, log, shopName, reserveMinutes, dropWindowMs, clock } = deps;
  const base = deps.baseUrl.replace(/\/+$/, '');
  /** Who the alert mails are from (server/lib/mail-template.ts). */
  const brand: MailBrand = { shopName, shopUrl: base, supportEmail: deps.supportEmail };
  const mailboxSecret = deps.keys.derive('alert mailboxes');
  const mailboxHash = (email: string) => crypto.createHmac('sha256', mailboxSecret).update(mailboxKey(email)).digest('base64url');
  const minutesShown = Math.max(1, Math.round(reserveMinutes));
  const raffleMs = deps.raffleMs ?? 0;
  const host = new URL(base).host || 'fifty.local';
  const productPage = (productId: string) => `${base}/product/${productId}`;
  const calendarUrl = (productId: string) => `${base}/api/products/${productId}/calendar.ics`;
  /** The drop's event (room opening to release) for a product with a release time. */
  const calendarOf = (p: Product & { releaseAt: string }) =>
    buildDropCalendar({
      productId: p.id,
      productName: p.name,
      shopName,
      roomOpensAt: new Date(Date.parse(p.releaseAt) - raffleMs),
      releaseAt: new Date(p.releaseAt),
      url: `${productPage(p.id)}#waiting-room`,
      host,
      timeZone: deps.timeZone,
    });
  /** A product's sizes when it is split into sizes (ADR 015), in run order; [] for one pool. */
  async function sizeRunOf(productId: string, tx: DbOrTx = db): Promise<AlertsSizeStock[]> {
    if (!inventory.sizeStock) return [];
    const run = (await inventory.sizeStock([productId], tx)).get(productId) ?? [];
    return run.some((v) => v.size !== null) ? run : [];
  }
  /** Size labels of these variants (the mails and claims name the size of a kept piece). */
  async function sizeLabels(productIds: readonly string[]): Promise<Map<string, string>> {
    const labels = new Map<string, string>();
    if (!inventory.sizeStock || productIds.length === 0) return labels;
    for (const run of (await inventory.sizeStock([...new Set(productIds)])).values())
      for (const v of run) if (v.size !== null) labels.set(v.variantId, v.size);
    return labels;
  }
  const links = (a: MailableAlert) => ({
    // The claim link carries the reservation's own token; the unsubscribe link the signup's (ADR 011, amended).
    productUrl: `${base}/product/${a.productId}${a.kind === 'restock' && a.claimToken ? `?claim=${a.claimToken}` : ''}`,
    unsubscribeUrl: `${base}/api/alerts/unsubscribe?token=${a.token}`,
  });

  /** Sends each claimed alert's mail; a failed one is released to be tried again. */
  async function mailAll(
    alerts: MailableAlert[],
    build: (a: MailableAlert, p: Product, size: string | null) => MailMessage,
  ): Promise<number> {
    if (alerts.length === 0) return 0;
    const products = await catalog.getProductsFresh(alerts.map((a) => a.productId));
    const sized = alerts.filter((a) => a.reservedVariantId !== null);
    const labels = await sizeLabels(sized.map((a) => a.productId));
    const failed: string[] = [];
    let sent = 0;
    for (const alert of alerts) {
      const product = products.get(alert.productId);
      if (!product) continue;
      try {
        await mailer.send(build(alert, product, alert.reservedVariantId ? (labels.get(alert.reservedVariantId) ?? null) : null));
        sent++;
      } catch (err) {
        // No address in the log: the alert's id is enough to find it.
        log.error({ err, alertId: alert.id }, 'alert e-mail failed; it is tried again by the next run');
        failed.push(alert.id);
      }
    }
    await unmarkNotified(db, failed);
    return sent;
  }

  /** Reserved, not yet mailed: the mail goes out and the window starts. */
  async function sendReservedMails(): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await claimReservedMails(db, reserveMinutes, BATCH);
      total += await mailAll(claimed, (a, p, size) =>
        buildRestockMail({
          to: a.email,
          productName: p.name,
          size,
          shopName: brand,
          productImageUrl: absoluteUrl(base, p.images[0]),
          ...links(a),
          reservedUntil: a.reservedUntil!,
          minutes: minutesShown,
          timeZone: deps.timeZone,
        }),
      );
      if (claimed.length < BATCH) return total;
    }
  }

  /** Serialises reservations of one product across instances (and with inventory's transactions). */
  const lockProduct = (tx: Tx, productId: string) =>
    tx.execute(sql`select pg_advisory_xact_lock(${lockClass('productReservation')}, hashtext(${productId}))`);

  /**
   * Inside its drop window (released, DROP_WINDOW_MINUTES not over; common/domain/drop.ts) a product is sold
   * to the waiting room's admitted line: a returned piece goes back to that pool, not to a Notify-me
   * reservation that no admitted shopper could buy past (ADR 011, amended). Read on the database's clock.
   */
  async function inDropWindow(tx: DbOrTx, productId: string): Promise<boolean> {
    const product = await catalog.getProductFresh(productId, tx);
    if (!product?.releaseAt) return false;
    const res = await tx.execute<{ ms: number }>(sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`);
    const now = Number(res.rows[0]!.ms);
    return passRequired({ releaseAtMs: Date.parse(product.releaseAt), raffleMs: 0, windowMs: dropWindowMs }, now, false);
  }

  /**
   * Pieces on the shelf that no live reservation keeps go to the next subscribers in line; null (nothing
   * reserved) while the product is inside its drop window, unless its drop is known to be sold out. Per size
   * (ADR 015, "Returns, refunds and restock reservations"): each size's free pieces go to the first
   * subscribers waiting for that size or for any size, in run order, never more than the edition has free.
   */
  async function reserveFree(tx: Tx, productId: string, dropSoldOut = false): Promise<number | null> {
    await lockProduct(tx, productId);
    if (!dropSoldOut && (await inDropWindow(tx, productId))) return null;
    const stock = await inventory.stockOf(productId, tx);
    if (!stock || !isAvailable(stock)) return 0;
    const live = await findReservations(tx, productId);
    let free = stock.stock - live.length;
    const run = await sizeRunOf(productId, tx);
    if (run.length === 0) return reserveNext(tx, productId, free, reserveMinutes);
    let reserved = 0;
    for (const size of run) {
      if (free <= 0) break;
      const kept = live.filter((r) => r.variantId === size.variantId).length;
      const n = await reserveNext(tx, productId, Math.min(free, size.left - kept), reserveMinutes, size.variantId);
      reserved += n;
      free -= n;
    }
    return reserved;
  }

  /** 409 when every piece of `stock` is kept for someone else on the waiting list (not one of `mine`). */
  function assertFreeFor(stock: number, reservations: readonly Reservation[], mine: readonly string[]): void {
    if (reservations.length === 0) return;
    const claimToken = reservations.find((r) => mine.includes(r.claimToken))?.claimToken ?? null;
    if (!isReservedForOthers({ stock, reservations: reservations.map((r) => r.claimToken), claimToken })) return;
    const first = reservations.reduce((a, b) => (a.reservedUntil < b.reservedUntil ? a : b));
    throw conflict(reservedMessage(first.reservedUntil, new Date(clock.now())));
  }

  let mailTimer: NodeJS.Timeout | null = null;
  /** After the returning transaction commits, its reservations are mailed (the job is the safety net). */
  function mailSoon(): void {
    if (mailTimer) return;
    mailTimer = setTimeout(() => {
      mailTimer = null;
      sendReservedMails().catch((err: unknown) => log.error({ err }, 'restock alert e-mails failed'));
    }, 50);
    mailTimer.unref();
  }

  /** A sold-out drop inside its window: its returned pieces go to the waiting list (outside any transaction). */
  async function dropSoldOut(productId: string): Promise<boolean> {
    if (!deps.isDropSoldOut) return false;
    try {
      return await deps.isDropSoldOut(productId);
    } catch (err) {
      log.warn({ err, productId }, 'drop state unknown: the returned piece stays with the line');
      return false;
    }
  }

  /** Pieces of these products came back inside their drop windows: reserved only if the drop is sold out. */
  async function offerIfDropSoldOut(productIds: readonly string[]): Promise<number> {
    let reserved = 0;
    for (const productId of productIds) {
      if (!(await dropSoldOut(productId))) continue;
      reserved += (await db.transaction((tx) => reserveFree(tx, productId, true))) ?? 0;
    }
    return reserved;
  }

  let lineTimer: NodeJS.Timeout | null = null;
  const lineChecks = new Set<string>();
  /** After the returning transaction commits (never inside it: the drop's state is another module's read). */
  function checkDropsSoon(productIds: readonly string[]): void {
    if (!deps.isDropSoldOut) return;
    for (const id of productIds) lineChecks.add(id);
    if (lineTimer) return;
    lineTimer = setTimeout(() => {
      lineTimer = null;
      const ids = [...lineChecks].sort();
      lineChecks.clear();
      offerIfDropSoldOut(ids)
        .then((reserved) => (reserved > 0 ? sendReservedMails() : 0))
        .catch((err: unknown) => log.error({ err }, 'restock reservations after a sold-out drop failed'));
    }, 50);
    lineTimer.unref();
  }

  // Inventory tells us, inside its transaction, when pieces came back to sold-out products.
  inventory.onUnitsReturned(async (tx, productIds) => {
    let reserved = 0;
    const toTheLine: string[] = [];
    for (const productId of [...productIds].sort()) {
      const n = await reserveFree(tx, productId);
      if (n === null) toTheLine.push(productId);
      else reserved += n;
    }
    if (reserved > 0) mailSoon();
    if (toTheLine.length > 0) checkDropsSoon(toTheLine);
  });

  return {
    /**
     * A shopper asks to be told; the kind follows the product's state. 201 new, 200 when already asked. With
     * a size of the product's run ("tell me if an M comes back"), a sold-out size waits even while other
     * sizes are on sale; a product not split into sizes ignores it (any size is the one pool).
     */
    async subscribe(
      productId: string,
      email: string,
      size: string | null = null,
    ): Promise<{ created: boolean; kind: AlertKind; message: string }> {
      const product = await catalog.getProductFresh(productId);
      if (!product) throw notFound('Product not found');
      let kind = alertKindFor(product, clock.now());
      let wanted: AlertsSizeStock | null = null;
      if (size !== null) {
        const run = await sizeRunOf(productId);
        if (run.length > 0) {
          wanted = run.find((v) => v.size !== null && sizeKey(v.size) === sizeKey(size)) ?? null;
          if (!wanted) throw badRequest(sizeAlertMessages.unknownSize(size));
          if (kind === null && wanted.left <= 0) kind = 'restock';
        }
      }
      if (!kind) throw conflict(alertMessages.onSale);
      // One signup per folded mailbox and product (ADR 013): older rows get their key first.
      for (const old of await listUnkeyedAlerts(db, productId)) await setAlertMailboxKey(db, old.id, mailboxHash(old.email));
      const created = await insertAlert(db, {
        productId,
        email,
        mailboxKey: mailboxHash(email),
        kind,
        token: crypto.randomBytes(24).toString('base64url'),
        variantId: wanted?.variantId ?? null,
      });
      const message = kind === 'restock' && wanted?.size ? sizeAlertMessages.restock(wanted.size) : alertMessages[kind];
      return { created, kind, message };
    },

    /**
     * Job: mails every release subscriber once, when the product's waiting room opens (DROP_RAFFLE_MINUTES
     * before the release: "Join before 18:00 to be in the draw", with the drop's .ics). Not again at the
     * release: the room-opening mail is the one that can still get them into the draw (ADR 011, "Alerts
     * people can act on"). A subscriber first mailed after the release (a late signup, a shop that was down)
     * gets the release wording. One row claimed by one instance (notified_at, SKIP LOCKED).
     */
    async sendReleaseAlerts(now = clock.now()): Promise<number> {
      const waiting = await listPendingProducts(db, 'release');
      if (waiting.length === 0) return 0;
      const products = await catalog.getProductsFresh(waiting);
      const roomOpen = waiting.filter((id) => {
        const p = products.get(id);
        return p && (isReleased(p, now) || (p.releaseAt !== null && Date.parse(p.releaseAt) - raffleMs <= now));
      });
      let total = 0;
      for (;;) {
        const claimed = await claimReleaseAlerts(db, roomOpen, BATCH);
        total += await mailAll(claimed, (a, p) => {
          const releaseAt = p.releaseAt ? Date.parse(p.releaseAt) : null;
          if (releaseAt === null || releaseAt <= now) return buildReleaseMail({ to: a.email, productName: p.name, editionSize: p.editionSize, shopName: brand, productImageUrl: absoluteUrl(base, p.images[0]), ...links(a) });
          return buildRoomOpenMail({
            to: a.email,
            productName: p.name,
            editionSize: p.editionSize,
            shopName: brand,
            productImageUrl: absoluteUrl(base, p.images[0]),
            productUrl: `${productPage(p.id)}#waiting-room`,
            unsubscribeUrl: links(a).unsubscribeUrl,
            releaseAt: new Date(releaseAt),
            roomOpensAt: new Date(releaseAt - raffleMs),
            timeZone: deps.timeZone,
            calendarUrl: calendarUrl(p.id),
            calendar: calendarOf({ ...p, releaseAt: p.releaseAt! }),
          });
        });
        if (claimed.length < BATCH) return total;
      }
    },

    /** "Add to calendar": the drop's .ics (404 for a product without a release time). */
    async calendar(productId: string): Promise<string> {
      const product = await catalog.getProductFresh(productId);
      if (!product) throw notFound('Product not found');
      if (!product.releaseAt) throw notFound('This piece has no drop to add to a calendar.');
      return calendarOf({ ...product, releaseAt: product.releaseAt });
    },

    /**
     * Job: pieces nobody's live reservation keeps (a lapsed window, a missed event, a drop window that
     * ended with pieces on the shelf) go to the next in line; inside a drop window only if it sold out.
     */
    async offerReturnedPieces(): Promise<number> {
      let reserved = 0;
      const toTheLine: string[] = [];
      for (const productId of await listPendingProducts(db, 'restock')) {
        const n = await db.transaction((tx) => reserveFree(tx, productId));
        if (n === null) toTheLine.push(productId);
        else reserved += n;
      }
      reserved += await offerIfDropSoldOut(toTheLine);
      await sendReservedMails();
      return reserved;
    },

    sendReservedMails,

    /**
     * Cart add: refuses (409) when every piece left is reserved for someone on the waiting list and this
     * shopper does not hold one of the claims; with the size added (ADR 015), also when every piece left of
     * that size is kept for someone waiting for it.
     */
    async assertNotReserved(productId: string, claimCookie: string | null, size: string | null = null): Promise<void> {
      const reservations = await findReservations(db, productId);
      if (reservations.length === 0) return;
      const stock = await inventory.stockOf(productId);
      // The claim cookie may carry several claims (one per reserved piece this browser opened).
      const mine = claimTokensOf(claimCookie);
      assertFreeFor(stock?.stock ?? 0, reservations, mine);
      if (size === null || !reservations.some((r) => r.variantId !== null)) return;
      const wanted = (await sizeRunOf(productId)).find((v) => v.size !== null && sizeKey(v.size) === sizeKey(size));
      if (wanted) assertFreeFor(wanted.left, reservations.filter((r) => r.variantId === wanted.variantId), mine);
    },

    /**
     * The claim link: the browser that uses it first may take the reserved piece until the window ends (its
     * claim cookie, `cookie` here, proves it later); any other browser is refused (403). Only the claim
     * token claims: the unsubscribe token is not one (404). Returns the claim and the cookie value to set.
     */
    async claim(token: string, cookie: string | null): Promise<{ claim: AlertClaim; cookie: string; maxAgeMs: number }> {
      const row = await findByClaimToken(db, token);
      if (!row || row.kind !== 'restock') throw notFound(alertMessages.unknownLink);
      if (row.unsubscribedAt || !row.notifiedAt || !row.reservedUntil || row.reservedUntil.getTime() <= clock.now())
        throw new HttpError(410, alertMessages.claimEnded);
      const held = claimTokensOf(cookie);
      if (!held.includes(token) && !(await markClaimed(db, row.id))) throw forbidden(claimMessages.otherBrowser);
      const size = row.reservedVariantId ? ((await sizeLabels([row.productId])).get(row.reservedVariantId) ?? null) : null;
      return {
        claim: {
          productId: row.productId,
          size,
          reservedUntil: row.reservedUntil.toISOString(),
          message: `This piece is kept for you for another ${Math.max(1, Math.ceil((row.reservedUntil.getTime() - clock.now()) / 60_000))} minutes.`,
        },
        cookie: [token, ...held.filter((t) => t !== token)].slice(0, CLAIMS_PER_BROWSER).join('.'),
        // The longest any window can still run: each claim's own end is checked on the server.
        maxAgeMs: reserveMinutes * 60_000,
      };
    },

    /** What the unsubscribe page shows before the click. */
    async describeToken(token: string): Promise<{ productName: string; unsubscribed: boolean }> {
      const row = await findByToken(db, token);
      if (!row) throw notFound(alertMessages.unknownLink);
      const product = await catalog.getProductFresh(row.productId);
      return { productName: product?.name ?? 'this piece', unsubscribed: row.unsubscribedAt !== null };
    },

    /** One-click unsubscribe (idempotent). */
    /** The owner's view of demand: live Notify-me signups per product (read only). */
    async countSignupsByProduct(): Promise<Array<{ productId: string; count: number }>> {
      const result = await db.execute<{ product_id: string; n: number }>(sql`
        select product_id, count(*)::int as n from product_alerts where unsubscribed_at is null
        group by product_id order by n desc`);
      return result.rows.map((r) => ({ productId: r.product_id, count: Number(r.n) }));
    },

    /** One product's live Notify-me signups, oldest first (the owner's list and CSV; read only). */
    async listSignups(productId: string): Promise<Array<{ email: string; kind: string; createdAt: string; notifiedAt: string | null }>> {
      const result = await db.execute<{ email: string; kind: string; created_at: Date | string; notified_at: Date | string | null }>(sql`
        select email, kind, created_at, notified_at from product_alerts
        where product_id = ${productId} and unsubscribed_at is null order by created_at, id limit 10000`);
      const iso = (v: Date | string) => new Date(v).toISOString();
      return result.rows.map((r) => ({
        email: r.email,
        kind: r.kind,
        createdAt: iso(r.created_at),
        notifiedAt: r.notified_at === null ? null : iso(r.notified_at),
      }));
    },

    async unsubscribe(token: string): Promise<{ message: string }> {
      const row = await unsubscribeByToken(db, token);
      if (!row) throw notFound(alertMessages.unknownLink);
      return { message: alertMessages.unsubscribed };
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
