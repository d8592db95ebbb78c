import path from 'node:path';
import zlib from 'node:zlib';
import { projectRoot } from './lib/project-root';
import Fastify, { LogController, type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type onRouteHookHandler } from 'fastify';
import compress from '@fastify/compress';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { healthSchema, healthUnavailableSchema } from '../common/contracts/health';
import type { Config } from './config';
import type { Database } from './db/client';
import { lazyChildLoggerFactory, safeLoggerOptions } from './plugins/log-redaction';
import { registerSafeInput, takesBody } from './plugins/safe-input';
import { registerErrorHandler } from './plugins/error-handler';
import { createWriteProbe } from './db/write-probe';
import { registerJsonBody, SHOPPER_BODY_LIMIT } from './plugins/json-body';
import { DEFAULT_HTTP_LIMITS, httpServerFactory, registerLongBodies, trustedPeer, type HttpLimits } from './plugins/http-limits';
import { foreignOriginCheck, registerSecurity } from './plugins/security';
import { registerSession } from './plugins/session';
import { registerShopper } from './plugins/shopper';
import { registerStaticClient } from './plugins/static-client';
import { registerRateLimits } from './modules/rate-limit/rate-limits';
import { registerBotCheck } from './modules/bot-check/bot-check.routes';
import { createServices, type ServiceOverrides, type Services } from './services';
import { catalogRoutes } from './modules/catalog/catalog.routes';
import { inventoryRoutes } from './modules/inventory/inventory.routes';
import { alertsRoutes } from './modules/alerts/alerts.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { cartRoutes } from './modules/cart/cart.routes';
import { checkoutRoutes } from './modules/checkout/checkout.routes';
import { ordersRoutes } from './modules/orders/orders.routes';
import { adminOrderAddressRoutes, orderChangesRoutes } from './modules/orders/order-changes.routes';
import { adminOrderReturnsRoutes, orderReturnsRoutes } from './modules/orders/returns.routes';
import { paymentsRoutes } from './modules/payments/payments.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { newsletterRoutes } from './modules/newsletter/newsletter.routes';
import { seoRoutes } from './modules/seo/seo.routes';
import { adminDropsRoutes, dropsRoutes } from './modules/drops/drops.routes';
import { imageRoutes } from './modules/storage/images.routes';
import { dropTicketRoutes } from './modules/drops/ticket.routes';
import { wishlistRoutes } from './modules/wishlist/wishlist.routes';
import { adminDrawsRoutes, drawsRoutes } from './modules/draws/draws.routes';
import { adminStoreCreditRoutes, storeCreditRoutes } from './modules/store-credit/store-credit.routes';


