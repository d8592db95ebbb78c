import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Product } from '../../../common/contracts/catalog';
import { ticketMessages } from '../../../common/contracts/drop-ticket';
import type { Clock } from '../../lib/db-clock';
import type { KeyService } from '../../lib/keys';
import { absoluteUrl, renderMailHtml, textFooter, type MailBrand } from '../../lib/mail-template';
import { notFound } from '../../lib/http-error';
import { leaveTicket } from './drops.repository';
import { dropQueue } from './drops.tables';
import { shopTime } from '../../lib/shop-time';

/** A page that has not been seen visible for this long when its holder is admitted gets the mail. */
export const DEFAULT_HIDDEN_MS = 20_000;
/**
 * Following the mailed link extends the pass by this, counted from the mail (they had to read it first). Only
 * the link does: a page that reports itself hidden gets the mail, never the time (a bot farm's idle places,
 * each with a throwaway address, would otherwise hold the line twice as long).
 */
export const DEFAULT_TURN_GRACE_MS = 10 * 60_000;
const BATCH = 100;

/** A mail as the mailer takes it (server/services.ts passes the shop's mailer). */
export interface TurnMailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface TurnMailDeps {
  db: Db;
  /** The products' names for the mail (catalog). */
  catalog: { getProductsFresh(ids: readonly string[]): Promise<Map<string, Product>> };
  mailer: { send(message: TurnMailMessage): Promise<void> };
  log: FastifyBaseLogger;
  shopName: string;
  /** Links in the mail are built from it (PUBLIC_URL, else this server's address). */
  baseUrl: string;
  /** SUPPORT_EMAIL: the mail's footer names it (server/lib/mail-template.ts). */
  supportEmail?: string;
  /** DROP_PASS_MINUTES in ms. */
  passMs: number;
  hiddenMs?: number;
  graceMs?: number;
  /** The shop's time zone for the time the mail names (IANA name); default UTC. */
  timeZone?: string;
  /** Told after a session left the line, so the room's cached read stops showing its old place. */
  onLeft?: (productId: string, sessionId: string) => void;
  /** The clock of drop-day decisions (server/lib/db-clock.ts): who is hidden, when a pass ends. */
  clock: Clock;
  /** The shop's key service: the mailed link's token is an HMAC under a key derived from the session secret (one per shop, not per instance). */
  keys: KeyService;
}

export const turnLinkMessages = {
  invalid: 'This link is not valid (any more).',
} as const;

export function buildTurnMail(input: {
  to: string;
  productName: string;
  productImageUrl?: string | null;
  brand: MailBrand;
  url: string;
  passEndsAt: Date;
  graceMinutes: number;
  timeZone?: string;
}): TurnMailMessage {
  const until = shopTime(input.passEndsAt, input.timeZone).short;
  const subject = `It's your turn: ${input.productName}`;
  const lines = [
    `It's your turn to buy ${input.productName}.`,
    `Your place is kept until ${until}: open the link below before then and you get ${input.graceMinutes} more minutes to buy. After that it goes to the next person in line.`,
  ];
  const why = 'You asked us to e-mail you when it was your turn.';
  const text = [...lines, '', `Buy it now: ${input.url}`, '', `— ${input.brand.shopName}`, '', why, ...textFooter(input.brand)].join('\n');
  const html = renderMailHtml(input.brand, {
    subject,
    preview: `Your place is kept until ${until}.`,
    heading: "It's your turn",
    lead: lines,
    cta: { url: input.url, label: 'Buy it now' },
    items: [{ name: input.productName, imageUrl: input.productImageUrl ?? null }],
    piecesFirst: true,
    footnote: [why],
  });
  return { to: input.to, subject, text, html };
}

/**
 * "E-mail me when it's my turn" (ADR 011, "Alerts people can act on"): the shopper's own ticket carries the
 * e-mail they gave, the page reports whether it is seen (a heartbeat), and a job mails each admitted
 * shopper whose page has not been seen visible for `hiddenMs`, once per ticket (turn_mailed_at, claimed
 * with SKIP LOCKED, so several instances never mail twice). The mail does not extend the pass; following
 * its link does (`followLink`, while the pass is live, in the browser that holds the place): the pass then
 * ends `passMs + graceMs` after the mail (admitted_at, the pass clock, moves forward).
 */
