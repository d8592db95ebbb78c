import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database, DbOrTx } from './db/client';
import { createJobRunner } from './jobs/job-runner';
import { createRateLimitCounter, type RateLimitCounterOptions } from './modules/rate-limit/rate-limit.store';
import { createDeclineBudget } from './modules/rate-limit/decline-budget';
import { createBotCheckService } from './modules/bot-check/bot-check.service';
import { createCatalogChangeFeed } from './modules/catalog/catalog-changes';
import { createCatalogService } from './modules/catalog/catalog.service';
import { createMailer, type Mailer } from './modules/mail/mail.service';
import { createDiscountsService } from './modules/discounts/discounts.service';
import { createNewsletterService } from './modules/newsletter/newsletter.service';
import { createSeoService } from './modules/seo/seo.service';
import { createWishlistService } from './modules/wishlist/wishlist.service';
import { createSessionService, revokeAdminLogins } from './modules/session/session.service';
import { createSettingsService } from './modules/settings/settings.service';
import { createCartService } from './modules/cart/cart.service';
import { createCheckoutService } from './modules/checkout/checkout.service';
import { createRequestGate } from './lib/request-gate';
import { createKeyService } from './lib/keys';
import { createDbClock, createSteeredClock, shiftFromFile, type Clock } from './lib/db-clock';
import { createInventoryService } from './modules/inventory/inventory.service';
import { readSizeStock, sellVariant } from './modules/inventory/variants.repository';
import { createDrawsService } from './modules/draws/draws.service';
import { createEnterDrawFlow } from './flows/enter-draw';
import { createSettleDrawFlow } from './flows/settle-draw';
import { createDropsService } from './modules/drops/drops.service';
import { createLiveStockHub } from './modules/inventory/live-stock';
import { createEventStreamHub, DEFAULT_STREAMS_PER_INSTANCE } from './lib/event-stream-hub';
import { createAlertsService } from './modules/alerts/alerts.service';
import { createTurnMail } from './modules/drops/turn-mail';
import { createAddToCartFlow } from './flows/add-to-cart';
import type { MayBuyDeps } from './flows/assert-may-buy';
import { createChangeCartLineFlow } from './flows/change-cart-line';
import { createCompletePurchaseFlow } from './flows/complete-purchase';
import { createStartPaymentFlow } from './flows/start-payment';
import { assertShipsTo, createSaveCustomerInfoFlow } from './flows/ship-to-address';
import { createCancelOrderFlow } from './flows/cancel-order';
import { createChangeOrderAddressFlow } from './flows/change-order-address';
import { createReturnOrderFlow } from './flows/return-order';
import { createRefundOrderFlow, pauseAfterGatewayRefund } from './flows/refund-order';
import { createStoreCreditService } from './modules/store-credit/store-credit.service';
import { createCheckoutCreditFlow } from './flows/checkout-credit';
import { createOrdersService } from './modules/orders/orders.service';
import { createPaymentGateway } from './modules/payments/create-gateway';
import { createPaymentsService } from './modules/payments/payments.service';
import { createPurchaseLimitsService } from './modules/purchase-limits/purchase-limits.service';
import { createAdminService } from './modules/admin/admin.service';
import { createAdminProductsService } from './flows/admin-products';
import { createMoveShopperDataFlow } from './flows/admin-login';
import { createNotifyDemandFlow } from './flows/admin-notify-demand';
import { createImagesService, createObjectStore } from './modules/storage/images.service';
import type { ObjectStore } from './modules/storage/object-store';

/** How often each instance paces admissions and pushes waiting-room updates (updates reach shoppers within 1 s). */
export const DROP_TICK_MS = 300;

export interface ServiceOverrides {
  mailer?: Mailer;
  /** Image storage (default: S3 when S3_BUCKET is set, else local disk). */
  objectStore?: ObjectStore;
  /** The session secret every instance shares: the one key service (server/lib/keys.ts) derives every key from it. */
  sessionSecret: string;
  /** The clock of drop-day decisions (default: the database's, learned by server/lib/db-clock.ts); tests inject one. */
  clock?: Clock;
  /** How long a rate-limit count may take before the request passes uncounted (default 1 s). */
  rateLimitCounter?: RateLimitCounterOptions;
}

