import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addToCartBody,
  cartDone,
  cartItemParams,
  cartItemSchema,
  cartSchema,
  updateCartBody,
  updateCartResponse,
} from '../../../common/contracts/cart';
import type { RequestGate } from '../../lib/request-gate';
import { CLAIM_COOKIE } from '../alerts/alerts.service';
import type { CartService } from './cart.service';

/** The drops module's check (drops.service.ts): inside a drop window a product needs the session's admission pass. */
export interface AdmissionGuard {
  /** Answers the products whose valid pass it saw (a pass is proof of release). */
  assertAdmitted(sessionId: string | null, productIds: readonly string[], cookieHeader: string | undefined): Promise<ReadonlySet<string> | void>;
}

const sid = async (request: FastifyRequest) => (await request.getSession())?.sid ?? null;

export async function cartRoutes(
  app: FastifyInstance,
  opts: { cart: CartService; gate: RequestGate; admission?: AdmissionGuard },
): Promise<void> {
  const { cart, gate, admission } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const inCart = <T>(fn: () => Promise<T>) => gate.run('cart', fn);

  // Every answer is serialized from its response schema (common/contracts/cart.ts): a field the mapping
  // (toCartItem) grew by mistake is never sent, and the session shows only as its digest.
  // No cookie → [] without creating a session.
  r.get('/api/cart', { schema: { response: { 200: cartSchema } } }, async (request) => inCart(async () => cart.list(await sid(request))));

  r.post('/api/cart', { schema: { body: addToCartBody, response: { 200: cartItemSchema } }, config: { rateLimited: 'cart-add' } }, async (request) =>
    inCart(async () => {
      // During a drop window the product needs this session's admission pass (waiting room, ADR 010).
      const passed = await admission?.assertAdmitted(await sid(request), [request.body.productId], request.headers.cookie);
      return cart.add(await sid(request), request.body, async () => (await request.ensureSession()).sid, {
        claimToken: request.readSignedCookie(CLAIM_COOKIE),
        admitted: passed?.has(request.body.productId) ?? false,
      });
    }),
  );

  r.put('/api/cart/:id', { schema: { params: cartItemParams, body: updateCartBody, response: { 200: updateCartResponse } } }, async (request) =>
    inCart(async () => {
      const line = await cart.update(await sid(request), request.params.id, request.body.quantity);
      return line ?? { success: true as const, removed: true as const };
    }),
  );

  r.delete('/api/cart/:id', { schema: { params: cartItemParams, response: { 200: cartDone } } }, async (request) =>
    inCart(async () => {
      await cart.remove(await sid(request), request.params.id);
      return { success: true as const };
    }),
  );

  r.delete('/api/cart', { schema: { response: { 200: cartDone } } }, async (request) =>
    inCart(async () => {
      await cart.clear(await sid(request));
      return { success: true as const };
    }),
  );
}