export function createTurnMail(deps: TurnMailDeps) {
  const { db, catalog, mailer, log, shopName, passMs } = deps;
  const hiddenMs = deps.hiddenMs ?? DEFAULT_HIDDEN_MS;
  const graceMs = deps.graceMs ?? DEFAULT_TURN_GRACE_MS;
  const base = deps.baseUrl.replace(/\/+$/, '');
  const clock = deps.clock;
  const brand: MailBrand = { shopName, shopUrl: base, supportEmail: deps.supportEmail };
  const ms = (n: number) => sql`${`${Math.round(n)} milliseconds`}::interval`;
  const linkKey = deps.keys.derive('fifty:turn-mail-link');
  const linkMac = (ticketId: string) => crypto.createHmac('sha256', linkKey).update(ticketId).digest('base64url').slice(0, 32);
  /** The mailed link's token: the ticket and its HMAC (nothing stored; a guessed ticket id is not enough). */
  const linkToken = (ticketId: string) => `${ticketId}.${linkMac(ticketId)}`;
  const ticketOfToken = (token: string): string | null => {
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return null;
    const ticketId = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1));
    const want = Buffer.from(linkMac(ticketId));
    return mac.length === want.length && crypto.timingSafeEqual(mac, want) ? ticketId : null;
  };
  const ownTicket = (productId: string, sessionId: string) =>
    and(eq(dropQueue.productId, productId), eq(dropQueue.sessionId, sessionId), inArray(dropQueue.status, ['waiting', 'admitted']));

  return {
    /** Stores the e-mail with this session's live ticket (404 without one). */
    async setEmail(productId: string, sessionId: string | null, email: string): Promise<{ message: string }> {
      if (!sessionId) throw notFound(ticketMessages.noTicket);
      const rows = await db.update(dropQueue).set({ email }).where(ownTicket(productId, sessionId)).returning({ id: dropQueue.id });
      if (rows.length === 0) throw notFound(ticketMessages.noTicket);
      return { message: ticketMessages.emailSaved };
    },

    /** The page says whether it is seen: a visible beat moves seen_at, a hidden one only records the state. */
    async heartbeat(productId: string, sessionId: string | null, visible: boolean): Promise<{ visible: boolean }> {
      if (!sessionId) throw notFound(ticketMessages.noTicket);
      const rows = await db
        .update(dropQueue)
        .set({ visible, seenAt: visible ? clock.sqlNow() : sql`${dropQueue.seenAt}` })
        .where(ownTicket(productId, sessionId))
        .returning({ id: dropQueue.id });
      if (rows.length === 0) throw notFound(ticketMessages.noTicket);
      return { visible };
    },

    /**
     * "Leave the line": the ticket is 'left' (leaveTicket). A waiting place is skipped by the queue order; an
     * admitted one gives its place back at once (admitted_count lowered under the drop row's lock), so the
     * next shopper in line is let in at the next admission instead of the place holding a promise for ever.
     */
    async leave(productId: string, sessionId: string | null): Promise<{ message: string }> {
      if (!sessionId) throw notFound(ticketMessages.noTicket);
      if (!(await leaveTicket(db, productId, sessionId, clock.sqlNow()))) throw notFound(ticketMessages.noTicket);
      deps.onLeft?.(productId, sessionId);
      return { message: ticketMessages.left };
    },

    /**
     * The mailed link was followed (GET /api/drops/:productId/turn?token=): the only way to the mail's extra time.
     * The pass is extended when the token is this drop's, the request comes from the session that holds the place
     * (a mail scanner's fetch has no session), the place was mailed and its pass is still live; else nothing
     * changes and the page shows the place as it is. 404 for a token that is not one of ours.
     */
    async followLink(productId: string, sessionId: string | null, token: string): Promise<{ extended: boolean }> {
      const ticketId = ticketOfToken(token);
      if (!ticketId) throw notFound(turnLinkMessages.invalid);
      const [ticket] = await db
        .select({ id: dropQueue.id })
        .from(dropQueue)
        .where(and(eq(dropQueue.id, ticketId), eq(dropQueue.productId, productId)));
      if (!ticket) throw notFound(turnLinkMessages.invalid);
      if (!sessionId) return { extended: false };
      const now = clock.sqlNow();
      const rows = await db
        .update(dropQueue)
        .set({ admittedAt: sql`greatest(${dropQueue.admittedAt}, ${dropQueue.turnMailedAt} + ${ms(graceMs)})` })
        .where(
          and(
            eq(dropQueue.id, ticketId),
            eq(dropQueue.sessionId, sessionId),
            eq(dropQueue.status, 'admitted'),
            sql`${dropQueue.turnMailedAt} is not null`,
            sql`${dropQueue.admittedAt} > ${now} - ${ms(passMs)}`,
          ),
        )
        .returning({ id: dropQueue.id });
      return { extended: rows.length > 0 };
    },

    /** Job: mails admitted shoppers whose page is hidden or gone; returns how many were mailed. */
    async sendTurnMails(): Promise<number> {
      let total = 0;
      for (;;) {
        const now = clock.sqlNow();
        const res = await db.execute<{ id: string; product_id: string; email: string; admitted_at: Date | string }>(sql`
          update drop_queue q
             set turn_mailed_at = ${now}
           where q.id in (
             select id from drop_queue
              where status = 'admitted' and email is not null and turn_mailed_at is null
                and admitted_at > ${now} - ${ms(passMs)}
                and coalesce(seen_at, '-infinity'::timestamptz) < ${now} - ${ms(hiddenMs)}
              order by admitted_at
              limit ${BATCH}
              for update skip locked)
             and q.turn_mailed_at is null
          returning q.id, q.product_id, q.email, q.admitted_at`);
        const claimed = res.rows;
        if (claimed.length > 0) {
          const products = await catalog.getProductsFresh([...new Set(claimed.map((r) => r.product_id))]);
          const failed: string[] = [];
          for (const row of claimed) {
            try {
              await mailer.send(
                buildTurnMail({
                  to: row.email,
                  productName: products.get(row.product_id)?.name ?? 'your piece',
                  productImageUrl: absoluteUrl(base, products.get(row.product_id)?.images[0]),
                  brand,
                  url: `${base}/api/drops/${row.product_id}/turn?token=${linkToken(row.id)}`,
                  passEndsAt: new Date(new Date(row.admitted_at).getTime() + passMs),
                  graceMinutes: Math.max(1, Math.round(graceMs / 60_000)),
                  timeZone: deps.timeZone,
                }),
              );
              total++;
            } catch (err) {
              // No address in the log: the ticket's id is enough to find it.
              log.error({ err, ticketId: row.id }, 'your-turn e-mail failed; it is tried again by the next run');
              failed.push(row.id);
            }
          }
          if (failed.length > 0) await db.update(dropQueue).set({ turnMailedAt: null }).where(inArray(dropQueue.id, failed));
        }
        if (claimed.length < BATCH) return total;
      }
    },
  };
}

export type TurnMail = ReturnType<typeof createTurnMail>;
