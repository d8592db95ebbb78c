import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/db-clock';
import type { MailMessage } from '../../lib/mailer';
import { absoluteUrl, type MailItem } from '../../lib/mail-template';
import { formatEditionNumbers } from '../../../common/domain/stock';
import { formatLineOptions } from '../../../common/domain/variant';
import { conflict, HttpError, notFound } from '../../lib/http-error';
import { ORDER_NOT_FOUND } from '../../../common/contracts/orders';
import { RETURN_MESSAGES, type ReturnRecord, type ReturnRequestBody, type ReturnsView } from '../../../common/contracts/returns';
import { formatMoney } from '../../../common/domain/money';
import { linesRefundCents, refundableCents } from '../../../common/domain/after-sale';
import { givenBackOf } from './after-sale.repository';
import { mayRequestReturn, OPEN_RETURN_STATUSES, reminderAt, returnRequestEnds, returnSourcesOf, shipBackBy, type ReturnStatus } from '../../../common/domain/returns';
import { orderItems, orders } from './orders.tables';
import { orderReturns, type ReturnedLine } from './returns.tables';
import type { OrderItemRow, OrderRow } from './orders.repository';
import type { PiecesBack } from './after-sale.service';
import { renderReturnMail, type ReturnMailKind } from './returns.mail';

export type ReturnRow = typeof orderReturns.$inferSelect;

/** What a return step hands its flow: the record, its order, and (on acceptance) the pieces to put back. */
export interface ReturnInHand {
  ret: ReturnRow;
  order: OrderRow;
  pieces: PiecesBack[];
}

/**
 * The orders module's side of returns (docs/product.md "Returns"): the record and its moves, each a conditional
 * UPDATE along common/domain/returns.ts in the caller's transaction; the return-order flow
 * (server/flows/return-order.ts) adds the store credit and the pieces back on the shelf.
 */
