import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminLoginBody,
  adminOrderIdParams,
  adminOrderListSchema,
  adminOrderSchema,
  adminOrdersQuery,
  adminProductIdParams,
  adminProductListSchema,
  adminProductSchema,
  adminStatusSchema,
  adminSuccessSchema,
  adminOrderPageSchema,
  adminOrdersPageQuery,
  bulkOrderStatusBody,
  bulkOrderStatusResult,
  notifyDemandSchema,
  notifySignupListSchema,
  productPatchBody,
  stockConflictSchema,
  discountCodeCreateBody,
  discountCodeIdParams,
  discountCodeListSchema,
  discountCodeSchema,
  discountCodeUpdateBody,
  newsletterSignupListSchema,
  orderStatusBody,
  productPayloadSchema,
} from '../../../common/contracts/admin';
import { errorResponses } from '../../../common/contracts/api-error';
import { cancelOrderBody, refundOrderBody } from '../../../common/contracts/after-sale';
import { adminDeviceIdParams, adminDeviceListSchema } from '../../../common/contracts/admin-devices';
import { KNOWN_DEVICE_COOKIE } from '../../lib/cookies';
import { unauthorized } from '../../lib/http-error';
import { adminSessionState, DEVICE_COOKIE_MAX_AGE_MS, needsActivityRefresh } from './admin-auth.service';
import { StockConflictError } from './product-messages';
import type { AdminService } from './admin.service';

/** The only admin routes open without a login. */
export const PUBLIC_ADMIN_ROUTES = new Set(['/api/admin/login', '/api/admin/status']);

/**
 * Cookie set at a successful login (KNOWN_DEVICE_COOKIE, named in server/lib/cookies.ts): the random token
 * of a server-side device record (ADR 012), which gives this browser a login budget of its own. Signed for
 * this cookie name only.
 */

function sendCsv(reply: FastifyReply, filename: string, csv: string) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Everything under /api/admin in one encapsulated plugin: one onRequest hook refuses every route
 * but login and status without a live admin session (before any body is read), and keeps the
 * session's activity stamp fresh (the admin session ends after 2 hours idle). Other modules' owner routes
 * (image uploads, drop controls) come in as `guarded`: server/app.ts passes them, and they are registered
 * inside this plugin so the same login check covers them.
 */
