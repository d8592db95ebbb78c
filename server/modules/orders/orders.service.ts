import { isDisputeOpen, type RefundDestination } from '../../../common/domain/after-sale';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import type { Order, OrderStatus } from '../../../common/contracts/checkout';
import type { Certificate, FindOrderBody, OrderView } from '../../../common/contracts/orders';
import type { Mailer, MailMessage } from '../../lib/mailer';
import type { MailBrand } from '../../lib/mail-template';
import { formatMoney } from '../../../common/domain/money';
import { generateOrderNumber } from '../../../common/domain/order-number';
import { mailboxKey } from '../../../common/domain/identity';
import { isShipLate, shipByDate, shopClock } from '../../../common/domain/ship-by';
import { PAGE_PATHS, pathTo } from '../../../common/domain/site-routes';
import { renderAddressChangedNotice, renderAfterSaleNotice, renderOrderConfirmation, renderOrderLinkMail, renderShippedNotice, withSupport } from './order-email';
import { AFTER_SALE_MESSAGES } from '../../../common/contracts/after-sale';
import { HttpError } from '../../lib/http-error';
import { createAfterSaleService, toDisputeRecord, toRefundRecord } from './after-sale.service';
import { fullyCancelled, type DisputeRow, type RefundRow } from './after-sale.repository';
import { createOrderLinks } from './order-links';
import { trackingUrlOf } from './tracking';
import { addressLine, addressOf, createAddressChangeService } from './address-change.service';
import { createReturnsService } from './returns.service';
import { buyerWindowEnds, mayChangeOrder } from '../../../common/domain/order-address';
import type { Clock } from '../../lib/db-clock';
import type { KeyService } from '../../lib/keys';
import { shopTime } from '../../lib/shop-time';
import {
  findItemWithOrder,
  findOrderByNumber,
  setOrderShipBy,
  countOrderRows,
  lockOrders,
  setOrdersStatus,
  setOrderTracking,
  findLatestOrderForSession,
  findOrderById,
  findOrderByIntent,
  findOrderNumberByIntent,
  insertOrder,
  insertOrderItems,
  listItemsOf,
  listOrderRows,
  setOrderStatus,
  type OrderItemRow,
  type OrderRow,
  type OrderRowFilter,
} from './orders.repository';
import { sourcesOf } from '../../../common/domain/checkout-lifecycle';
import { BULK_SHIP_NEEDS_TRACKING } from '../../../common/contracts/admin';