export interface AppDeps extends ServiceOverrides {
  database: Database;
  sessionSecret: string;
  /** Built client to serve; defaults to dist/client. */
  clientDir?: string;
  logger?: boolean | object;
  /** Extra routes registered after the modules, before the app shell (tests register probe routes here). */
  extraRoutes?: FastifyPluginAsync;
  /** Sees every route as it is added (server/route-contracts.test.ts checks each /api route has a response schema). */
  onRoute?: onRouteHookHandler;
  /** Tests shrink the timeouts and the per-address connection cap (plugins/http-limits.ts). */
  httpLimits?: Partial<HttpLimits>;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // No personal data, secrets or SQL parameters in any log line (plugins/log-redaction.ts).
    logger:
      deps.logger === false
        ? false
        : { level: config.LOG_LEVEL, ...(typeof deps.logger === 'object' ? deps.logger : {}), ...safeLoggerOptions },
    // A request's logger is made on its first line, not for every request (plugins/log-redaction.ts).
    ...(deps.logger === false ? {} : { childLoggerFactory: lazyChildLoggerFactory }),
    // 16 KB unless the route says more (plugins/json-body.ts); timeouts and a per-address socket cap on
    // the server itself (plugins/http-limits.ts, docs/operations.md "In front of the shop").
    bodyLimit: SHOPPER_BODY_LIMIT,
    serverFactory: httpServerFactory(
      { ...DEFAULT_HTTP_LIMITS, ...deps.httpLimits },
      { trusted: trustedPeer(config.TRUST_PROXY), ipv6Prefix: config.IPV6_PREFIX },
    ),
    // Only trusted proxies may set the client IP (login rate limit) and protocol (Secure cookies).
    trustProxy: config.TRUST_PROXY === 'true' ? true : config.TRUST_PROXY.split(',').map((v) => v.trim()),
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace' }),
    return503OnClosing: true,
    // On close, idle keep-alive sockets are closed at once; busy ones after their answer (docs/operations.md, Processes and signals).
    forceCloseConnections: 'idle',
    // Malformed URLs (`/%`) are caller mistakes: the same { message } shape as every other error.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void (reply as FastifyReply).code(status).send({ message: 'Malformed request URL' });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  // Answers are encoded by their zod response schema: unknown fields are stripped, a missing or wrong one is a 500.
  app.setSerializerCompiler(serializerCompiler);
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);

  const services = await createServices(config, deps.database, app.log, deps);
  app.decorate('services', services);

  registerErrorHandler(app, { notFoundCheck: foreignOriginCheck(config) });
  registerJsonBody(app);
  registerLongBodies(app);
  registerSafeInput(app);
  await registerSecurity(app, config);
  // Request bodies are inflated only where a route takes one: a GET runs no decompression hook.
  app.addHook('onRoute', (route) => {
    if (!takesBody(route)) route.decompress ??= false;
  });
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } });
  await registerSession(app, { secret: deps.sessionSecret, sessions: services.sessions, secureCookies: config.PUBLIC_URL?.startsWith('https:') ?? false });
  registerShopper(app, { secureCookies: config.PUBLIC_URL?.startsWith('https:') ?? false, ipv6Prefix: config.IPV6_PREFIX });

  const writeProbe = createWriteProbe({ dataDir: config.DATA_DIR });
  app.get('/healthz', { schema: { response: { 200: healthSchema, 503: healthUnavailableSchema } } }, async (_request, reply) => {
    try {
      // Answers within a second either way, even when the database is cut off (docs/operations.md, When the database goes away).
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        services.db.execute(sql`select 1`),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('health check timed out')), 800);
        }),
      ]).finally(() => clearTimeout(timer));
      // A shop that cannot write (disk full, I/O errors) is not healthy either (db/write-probe.ts).
      const cannotWrite = await writeProbe.check();
      if (cannotWrite) {
        return reply
          .header('retry-after', '5')
          .header('cache-control', 'no-store')
          .status(503)
          .send({ status: 'unavailable' as const, message: `The shop ${cannotWrite}` });
      }
      return { status: 'ok', database: services.database.embedded ? 'embedded' : 'external' };
    } catch {
      return reply
        .header('retry-after', '5')
        .status(503)
        .send({ status: 'unavailable', message: 'Database unreachable' });
    }
  });

  // Before the routes: routes marked `config: { rateLimited }` get their limits as they are added.
  await registerRateLimits(app, {
    counter: services.rateLimitCounter,
    enabled: config.RATE_LIMITS === 'on',
    addressFactor: config.RATE_LIMIT_ADDRESS_FACTOR,
    ipv6Prefix: config.IPV6_PREFIX,
  });
  // Also before the routes: routes marked `config: { botChecked: true }` require a solved challenge.
  await registerBotCheck(app, { botCheck: services.botCheck });
  await app.register(settingsRoutes, { settings: services.settings });
  await app.register(catalogRoutes, { catalog: services.catalog, draws: services.draws });
  await app.register(inventoryRoutes, { inventory: services.inventory, liveStock: services.liveStock });
  await app.register(alertsRoutes, { alerts: services.alerts });
  await app.register(cartRoutes, { cart: services.cart, flows: services.flows, gate: services.gate });
  await app.register(checkoutRoutes, { checkout: services.checkout, flows: services.flows, gate: services.gate });
  await app.register(paymentsRoutes, { payments: services.payments, gate: services.gate });
  await app.register(ordersRoutes, { fulfilment: services.fulfilment, orders: services.orders, gate: services.gate });
  await app.register(storeCreditRoutes, { balanceForSession: services.flows.checkoutCredit });
  await app.register(orderChangesRoutes, { changes: services.changeOrder, gate: services.gate });
  await app.register(orderReturnsRoutes, { returns: services.returnOrder, gate: services.gate });
  await app.register(adminRoutes, {
    admin: services.admin,
    // The owner's image uploads and drop controls (ADR 010), behind the admin routes' login check.
    guarded: [
      (scope) => imageRoutes(scope, { images: services.images }),
      (scope) => adminDropsRoutes(scope, { drops: services.drops }),
      (scope) => adminDrawsRoutes(scope, { draws: services.draws, settle: services.drawFlows.settle }),
      (scope) => adminStoreCreditRoutes(scope, { storeCredit: services.storeCredit }),
      (scope) => adminOrderAddressRoutes(scope, { changes: services.changeOrder }),
      (scope) => adminOrderReturnsRoutes(scope, { returns: services.returnOrder }),
    ],
  });
  await app.register(newsletterRoutes, { newsletter: services.newsletter });
  await app.register(dropsRoutes, { drops: services.drops, secureCookies: config.PUBLIC_URL?.startsWith('https:') ?? false });
  await app.register(dropTicketRoutes, { turnMail: services.turnMail });
  await app.register(drawsRoutes, { draws: services.draws, entries: services.drawFlows.entries });

  await app.register(wishlistRoutes, { wishlist: services.wishlist });
  await app.register(seoRoutes, { seo: services.seo });
  if (deps.extraRoutes) await app.register(deps.extraRoutes);
  await registerStaticClient(app, {
    clientDir: deps.clientDir ?? (config.CLIENT_DIR ? path.resolve(config.CLIENT_DIR) : path.join(projectRoot, 'dist', 'client')),
    uploadsDir: path.join(config.DATA_DIR, 'uploads'),
    seo: services.seo,
    // Pages are keyed and rendered for the shop's own address, never the request's Host header.
    origin: new URL(config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).origin,
  });

  // Open waiting-room event streams end first: closing the server waits for no stream.
  app.addHook('preClose', async () => {
    services.drops.closeStreams();
  });
  app.addHook('onClose', async () => {
    await services.jobs.stop();
    // Ends a retry under way and the SMTP pool's kept connections; mail not sent yet stays queued on disk.
    await services.mailer.close?.();
  });
  return app;
}