export function createReturnsService(deps: {
  db: Db;
  clock: Clock;
  shopName: string;
  /** The shop's address (PUBLIC_URL): the mails' mark, shop and refund-policy links. */
  shopUrl?: string;
  supportEmail: string;
  /** SHOP_TIME_ZONE: the ship-back date in mails is the shop's calendar. */
  timeZone: string;
  /** The orders service's mail queue (sent after the commit, drained on shutdown; the support line added). */
  send: (message: MailMessage, orderNumber: string, what: string) => void;
  orderUrl: (orderNumber: string) => string;
}) {
  const { db, clock } = deps;

  async function itemsOf(tx: Tx | Db, orderId: string): Promise<OrderItemRow[]> {
    return tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
  }

  function toRecord(r: ReturnRow, items: readonly OrderItemRow[]): ReturnRecord {
    const byId = new Map(items.map((i) => [i.id, i]));
    return {
      id: r.id,
      status: r.status as ReturnStatus,
      reason: r.reason,
      lines: r.lines.map((l) => ({ itemId: l.orderItemId, productName: byId.get(l.orderItemId)?.productName ?? '', quantity: l.quantity, editionNumbers: l.editionNumbers })),
      credit: formatMoney(r.creditCents),
      shipBackBy: r.shipBackBy?.toISOString() ?? null,
      note: r.note,
      createdAt: r.createdAt.toISOString(),
    };
  }

  async function list(orderId: string): Promise<ReturnRecord[]> {
    const [rows, items] = await Promise.all([
      db.select().from(orderReturns).where(eq(orderReturns.orderId, orderId)).orderBy(asc(orderReturns.createdAt)),
      itemsOf(db, orderId),
    ]);
    return rows.map((r) => toRecord(r, items));
  }

  /** Moves a return of this order `to` along its table, once (null: it is not in a state that moves there). */
  async function move(tx: Tx, orderId: string, returnId: string, to: ReturnStatus, set: Partial<typeof orderReturns.$inferInsert> = {}) {
    const [row] = await tx
      .update(orderReturns)
      .set({ ...set, status: to, updatedAt: sql`${clock.sqlNow()}` })
      .where(and(eq(orderReturns.id, returnId), eq(orderReturns.orderId, orderId), inArray(orderReturns.status, returnSourcesOf(to))))
      .returning();
    return row ?? null;
  }

  async function lockOrder(tx: Tx, where: ReturnType<typeof eq>): Promise<OrderRow | null> {
    const [row] = await tx.select().from(orders).where(where).for('update');
    return row ?? null;
  }

  /** The returned pieces as the mail shows them: image, options and edition numbers. */
  function returnedPieces(r: ReturnRow, items: readonly OrderItemRow[]): MailItem[] {
    const byId = new Map(items.map((i) => [i.id, i]));
    return r.lines.flatMap((l) => {
      const item = byId.get(l.orderItemId);
      if (!item) return [];
      return [
        {
          name: item.productName,
          detail: formatLineOptions(item) || undefined,
          edition: formatEditionNumbers(l.editionNumbers, item.editionSize),
          quantity: l.quantity,
          imageUrl: absoluteUrl(deps.shopUrl, item.productImage),
        },
      ];
    });
  }

  function mail(kind: ReturnMailKind, order: OrderRow, ret: ReturnRow, items: readonly OrderItemRow[]): void {
    deps.send(
      renderReturnMail(kind, { order, ret: toRecord(ret, items), pieces: returnedPieces(ret, items), shopName: { shopName: deps.shopName, shopUrl: deps.shopUrl }, supportEmail: deps.supportEmail, orderUrl: deps.orderUrl(order.orderNumber), timeZone: deps.timeZone }),
      order.orderNumber,
      `return ${kind}`,
    );
  }

  /** Edition numbers of each line already in an open or accepted return. */
  function takenOf(rows: readonly ReturnRow[]): Map<string, Set<number>> {
    const taken = new Map<string, Set<number>>();
    for (const r of rows) {
      if (!([...OPEN_RETURN_STATUSES, 'accepted'] as string[]).includes(r.status)) continue;
      for (const l of r.lines) for (const n of l.editionNumbers) (taken.get(l.orderItemId) ?? taken.set(l.orderItemId, new Set()).get(l.orderItemId)!).add(n);
    }
    return taken;
  }

  return {
    list,
    /** Edition numbers of each line of the order that came back in an accepted return (no longer the buyer's). */
    async returnedPieces(orderId: string): Promise<Map<string, Set<number>>> {
      const rows = await db.select().from(orderReturns).where(and(eq(orderReturns.orderId, orderId), eq(orderReturns.status, 'accepted')));
      return takenOf(rows);
    },
    /** The order page's returns: the records, the lines with what is left to return, and the window's end while open. */
    async view(orderId: string, finalSale: ReadonlySet<string>): Promise<ReturnsView> {
      const [[order], rows, items] = await Promise.all([
        db.select().from(orders).where(eq(orders.id, orderId)),
        db.select().from(orderReturns).where(eq(orderReturns.orderId, orderId)).orderBy(asc(orderReturns.createdAt)),
        itemsOf(db, orderId),
      ]);
      const taken = takenOf(rows);
      const open = !!order && mayRequestReturn(order, clock.now());
      return {
        returns: rows.map((r) => toRecord(r, items)),
        lines: items
          .filter((i) => !i.cancelledAt)
          .map((i) => ({
            itemId: i.id,
            productName: i.productName,
            selectedSize: i.selectedSize,
            left: i.editionNumbers.filter((n) => !taken.get(i.id)?.has(n)).length,
            finalSale: !!i.productId && finalSale.has(i.productId),
          })),
        requestUntil: open && order.deliveredAt ? returnRequestEnds(order.deliveredAt).toISOString() : null,
      };
    },
    /** The order's own id by its number (the order page), or null. */
    async orderIdOf(orderNumber: string): Promise<{ id: string; productIds: string[] } | null> {
      const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.orderNumber, orderNumber));
      if (!row) return null;
      const items = await itemsOf(db, row.id);
      return { id: row.id, productIds: items.flatMap((i) => (i.productId ? [i.productId] : [])) };
    },

    /** In the owner's status change (orders.service): the first time an order becomes delivered, by the database's clock. */
    async stampDelivered(tx: Tx, ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await tx
        .update(orders)
        .set({ deliveredAt: sql`${clock.sqlNow()}` })
        .where(and(inArray(orders.id, [...ids]), eq(orders.status, 'delivered'), isNull(orders.deliveredAt)));
    },

    /**
     * The buyer asks (one transaction, the order row locked so two asks cannot both take the same pieces):
     * delivered and within the window (the database's clock), every line of this order, not a final sale
     * (`finalSale`: the product ids the catalogue marks so), and no more pieces than received and not already
     * in an open or accepted return. The pieces asked for are the line's last edition numbers not yet asked for.
     */
    async request(orderNumber: string, body: ReturnRequestBody, finalSale: ReadonlySet<string>): Promise<void> {
      await db.transaction(async (tx) => {
        const order = await lockOrder(tx, eq(orders.orderNumber, orderNumber));
        if (!order) throw notFound(ORDER_NOT_FOUND);
        if (order.status !== 'delivered' || !order.deliveredAt) throw conflict(RETURN_MESSAGES.notDelivered);
        if (!mayRequestReturn(order, clock.now())) throw conflict(RETURN_MESSAGES.windowClosed);
        const items = await itemsOf(tx, order.id);
        const taken = takenOf(await tx.select().from(orderReturns).where(eq(orderReturns.orderId, order.id)));
        const lines: ReturnedLine[] = [];
        for (const want of body.lines) {
          const item = items.find((i) => i.id === want.itemId);
          if (!item || item.cancelledAt) throw new HttpError(400, RETURN_MESSAGES.unknownLine);
          if (item.productId && finalSale.has(item.productId)) throw conflict(RETURN_MESSAGES.finalSale(item.productName));
          if (lines.some((l) => l.orderItemId === item.id)) throw new HttpError(400, RETURN_MESSAGES.unknownLine);
          const free = item.editionNumbers.filter((n) => !taken.get(item.id)?.has(n));
          if (want.quantity > item.quantity) throw new HttpError(400, RETURN_MESSAGES.tooMany(item.productName));
          if (want.quantity > free.length) throw conflict(RETURN_MESSAGES.alreadyAsked(item.productName));
          lines.push({ orderItemId: item.id, quantity: want.quantity, editionNumbers: free.slice(free.length - want.quantity) });
        }
        await tx.insert(orderReturns).values({ orderId: order.id, reason: body.reason, lines });
      });
    },

    /**
     * The owner's decision or inspection, in the flow's transaction: the order locked, the return moved once.
     * A retried action on a return already there answers `again` (nothing written, no mail); any other state is a 409.
     * On acceptance: the credit (what was paid for those pieces, shipping not refunded) and the pieces to put back.
     */
    async act(
      tx: Tx,
      orderId: string,
      returnId: string,
      to: 'approved' | 'declined' | 'accepted' | 'rejected',
      note: string | null,
    ): Promise<{ inHand: ReturnInHand; again: boolean }> {
      const order = await lockOrder(tx, eq(orders.id, orderId));
      if (!order) throw notFound(ORDER_NOT_FOUND);
      const [current] = await tx.select().from(orderReturns).where(and(eq(orderReturns.id, returnId), eq(orderReturns.orderId, orderId)));
      if (!current) throw notFound(RETURN_MESSAGES.notFound);
      if (current.status === to) return { inHand: { ret: current, order, pieces: [] }, again: true };
      const items = await itemsOf(tx, orderId);
      let set: Partial<typeof orderReturns.$inferInsert> = { note };
      if (to === 'approved') {
        const now = new Date(clock.now());
        set = { ...set, approvedAt: now, shipBackBy: shipBackBy(now) };
      }
      if (to === 'accepted') {
        const byId = new Map(items.map((i) => [i.id, i]));
        // The refund flow's per-line rule: the price as paid (discount and tax spread in), shipping not refunded.
        // Never more than is left of the payment after refunds and earlier returns (after-sale.repository).
        const creditCents = Math.min(
          refundableCents(order.totalCents, await givenBackOf(tx, orderId)),
          linesRefundCents(
            order,
            current.lines.map((l) => ({ unitPriceCents: byId.get(l.orderItemId)?.productPriceCents ?? 0, quantity: l.quantity })),
          ),
        );
        set = { ...set, creditCents };
      }
      // "received and inspected" is one step for the owner: approved → received → accepted | rejected.
      if ((to === 'accepted' || to === 'rejected') && current.status === 'approved') {
        if (!(await move(tx, orderId, returnId, 'received'))) throw conflict(RETURN_MESSAGES.wrongState);
      }
      const ret = await move(tx, orderId, returnId, to, set);
      if (!ret) throw conflict(RETURN_MESSAGES.wrongState);
      const byId = new Map(items.map((i) => [i.id, i]));
      const pieces: PiecesBack[] =
        to === 'accepted'
          ? ret.lines.flatMap((l) => {
              const item = byId.get(l.orderItemId);
              return item?.productId
                ? [{ productId: item.productId, quantity: l.editionNumbers.length, editionNumbers: [...l.editionNumbers], size: item.selectedSize, colour: item.selectedColor, checkoutId: order.checkoutId }]
                : [];
            })
          : [];
      return { inHand: { ret, order, pieces }, again: false };
    },

    /** The buyer's mail after the owner's move committed (approved with the deadline, declined, accepted, rejected). */
    async mailAfter(inHand: ReturnInHand): Promise<void> {
      const kind = inHand.ret.status as ReturnMailKind;
      mail(kind, inHand.order, inHand.ret, await itemsOf(db, inHand.order.id));
    },

    /**
     * Background job: a reminder a day before the ship-back deadline (once), and an approved return past it
     * expires. Both by the database's clock; each row moved in a conditional UPDATE, so two instances do it once.
     */
    async sweep(): Promise<{ reminded: number; expired: number }> {
      const now = clock.sqlNow();
      const expired = await db
        .update(orderReturns)
        .set({ status: 'expired', updatedAt: sql`${now}` })
        .where(and(inArray(orderReturns.status, returnSourcesOf('expired')), lte(orderReturns.shipBackBy, sql`${now}`)))
        .returning();
      const due = await db
        .update(orderReturns)
        .set({ remindedAt: sql`${now}` })
        .where(
          and(
            eq(orderReturns.status, 'approved'),
            isNull(orderReturns.remindedAt),
            lte(sql`${orderReturns.shipBackBy} - interval '1 day'`, sql`${now}`),
          ),
        )
        .returning();
      for (const [kind, rows] of [['expired', expired], ['reminder', due]] as const) {
        for (const ret of rows) {
          const [order] = await db.select().from(orders).where(eq(orders.id, ret.orderId));
          if (order) mail(kind, order, ret, await itemsOf(db, order.id));
        }
      }
      return { reminded: due.length, expired: expired.length };
    },
    /** When the reminder of a return approved at `approvedAt` goes (the job's rule, for the docs and tests). */
    reminderAt,
  };
}

export type ReturnsService = ReturnType<typeof createReturnsService>;