/** `today`: the shop's calendar date, to flag orders past their ship-by date (the admin's list). */
export function toOrder(
  row: OrderRow,
  items: readonly OrderItemRow[],
  today?: string,
  records?: { refunds: readonly RefundRow[]; disputes: readonly DisputeRow[] },
): Order {
  return {
    id: row.id,
    orderNumber: row.orderNumber,
    stripePaymentIntentId: row.stripePaymentIntentId,
    customerEmail: row.customerEmail,
    customerFirstName: row.customerFirstName,
    customerLastName: row.customerLastName,
    customerPhone: row.customerPhone,
    shippingAddress: row.shippingAddress,
    shippingCity: row.shippingCity,
    shippingState: row.shippingState,
    shippingZip: row.shippingZip,
    shippingCountry: row.shippingCountry,
    shippingMethod: row.shippingMethod,
    // Cents in the row, the contract's decimal strings on the wire (docs/decisions/016-money-minor-units.md).
    subtotal: formatMoney(row.subtotalCents),
    discountCode: row.discountCode,
    discountAmount: formatMoney(row.discountAmountCents),
    tax: formatMoney(row.taxCents),
    shipping: formatMoney(row.shippingCents),
    total: formatMoney(row.totalCents),
    ...(row.storeCreditCents > 0 ? { storeCredit: formatMoney(row.storeCreditCents) } : {}),
    status: row.status,
    isTest: row.isTest,
    trackingNumber: row.trackingNumber,
    carrier: row.carrier,
    trackingUrl: trackingUrlOf(row.carrier, row.trackingNumber),
    shipBy: row.shipBy,
    shipLate: today ? isShipLate(row.shipBy, row.status, today) : false,
    items: items.map((i) => ({
      productName: i.productName,
      productPrice: formatMoney(i.productPriceCents),
      quantity: i.quantity,
      selectedSize: i.selectedSize,
      selectedColor: i.selectedColor,
      productImage: i.productImage,
      editionNumbers: i.editionNumbers,
      editionSize: i.editionSize,
      id: i.id,
      cancelled: !!i.cancelledAt,
    })),
    ...(records ? { refunds: records.refunds.map(toRefundRecord), disputes: records.disputes.map(toDisputeRecord) } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type OrderFilter = { status?: OrderStatus; q?: string; late?: boolean };

/** Statuses that say the pieces left the shop. */
const SHIPPED = new Set<string>(['shipped', 'delivered']);

/**
 * A paid checkout as the order is written from it (the checkout module's row fits as it is; the
 * complete-purchase flow passes it, server/flows/complete-purchase.ts).
 */
export interface PaidCheckout {
  id: string;
  sessionId: string;
  customer: {
    email: string;
    firstName: string;
    lastName: string;
    phone: string | null;
    shippingAddress: string;
    shippingCity: string;
    shippingState: string;
    shippingZip: string;
    shippingCountry: string;
  };
  shippingMethod: string;
  subtotalCents: number;
  discountCode: string | null;
  discountAmountCents: number;
  taxCents: number;
  shippingCents: number;
  totalCents: number;
  /** What the card pays (a checkout's; the total less store credit held). Absent: the card paid it all. */
  amountCents?: number;
  lines: ReadonlyArray<{
    productId: string;
    name: string;
    unitPriceCents: number;
    quantity: number;
    selectedSize: string | null;
    selectedColor: string | null;
    image: string | null;
  }>;
}

/**
 * Reads and admin updates of orders (orders are only ever created by fulfilment). With a mailer, an order
 * that becomes "shipped" gets the shipped e-mail (with its tracking link), sent after the change commits.
 */
export function createOrdersService(deps: {
  db: Db;
  mailer?: Mailer;
  shopName?: string;
  log?: FastifyBaseLogger;
  /** The shop's key service: keys the order links (order-links.ts) alike in every instance. */
  keys: KeyService;
  /** The shop's address for links in mails (PUBLIC_URL). */
  baseUrl?: string;
  /** SHOP_TIME_ZONE: ship-by dates and "made on" dates are the shop's calendar. */
  timeZone?: string;
  /** SUPPORT_EMAIL: every order mail names it (order-email.ts withSupport). */
  supportEmail?: string;
  /** The database's clock: the buyer's hour to change an order is read from it (server/lib/db-clock.ts). */
  clock: Clock;
}) {
  const { db } = deps;
  const shopName = deps.shopName ?? 'FIFTY';
  /** Who every order mail is from (server/lib/mail-template.ts): its support line comes from withSupport. */
  const brand: MailBrand = { shopName, shopUrl: deps.baseUrl };
  const timeZone = deps.timeZone ?? 'UTC';
  const afterSale = createAfterSaleService({ db });
  const links = createOrderLinks(deps.keys);
  const pendingMail = new Set<Promise<void>>();
  const clock = deps.clock;
  const addressChanges = createAddressChangeService({ db });
  // Returns (docs/product.md "Returns"): their mails go through this service's queue, declared below.
  const returns = createReturnsService({
    db,
    clock,
    shopName,
    shopUrl: deps.baseUrl,
    supportEmail: deps.supportEmail ?? 'support@fifty.local',
    timeZone,
    send: (message, orderNumber, what) => sendLater(message, orderNumber, what),
    orderUrl: (orderNumber) => orderUrl(orderNumber),
  });

  /** The order page's path, with the key that opens this order and nothing else. */
  const orderPath = (orderNumber: string) => `${pathTo(PAGE_PATHS.order, { orderNumber })}?key=${links.viewKey(orderNumber)}`;
  const orderUrl = (orderNumber: string) => `${(deps.baseUrl ?? '').replace(/\/+$/, '')}${orderPath(orderNumber)}`;
  const today = () => shopClock(new Date(), timeZone).date;

  const supported = (message: MailMessage) => withSupport(message, deps.supportEmail ?? 'support@fifty.local');

  function sendLater(message: MailMessage, orderNumber: string, what: string): void {
    const mailer = deps.mailer;
    if (!mailer) return;
    message = supported(message);
    // What triggered it is committed (or only asked): a mail failure is logged (without the address), never undoes it.
    const p = mailer
      .send(message)
      .catch((err: unknown) => deps.log?.error({ err, orderNumber }, `sending the ${what} mail failed`))
      .finally(() => pendingMail.delete(p));
    pendingMail.add(p);
  }

  /** The shop's today for the late filter (the same day isShipLate flags on the card). */
  const rowFilter = ({ late, ...filter }: OrderFilter): OrderRowFilter => (late ? { ...filter, lateOn: today() } : filter);

  function mailShipped(orders: readonly Order[]): void {
    for (const order of orders) sendLater(renderShippedNotice(order, brand, orderUrl(order.orderNumber)), order.orderNumber, 'shipped');
  }

  function toView(row: OrderRow, items: readonly OrderItemRow[], refunds: readonly RefundRow[], disputes: readonly DisputeRow[], returned?: ReadonlyMap<string, ReadonlySet<number>>): OrderView {
    const given = refunds.filter((r) => r.status !== 'failed');
    return {
      orderNumber: row.orderNumber,
      status: row.status,
      placedAt: row.createdAt.toISOString(),
      shipBy: row.shipBy,
      isTest: row.isTest,
      customerName: `${row.customerFirstName} ${row.customerLastName}`,
      shippingAddress: {
        address: row.shippingAddress,
        city: row.shippingCity,
        state: row.shippingState,
        zip: row.shippingZip,
        country: row.shippingCountry,
      },
      shippingMethod: row.shippingMethod,
      items: items.map((i) => ({
        productName: i.productName,
        productPrice: formatMoney(i.productPriceCents),
        lineTotal: formatMoney(i.productPriceCents * i.quantity),
        quantity: i.quantity,
        selectedSize: i.selectedSize,
        selectedColor: i.selectedColor,
        productImage: i.productImage,
        editionSize: i.editionSize,
        // A cancelled line's pieces went back to the shop: no certificate is theirs any more.
        // A piece that came back in an accepted return is the shop's again (and may be sold with its number).
        pieces: i.cancelledAt ? [] : i.editionNumbers.filter((n) => !returned?.get(i.id)?.has(n)).map((n) => ({ editionNumber: n, certificateId: links.certificateId(i.id, n) })),
        cancelled: !!i.cancelledAt,
      })),
      subtotal: formatMoney(row.subtotalCents),
      discountCode: row.discountCode,
      discountAmount: formatMoney(row.discountAmountCents),
      tax: formatMoney(row.taxCents),
      shipping: formatMoney(row.shippingCents),
      total: formatMoney(row.totalCents),
      ...(row.storeCreditCents > 0 ? { storeCredit: formatMoney(row.storeCreditCents) } : {}),
      tracking: row.trackingNumber
        ? { number: row.trackingNumber, carrier: row.carrier, url: trackingUrlOf(row.carrier, row.trackingNumber) }
        : null,
      refunds: given.map((r) => ({ amount: formatMoney(r.amountCents), status: r.status as 'requested' | 'succeeded', createdAt: r.createdAt.toISOString(), destination: r.destination as RefundDestination })),
      refunded: formatMoney(given.filter((r) => r.status === 'succeeded').reduce((a, r) => a + r.amountCents, 0)),
      disputed: disputes.some((d) => isDisputeOpen(d.status)),
      changeUntil: mayChangeOrder('buyer', { status: row.status, placedAt: row.createdAt }, clock.now())
        ? { at: buyerWindowEnds(row.createdAt).toISOString(), time: shopTime(buyerWindowEnds(row.createdAt), timeZone).short }
        : null,
    };
  }

  async function withItems(rows: OrderRow[]): Promise<Order[]> {
    const items = await listItemsOf(
      db,
      rows.map((r) => r.id),
    );
    const byOrder = new Map<string, OrderItemRow[]>();
    for (const item of items) byOrder.set(item.orderId, [...(byOrder.get(item.orderId) ?? []), item]);
    const day = today();
    const [records, changes] = await Promise.all([afterSale.recordsOf(rows.map((r) => r.id)), addressChanges.historyOf(rows.map((r) => r.id))]);
    return rows.map((r) => ({
      ...toOrder(r, byOrder.get(r.id) ?? [], day, { refunds: records.refunds.get(r.id) ?? [], disputes: records.disputes.get(r.id) ?? [] }),
      addressChanges: (changes.get(r.id) ?? []).map((c) => ({
        changedBy: c.changedBy as 'buyer' | 'owner',
        changedAt: c.createdAt.toISOString(),
        from: addressLine(c.oldAddress),
        to: addressLine(c.newAddress),
      })),
    }));
  }

  async function one(row: OrderRow | null): Promise<Order | null> {
    return row ? (await withItems([row]))[0]! : null;
  }

  return {
    /** Refunds and disputes (ADR 021): the records the cancel and refund flows write, in their transactions. */
    afterSale,
    /** Newest first; `q` matches the order number, e-mail or name (case-insensitive, partial). */
    async listOrders(filter: OrderFilter = {}): Promise<Order[]> {
      return withItems(await listOrderRows(db, rowFilter(filter)));
    },
    /** One page of the filtered list, newest first, with the count over all pages. */
    async listOrdersPage(filter: OrderFilter, page: { limit: number; offset: number }): Promise<{ orders: Order[]; total: number }> {
      const where = rowFilter(filter);
      const [rows, total] = await Promise.all([listOrderRows(db, where, page), countOrderRows(db, where)]);
      return { orders: await withItems(rows), total };
    },
    async getOrder(id: string): Promise<Order | null> {
      return one(await findOrderById(db, id));
    },
    /** Any status regardless of the current one (docs/product.md §4); null when there is no such order. */
    async updateStatus(
      id: string,
      status: OrderStatus,
      tracking: { trackingNumber?: string | null; carrier?: string | null } = {},
    ): Promise<Order | null> {
      const changed = await db.transaction(async (tx) => {
        const [before] = await lockOrders(tx, [id]);
        if (!before) return null;
        // The owner's cancellation won the race (its lock came first): its refunded pieces never ship.
        if (SHIPPED.has(status) && (await fullyCancelled(tx, [id])).has(id)) throw new HttpError(409, AFTER_SALE_MESSAGES.cancelledNotShippable);
        await setOrderTracking(tx, id, tracking);
        const row = await setOrderStatus(tx, id, status);
        await returns.stampDelivered(tx, [id]);
        return row ? { row, becameShipped: status === 'shipped' && before.status !== 'shipped' } : null;
      });
      if (!changed) return null;
      const order = await one(changed.row);
      if (order && changed.becameShipped) mailShipped([order]);
      return order;
    },
    /**
     * One status for many orders, all or none (one transaction); the shipped mail for each newly shipped.
     * "Shipped" needs a tracking number for each order it ships (given here or already on it): the shop
     * promises one by e-mail, so an order without one refuses the whole change, naming it.
     */
    async updateStatusMany(
      ids: readonly string[],
      status: OrderStatus,
      tracking: ReadonlyArray<{ orderId: string; trackingNumber: string; carrier: string }> = [],
    ): Promise<{ updated: number }> {
      const unique = [...new Set(ids)];
      const given = new Map(tracking.filter((t) => unique.includes(t.orderId)).map((t) => [t.orderId, t]));
      const { rows, shippedIds } = await db.transaction(async (tx) => {
        const before = await lockOrders(tx, unique);
        // Orders the owner cancelled and refunded are left out of a bulk "shipped" (their pieces are back on the shelf).
        const cancelled = SHIPPED.has(status) ? await fullyCancelled(tx, unique) : new Set<string>();
        if (status === 'shipped') {
          const shipping = before.filter((o) => o.status !== 'shipped' && !cancelled.has(o.id) && (sourcesOf('order', status) as readonly string[]).includes(o.status));
          const missing = shipping.filter((o) => !given.has(o.id) && !o.trackingNumber).map((o) => o.orderNumber);
          if (missing.length > 0) throw new HttpError(400, BULK_SHIP_NEEDS_TRACKING(missing));
          for (const o of shipping) {
            const t = given.get(o.id);
            if (t) await setOrderTracking(tx, o.id, { trackingNumber: t.trackingNumber, carrier: t.carrier });
          }
        }
        const rows = await setOrdersStatus(
          tx,
          unique.filter((i) => !cancelled.has(i)),
          status,
        );
        if (status === 'delivered') await returns.stampDelivered(tx, rows.map((r) => r.id));
        const wasShipped = new Set(before.filter((o) => o.status === 'shipped').map((o) => o.id));
        return { rows, shippedIds: status === 'shipped' ? rows.filter((r) => !wasShipped.has(r.id)).map((r) => r.id) : [] };
      });
      if (shippedIds.length > 0) mailShipped(await withItems(rows.filter((r) => shippedIds.includes(r.id))));
      return { updated: rows.length };
    },
    /**
     * The buyer's mail after a cancellation or refund (the refund-order flow asks once the refund is through),
     * with the order page's link; sent after the answer, drained with the other order mails on shutdown.
     */
    mailAfterSale(
      row: Pick<OrderRow, 'orderNumber' | 'customerEmail' | 'customerFirstName' | 'isTest'>,
      what: { kind: 'cancelled' | 'lines-cancelled' | 'refunded'; amountCents: number; lines: string[]; destination?: 'card' | 'credit' },
    ): void {
      sendLater(renderAfterSaleNotice(row, what, brand, orderUrl(row.orderNumber)), row.orderNumber, 'after-sale');
    },
    /** The delivery address after the order (the change-order-address flow locks, changes and keeps it). */
    addressChanges,
    /** Returns by the refund policy (the return-order flow asks, approves and accepts them). */
    returns,
    /** Whether `key` opens order `orderNumber` (the key of its page's link). */
    opens: (orderNumber: string, key: string | undefined) => links.isViewKey(orderNumber, key),
    /** The buyer's "address changed" mail with the order page's link, sent after the change commits. */
    mailAddressChanged(row: OrderRow): void {
      sendLater(renderAddressChangedNotice(row, addressOf(row), brand, orderUrl(row.orderNumber)), row.orderNumber, 'address changed');
    },
    /** Waits for shipped e-mails still being sent (shutdown, tests). */
    async drainMail(): Promise<void> {
      await Promise.allSettled([...pendingMail]);
    },
    async latestForSession(sessionId: string | null): Promise<Order | null> {
      return sessionId ? one(await findLatestOrderForSession(db, sessionId)) : null;
    },
    orderPath,
    /** Who the shop's mails are from (a flow's order mail, e.g. the late payment's refund notice, uses it). */
    mailBrand: brand,
    /** The confirmation mail of an order just made, with its order page's link. */
    confirmationMail(order: Order): MailMessage {
      return supported(renderOrderConfirmation(order, brand, orderUrl(order.orderNumber)));
    },
    /**
     * The buyer's view of an order, only with the key signed for viewing this order; null for anything
     * else (no such order, a forged key, another order's key, a key made for another purpose), alike.
     */
    async viewOrder(orderNumber: string, key: string | undefined): Promise<OrderView | null> {
      if (!links.isViewKey(orderNumber, key)) return null;
      const row = await findOrderByNumber(db, orderNumber);
      if (!row) return null;
      const [items, records, returned] = await Promise.all([listItemsOf(db, [row.id]), afterSale.recordsOf([row.id]), returns.returnedPieces(row.id)]);
      return toView(row, items, records.refunds.get(row.id) ?? [], records.disputes.get(row.id) ?? [], returned);
    },
    /**
     * "Find my order": mails the order page's link to the order's own address when the number and the
     * e-mail (folded: case, dots and +tags of one mailbox) match. The caller learns nothing either way,
     * and the mail goes out after the answer so its time tells nothing either.
     */
    async requestLink(body: FindOrderBody): Promise<void> {
      const row = await findOrderByNumber(db, body.orderNumber.toUpperCase());
      if (!row || mailboxKey(row.customerEmail) !== mailboxKey(body.email)) return;
      sendLater(renderOrderLinkMail(row, brand, orderUrl(row.orderNumber)), row.orderNumber, 'order link');
    },
    /** A piece's public certificate; null for an id this shop did not sign, a piece not in its line, or a cancelled order. */
    async certificate(id: string): Promise<Certificate | null> {
      const named = links.readCertificateId(id);
      if (!named) return null;
      const found = await findItemWithOrder(db, named.orderItemId);
      if (!found || found.status === 'cancelled' || found.item.cancelledAt || !found.item.editionNumbers.includes(named.editionNumber)) return null;
      if ((await returns.returnedPieces(found.item.orderId)).get(found.item.id)?.has(named.editionNumber)) return null;
      return {
        productName: found.item.productName,
        productImage: found.item.productImage,
        editionNumber: named.editionNumber,
        editionSize: found.item.editionSize,
        madeOn: shopClock(found.createdAt, timeZone).date,
      };
    },
    async findByIntent(intentId: string): Promise<Order | null> {
      return one(await findOrderByIntent(db, intentId));
    },
    /** The order number of an intent's order, or null (no order yet). */
    orderNumberOf(intentId: string): Promise<string | null> {
      return findOrderNumberByIntent(db, intentId);
    },
    /** Inside the order's transaction: the order already made for this intent (a repeated completion), or null. */
    async existingInTransaction(tx: Tx, intentId: string): Promise<Order | null> {
      const again = await findOrderByIntent(tx, intentId);
      return again ? toOrder(again, []) : null;
    },
    /**
     * Inside the order's transaction (the complete-purchase flow's): writes the order of a paid checkout and
     * its lines with their edition numbers. `isTest`: paid through the offline gateway (no money moved).
     */
    async record(
      tx: Tx,
      paid: PaidCheckout,
      intentId: string,
      editions: ReadonlyArray<{ numbers: number[]; editionSize: number }>,
      opts: { isTest: boolean; limitedDrop?: boolean },
    ): Promise<Order> {
      const c = paid.customer;
      const row = await insertOrder(tx, {
        orderNumber: generateOrderNumber(),
        sessionId: paid.sessionId,
        checkoutId: paid.id,
        stripePaymentIntentId: intentId,
        customerEmail: c.email,
        customerFirstName: c.firstName,
        customerLastName: c.lastName,
        customerPhone: c.phone,
        shippingAddress: c.shippingAddress,
        shippingCity: c.shippingCity,
        shippingState: c.shippingState,
        shippingZip: c.shippingZip,
        shippingCountry: c.shippingCountry,
        shippingMethod: paid.shippingMethod,
        subtotalCents: paid.subtotalCents,
        discountCode: paid.discountCode,
        discountAmountCents: paid.discountAmountCents,
        taxCents: paid.taxCents,
        shippingCents: paid.shippingCents,
        totalCents: paid.totalCents,
        storeCreditCents: paid.amountCents === undefined ? 0 : Math.max(0, paid.totalCents - paid.amountCents),
        isTest: opts.isTest,
      });
      if (!row) throw new Error(`order for ${intentId} appeared while its checkout was locked`);
      // Kept, not recomputed: the date the buyer was promised stays put (orders.tables.ts, shipBy).
      row.shipBy = shipByDate(row.createdAt, { limitedDrop: opts.limitedDrop ?? false, timeZone });
      await setOrderShipBy(tx, row.id, row.shipBy);
      const items = await insertOrderItems(
        tx,
        paid.lines.map((line, i) => ({
          orderId: row.id,
          productId: line.productId,
          productName: line.name,
          productPriceCents: line.unitPriceCents,
          quantity: line.quantity,
          selectedSize: line.selectedSize,
          selectedColor: line.selectedColor,
          productImage: line.image,
          editionNumbers: editions[i]!.numbers,
          editionSize: editions[i]!.editionSize,
        })),
      );
      return toOrder(row, items);
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