/** Wires every capability's service once; modules reach each other only through these. */
export async function createServices(config: Config, database: Database, log: FastifyBaseLogger, overrides: ServiceOverrides) {
  const { db } = database;
  // One key service, from the one required secret: every instance derives the same keys (server/lib/keys.ts).
  const keys = createKeyService(overrides.sessionSecret);
  const settings = createSettingsService(config);
  // Stock and product changes reach other instances sharing the database through LISTEN/NOTIFY.
  const catalog = createCatalogService(db, {
    changes: createCatalogChangeFeed({ pool: database.pool, log }),
    // The catalogue JSON carries each split product's pieces left per size (inventory's size runs, ADR 015).
    sizeStock: (ids) => readSizeStock(db, ids),
  });
  const onStockChanged = () => catalog.invalidate();
  const sessions = createSessionService(db);
  const mailOptions = { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: path.join(config.DATA_DIR, 'outbox'), log };
  // Mail is rendered on the requests' thread: it is a cold path (docs/decisions/025-performance-budget.md).
  const mailer = overrides.mailer ?? createMailer(mailOptions);
  const jobs = createJobRunner(log);
  // One clock for drop-day decisions (release, pass, hold expiry, admission): the database's, as an offset
  // to this instance's clock measured at start and every minute (ADR 010 "One clock").
  const measured =
    overrides.clock ?? createDbClock(db, { localNow: () => Date.now() + (config.isProduction ? 0 : config.TEST_CLOCK_OFFSET_MS) });
  // A browser test's spawned shop may be moved forward in time (never in production: config refuses it).
  const clock = !config.isProduction && config.TEST_CLOCK_FILE ? createSteeredClock(measured, shiftFromFile(config.TEST_CLOCK_FILE)) : measured;
  if ('sync' in clock && typeof clock.sync === 'function') {
    const sync = clock.sync.bind(clock) as () => Promise<void>;
    await sync().catch((err: unknown) => log.warn({ err }, 'database clock: first measurement failed; retried every minute'));
    jobs.every('sync-database-clock', 60_000, sync);
  }
  const discounts = createDiscountsService({ db });
  const newsletter = createNewsletterService({
    db,
    discounts,
    mailer,
    shopName: config.SHOP_NAME,
    publicUrl: config.PUBLIC_URL,
    supportEmail: config.SUPPORT_EMAIL,
    log,
    // Keys the hashes of folded mailboxes (one welcome code per inbox, ADR 013).
    keys,
  });
  // The draw (docs/draw.md, ADR 018): entries authorise a card; the `draws` job opens, closes, draws and
  // settles each due draw (captures paced, idempotent). Held pieces are sold by inventory's per-size statement.
  const draws = createDrawsService({ db, catalog, clock, log, secret: keys.drawEntrySecret() });
  const seo = createSeoService({
    catalog,
    settings,
    // Pages are cached for every visitor: they name the shop's own address, never a request's Host.
    publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    // The home hero and /drops say 'Live now' for the drop window (ADR 010's settings).
    dropTiming: { raffleMinutes: config.DROP_RAFFLE_MINUTES, windowMinutes: config.DROP_WINDOW_MINUTES },
    // Product pages show their draw from the first paint (the draws module, asked per page).
    draws: {
      publicDrawOfProduct: (productId) => draws.publicDrawOfProduct(productId),
      productDrawStamp: (productId) => draws.productDrawStamp(productId),
      // Pages with product cards: a drawn piece's card leads to its draw from the first paint.
      drawSales: () => draws.drawSales(),
      drawSalesStamp: () => draws.drawSalesStamp(),
    },
  });
  const wishlist = createWishlistService({ db, catalog });

  jobs.every('prune-sessions', 60 * 60 * 1000, () => sessions.pruneExpired());
  // Request counters of the route rate limits, shared by every instance (modules/rate-limit).
  const rateLimitCounter = createRateLimitCounter(db, overrides.rateLimitCounter);
  jobs.every('prune-rate-limits', 5 * 60 * 1000, () => rateLimitCounter.pruneExpired());
  // Proof-of-work bot check (newsletter): challenges signed with a key every instance derives alike.
  const botCheck = createBotCheckService({ db, keys, tries: config.POW_TRIES });
  jobs.every('prune-spent-pow-challenges', 15 * 60 * 1000, () => botCheck.pruneSpent());

  // Buying path (docs/architecture.md, Data flow of a drop): cart → checkout (holds) → gateway → fulfil → order.
  // One request per pooled connection.
  const gate = createRequestGate({ concurrency: 10 });
  const gateway = await createPaymentGateway(config, db, log, gate.outside);
  const inventory = createInventoryService({ db });
  // Inventory with its size runs (ADR 015, inventory's readSizeStock): Notify me per size and the waiting room read them.
  const sizedInventory = {
    ...inventory,
    sizeStock: (productIds: readonly string[], tx?: DbOrTx) => readSizeStock(tx ?? db, productIds),
  };
  // One event-stream hub for every stream this instance serves (live stock, the waiting room): one set of
  // caps, per instance and per network address (server/lib/event-stream-hub.ts).
  const streamHub = createEventStreamHub<unknown>({
    maxStreams: config.STREAMS_PER_INSTANCE ?? config.LIVE_STOCK_MAX_STREAMS ?? DEFAULT_STREAMS_PER_INSTANCE,
    perAddress: config.STREAMS_PER_ADDRESS,
    ipv6Prefix: config.IPV6_PREFIX,
  });
  // Live stock streams (ADR 011) re-read after every catalogue change, from any instance.
  const liveStock = createLiveStockHub({ read: (ids) => inventory.liveStock(ids), hub: streamHub, log });
  catalog.onChange(() => liveStock.changed());
  // Per-shopper limits (docs/product.md §9; ADR 013): identities hashed with a key derived from the session secret.
  const limits = createPurchaseLimitsService({
    db,
    catalog,
    keys,
    holdMinutes: settings.holdMinutes,
    clock,
  });
  const cart = createCartService({ db, catalog, inventory, limits });
  // Store credit (docs/product.md §2.15): a ledger per folded mailbox, keyed like the purchase limits.
  const storeCredit = createStoreCreditService({
    db,
    keys,
    clock,
    mailer,
    log,
    shopName: config.SHOP_NAME,
    shopUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    supportEmail: config.SUPPORT_EMAIL,
  });
  jobs.every('expire-store-credit', 60 * 60 * 1000, () => storeCredit.expire());
  // Each grant's buyer is told once, 30 days before it runs out.
  jobs.every('remind-expiring-store-credit', 60 * 60 * 1000, () => storeCredit.remindExpiring());
  const checkout = createCheckoutService({ db, cart, inventory, discounts, settings, gateway, log, limits, onStockChanged, clock, credit: storeCredit });
  // The fair waiting room of scheduled drops (ADR 010): every instance paces admissions and feeds its
  // event streams from PostgreSQL a few times a second (one conditional UPDATE and one poll per live drop).
  const drops = createDropsService({
    db,
    // Ports (modules/drops/drops.ports.ts): the services fit them as they are.
    catalog,
    inventory: sizedInventory,
    botCheck,
    streamHub,
    keys,
    settings: {
      raffleMs: config.DROP_RAFFLE_MINUTES * 60_000,
      windowMs: config.DROP_WINDOW_MINUTES * 60_000,
      placesPerAddress: config.DROP_PLACES_PER_ADDRESS,
      ipv6Prefix: config.IPV6_PREFIX,
      passMs: config.DROP_PASS_MINUTES * 60_000,
      overbooking: config.DROP_OVERBOOKING,
    },
    clock,
    engagedSessions: (productId, sessionIds) => checkout.sessionsHoldingOrBought(productId, sessionIds),
    secureCookies: config.PUBLIC_URL?.startsWith('https:') ?? false,
    log,
  });
  jobs.every('drop-admissions', DROP_TICK_MS, () => drops.tick());
  // 'Notify me' (ADR 011): release mails at the release time; returned pieces kept for the waiting list.
  const alerts = createAlertsService({
    db,
    catalog,
    // Notify me per size (ADR 015): the size runs as inventory counts them.
    inventory: sizedInventory,
    mailer,
    log,
    shopName: config.SHOP_NAME,
    baseUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    supportEmail: config.SUPPORT_EMAIL,
    reserveMinutes: config.ALERT_RESERVE_MINUTES,
    timeZone: config.SHOP_TIME_ZONE,
    // Keys the hashes of folded mailboxes (one signup per inbox and product, ADR 013).
    keys,
    clock,
    // Inside a drop window a returned piece goes back to the admitted line, unless the drop sold out (ADR 011).
    dropWindowMs: config.DROP_WINDOW_MINUTES * 60_000,
    // Release subscribers are mailed when the waiting room opens, with the drop's .ics (ADR 011).
    raffleMs: config.DROP_RAFFLE_MINUTES * 60_000,
    // Sold out with nobody in line: whoever was told "sold out" gets a returned piece first (the tick re-opens).
    isDropSoldOut: (productId) => drops.soldOutWithNobodyInLine(productId),
  });
  // When the room opens by the one clock of drop-day decisions, not by this instance's own (ADR 010).
  jobs.every('release-alerts', 10_000, () => alerts.sendReleaseAlerts(clock.now()));
  jobs.every('restock-alerts', 15_000, () => alerts.offerReturnedPieces());
  const orders = createOrdersService({
    db,
    mailer,
    shopName: config.SHOP_NAME,
    supportEmail: config.SUPPORT_EMAIL,
    log,
    // The buyer's order links (docs/product.md "Order page") are signed with a key derived from the session secret.
    keys,
    baseUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    timeZone: config.SHOP_TIME_ZONE,
    clock,
  });
  // The buying flows (server/flows/; docs/architecture.md, Flows): the only code that calls several modules.
  // Every path that adds or holds asks assertMayBuy first (release, admission pass, reservation, limit).
  const mayBuy: MayBuyDeps = {
    clock,
    admission: { assertAdmitted: (sessionId, productIds, passes) => drops.assertAdmitted(sessionId, productIds, passes) },
    reservations: alerts,
    // The draws module, asked only when a request comes.
    draws: { productsSoldByDraw: (productIds) => draws.productsSoldByDraw(productIds) },
    // A live drop's last pieces in checkouts: a stock refusal says "stay", not "sold out" (docs/product.md §9, Drops).
    dropInCheckouts: (productId) => drops.allPiecesInCheckouts(productId),
    limits,
  };
  const fulfilment = createCompletePurchaseFlow({
    db, gateway, checkout, orders, cart, inventory, limits, mailer, settings, log, onStockChanged, storeCredit,
    // A piece released on a schedule is a limited drop: its order's ship-by date allows a day more.
    isLimitedDrop: async (productIds) => (await Promise.all(productIds.map((id) => catalog.getProduct(id)))).some((p) => !!p?.releaseAt),
  });
  gateway.onSucceeded((intentId, intent) => fulfilment.fulfil(intentId, { intent }));
  const flows = {
    addToCart: createAddToCartFlow({ cart, mayBuy }),
    changeCartLine: createChangeCartLineFlow({ cart, mayBuy }),
    // Credit paid all of it: the order is placed at once, through complete-purchase.
    startPayment: createStartPaymentFlow({ cart, checkout, mayBuy, placePaidByCredit: (sid, intentId) => fulfilment.fulfilForSession(sid, intentId) }),
    checkoutCredit: createCheckoutCreditFlow({ checkout, storeCredit }),
    saveCustomerInfo: createSaveCustomerInfoFlow({ cart, checkout, draws: mayBuy.draws }),
  };
  // After the sale (ADR 021): the owner's cancel and refund, and the provider's refunds and disputes, are flows.
  const refundOrder = createRefundOrderFlow({
    db, afterSale: orders.afterSale, orders, inventory, gateway, storeCredit, log, onStockChanged,
    afterGatewayRefund: !config.isProduction && config.TEST_REFUND_PAUSE_FILE ? pauseAfterGatewayRefund(config.TEST_REFUND_PAUSE_FILE) : undefined,
  });
  const cancelOrder = createCancelOrderFlow({ db, afterSale: orders.afterSale, refunds: refundOrder, onStockChanged });
  // The buyer's hour after ordering and the owner's address change (docs/product.md "Order page").
  const changeOrder = createChangeOrderAddressFlow({
    db, orders, limits, cancel: cancelOrder, clock, supportEmail: config.SUPPORT_EMAIL, homeCountry: config.SHOP_COUNTRY,
    // A new address meets the checkout's rule for the order's pieces (no P.O. box for a limited edition).
    assertShipsTo: async (address, productIds) =>
      assertShipsTo(
        mayBuy,
        address,
        (await Promise.all(productIds.map((id) => catalog.getProduct(id)))).flatMap((p) => (p ? [{ productId: p.id, releaseAt: p.releaseAt }] : [])),
        400,
      ),
  });
  const payments = createPaymentsService({ db, gateway, fulfilment, log, afterSale: refundOrder });
  jobs.every('release-expired-holds', 15_000, () => checkout.releaseExpiredHolds());
  jobs.every('reconcile-payments', 30_000, () => fulfilment.reconcile());
  const refundReconcileMs = (!config.isProduction && config.TEST_REFUND_RECONCILE_MS) || 60_000;
  jobs.every('reconcile-refunds', refundReconcileMs, () => refundOrder.reconcile({ olderThanMs: refundReconcileMs }));
  // Returns by the refund policy (docs/product.md "Returns"): accepted ones are store credit, pieces back on sale.
  const returnOrder = createReturnOrderFlow({
    db, orders, storeCredit, refunds: refundOrder, log, onStockChanged,
    finalSaleOf: async (ids) => new Set([...(await catalog.getProductsFresh(ids)).values()].filter((p) => p.nonReturnable).map((p) => p.id)),
  });
  jobs.every('return-deadlines', 15 * 60 * 1000, () => returnOrder.sweep());
  // "E-mail me when it's my turn": admitted shoppers whose page is hidden or gone are mailed (ADR 011).
  const turnMail = createTurnMail({
    db,
    catalog,
    mailer,
    log,
    shopName: config.SHOP_NAME,
    baseUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    supportEmail: config.SUPPORT_EMAIL,
    passMs: config.DROP_PASS_MINUTES * 60_000,
    timeZone: config.SHOP_TIME_ZONE,
    onLeft: (productId, sessionId) => drops.ticketLeft(productId, sessionId),
    clock,
    // Keys the mailed link's token (following it is what extends the pass).
    keys,
  });
  jobs.every('drop-turn-mails', 5_000, () => turnMail.sendTurnMails());
  const drawBaseUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  const drawFlows = {
    // The card is authorised at confirmation, within a budget of declines (docs/security.md, "Card testing").
    entries: createEnterDrawFlow({ draws, catalog, sizeRuns: sizedInventory.sizeStock, gateway, settings, mailer, log, baseUrl: drawBaseUrl, declines: createDeclineBudget(db) }),
    settle: createSettleDrawFlow({ db, draws, catalog, inventory, sellHeldPiece: sellVariant, orders, gateway, mailer, settings, log, baseUrl: drawBaseUrl, onStockChanged }),
  };
  jobs.every('draws', 5_000, () => drawFlows.settle.tick());

  const images = createImagesService(
    overrides.objectStore ?? (await createObjectStore(config, keys)),
    log,
  );
  // The back office imports no other module: its ports are filled here, and what spans modules is a flow.
  const admin = createAdminService({
    db,
    log,
    adminPassword: config.ADMIN_PASSWORD,
    ipv6Prefix: config.IPV6_PREFIX,
    sessions: { revokeAdminLogins },
    products: createAdminProductsService({ db, catalog, inventory, isOwnImageUrl: images.isOwnImageUrl }),
    moveShopperData: createMoveShopperDataFlow({ db, cart, checkout }),
    discounts,
    newsletter,
    orders,
    afterSale: { cancel: (id, body) => cancelOrder.cancel(id, body), refund: (id, body) => refundOrder.refund(id, body) },
    notifyDemand: createNotifyDemandFlow({ alerts, catalog }),
  });
  jobs.every('prune-admin-login-attempts', 60 * 60 * 1000, () => admin.auth.pruneLoginAttempts());
  jobs.every('prune-uploads', 60 * 60 * 1000, () => images.prune());

  return { config, database, db, rateLimitCounter, botCheck, settings, catalog, sessions, mailer, jobs, seo, newsletter, images, admin, gateway, gate, inventory, liveStock, alerts, discounts, cart, checkout, orders, flows, fulfilment, payments, refundOrder, cancelOrder, storeCredit, changeOrder, returnOrder, drops, turnMail, wishlist, draws, drawFlows };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