export async function adminRoutes(
  app: FastifyInstance,
  opts: { admin: AdminService; guarded?: ReadonlyArray<(scope: FastifyInstance) => Promise<void>> },
): Promise<void> {
  const { admin } = opts;

  app.addHook('onRequest', async (request) => {
    if (PUBLIC_ADMIN_ROUTES.has(request.routeOptions.url ?? '')) return;
    const session = await request.getSession();
    const state = adminSessionState(session?.data);
    if (!session || state === 'none') throw unauthorized('Please log in as admin');
    if (state === 'expired') {
      const { admin: _expired, ...rest } = session.data;
      await request.saveSession(rest);
      throw unauthorized('Your admin session has expired: please log in again');
    }
    if (needsActivityRefresh(session.data))
      await request.saveSession({ ...session.data, admin: { ...session.data.admin, at: Date.now() } });
  });
  app.addHook('onSend', async (_request, reply) => {
    // Admin answers carry customer data: never cached by browsers or proxies.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  const r = app.withTypeProvider<ZodTypeProvider>();

  // --- Access ---------------------------------------------------------------------------------
  // Every JSON answer is encoded by its contract (common/contracts/admin.ts); the CSV exports are text.
  const ok = { 200: adminSuccessSchema, ...errorResponses };

  r.post('/api/admin/login', { schema: { body: adminLoginBody, response: ok } }, async (request) => {
    const { deviceToken } = await admin.auth.verifyLogin(request.ip, request.body.password, {
      deviceToken: request.readSignedCookie(KNOWN_DEVICE_COOKIE),
      userAgent: request.headers['user-agent'],
    });
    const old = await request.getSession();
    const now = Date.now();
    // A new session id on login defeats session fixation; the shopper's data moves with it.
    const fresh = await request.regenerateSession({ ...(old?.data ?? {}), admin: { at: now, since: now } });
    if (old) await admin.moveShopperData(old.sid, fresh.sid);
    request.setSignedCookie(KNOWN_DEVICE_COOKIE, deviceToken, DEVICE_COOKIE_MAX_AGE_MS);
    return { success: true as const };
  });

  // Logout ends the session only: the browser stays a known device (it grants a login budget, never
  // access); the owner revokes devices below, and a password change retires them all (ADR 012).

  r.post('/api/admin/logout', { schema: { response: ok } }, async (request) => {
    await request.destroySession();
    return { success: true as const };
  });

  r.get('/api/admin/status', { schema: { response: { 200: adminStatusSchema, ...errorResponses } } }, async (request) => {
    const session = await request.getSession();
    return { isAuthenticated: adminSessionState(session?.data) === 'active' };
  });

  // --- Known devices (ADR 012) -------------------------------------------------------------------
  r.get('/api/admin/devices', { schema: { response: { 200: adminDeviceListSchema, ...errorResponses } } }, async (request) =>
    admin.auth.listDevices(request.readSignedCookie(KNOWN_DEVICE_COOKIE)),
  );

  r.delete('/api/admin/devices/:id', { schema: { params: adminDeviceIdParams, response: ok } }, async (request) => {
    await admin.auth.revokeDevice(request.params.id);
    return { success: true as const };
  });

  // --- Products -------------------------------------------------------------------------------
  r.get('/api/admin/products', { schema: { response: { 200: adminProductListSchema, ...errorResponses } } }, async () =>
    admin.products.listProducts(),
  );

  r.post('/api/admin/products', { schema: { body: productPayloadSchema, response: { 201: adminProductSchema, ...errorResponses } } }, async (request, reply) => {
    return reply.status(201).send(await admin.products.createProduct(request.body));
  });

  r.put(
    '/api/admin/products/:id',
    { schema: { params: adminProductIdParams, body: productPayloadSchema, response: { 200: adminProductSchema, ...errorResponses } } },
    async (request) => {
      return admin.products.updateProduct(request.params.id, request.body);
    },
  );

  // Only the fields the owner changed; a stock that moved since the form loaded is a 409 with the current number.
  r.patch(
    '/api/admin/products/:id',
    {
      schema: {
        params: adminProductIdParams,
        body: productPatchBody,
        response: { 200: adminProductSchema, 409: stockConflictSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      try {
        return await admin.products.patchProduct(request.params.id, request.body);
      } catch (err) {
        if (err instanceof StockConflictError)
          return reply.status(409).send({ message: err.message, currentStock: err.currentStock });
        throw err;
      }
    },
  );

  r.delete('/api/admin/products/:id', { schema: { params: adminProductIdParams, response: ok } }, async (request) => {
    await admin.products.deleteProduct(request.params.id);
    return { success: true as const };
  });

  // --- Orders ---------------------------------------------------------------------------------
  r.get('/api/admin/orders', { schema: { querystring: adminOrdersQuery, response: { 200: adminOrderListSchema, ...errorResponses } } }, async (request) => {
    return admin.listOrders(request.query);
  });

  r.get('/api/admin/orders/page', { schema: { querystring: adminOrdersPageQuery, response: { 200: adminOrderPageSchema, ...errorResponses } } }, async (request) =>
    admin.listOrdersPage(request.query),
  );

  r.post(
    '/api/admin/orders/bulk-status',
    { schema: { body: bulkOrderStatusBody, response: { 200: bulkOrderStatusResult, ...errorResponses } } },
    async (request) => admin.updateOrdersStatus(request.body.orderIds, request.body.status, request.body.tracking),
  );

  r.get('/api/admin/orders.csv', { schema: { querystring: adminOrdersQuery } }, async (request, reply) => {
    return sendCsv(reply, `orders-${today()}.csv`, await admin.ordersCsv(request.query));
  });

  // The pick list: pieces to pick per product and size from paid orders not yet shipped.
  r.get('/api/admin/pick-list.csv', async (_request, reply) => {
    return sendCsv(reply, `pick-list-${today()}.csv`, await admin.pickListCsv());
  });

  r.put(
    '/api/admin/orders/:orderId/status',
    { schema: { params: adminOrderIdParams, body: orderStatusBody, response: { 200: adminOrderSchema, ...errorResponses } } },
    async (request) => {
      const { status, ...tracking } = request.body;
      return admin.updateOrderStatus(request.params.orderId, status, tracking);
    },
  );

  // After the sale (docs/product.md "After the sale: cancel and refund"): the flows answer the order as it is after.
  r.post(
    '/api/admin/orders/:orderId/cancel',
    { schema: { params: adminOrderIdParams, body: cancelOrderBody, response: { 200: adminOrderSchema, ...errorResponses } } },
    async (request) => admin.cancelOrder(request.params.orderId, request.body),
  );

  r.post(
    '/api/admin/orders/:orderId/refund',
    { schema: { params: adminOrderIdParams, body: refundOrderBody, response: { 200: adminOrderSchema, ...errorResponses } } },
    async (request) => admin.refundOrder(request.params.orderId, request.body),
  );

  // --- Newsletter -----------------------------------------------------------------------------
  r.get('/api/admin/newsletter-signups', { schema: { response: { 200: newsletterSignupListSchema, ...errorResponses } } }, async () =>
    admin.listSignups(),
  );

  r.get('/api/admin/newsletter-signups.csv', async (_request, reply) => {
    return sendCsv(reply, `newsletter-signups-${today()}.csv`, await admin.signupsCsv());
  });

  // --- Notify-me demand (read from the alerts module) ------------------------------------------
  r.get('/api/admin/notify-demand', { schema: { response: { 200: notifyDemandSchema, ...errorResponses } } }, async () =>
    admin.notifyDemand(),
  );

  r.get(
    '/api/admin/notify-demand/:id',
    { schema: { params: adminProductIdParams, response: { 200: notifySignupListSchema, ...errorResponses } } },
    async (request) => admin.notifySignups(request.params.id),
  );

  r.get('/api/admin/notify-demand/:id/signups.csv', { schema: { params: adminProductIdParams } }, async (request, reply) => {
    return sendCsv(reply, `notify-me-${today()}.csv`, await admin.notifySignupsCsv(request.params.id));
  });

  // --- Discount codes -------------------------------------------------------------------------
  r.get('/api/admin/discount-codes', { schema: { response: { 200: discountCodeListSchema, ...errorResponses } } }, async () =>
    admin.discounts.listDiscountCodes(),
  );

  r.post(
    '/api/admin/discount-codes',
    { schema: { body: discountCodeCreateBody, response: { 201: discountCodeSchema, ...errorResponses } } },
    async (request, reply) => {
      return reply.status(201).send(await admin.discounts.createDiscountCode(request.body));
    },
  );

  r.put(
    '/api/admin/discount-codes/:id',
    { schema: { params: discountCodeIdParams, body: discountCodeUpdateBody, response: { 200: discountCodeSchema, ...errorResponses } } },
    async (request) => admin.discounts.setActive(request.params.id, request.body.isActive),
  );

  // --- Other modules' owner routes (images, drops), behind the same login check ------------------
  for (const routes of opts.guarded ?? []) await app.register(routes);
}
