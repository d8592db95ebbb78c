import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type AddToCartBody,
  type CartItem,
  addToCartBody,
  cartDone,
  cartItemParams,
  cartItemSchema,
  cartSchema,
  updateCartBody,
  updateCartResponse,
} from '../../../common/contracts/cart';
import type { RequestGate } from '../../lib/request-gate';
import type { Shopper } from '../../plugins/shopper';
import type { CartService } from './cart.service';

/** The flows the writing routes hand the shopper to (server/flows/add-to-cart.ts, change-cart-line.ts). */
export interface CartFlows {
  addToCart(shopper: Shopper, body: AddToCartBody): Promise<CartItem>;
  /** null: the line was removed. */
  changeCartLine(shopper: Shopper, lineId: string, quantity: number): Promise<CartItem | null>;
}

const sid = (request: FastifyRequest) => request.shopper.sessionId();

export async function cartRoutes(app: FastifyInstance, opts: { cart: CartService; flows: CartFlows; gate: RequestGate }): Promise<void> {
  const { cart, flows, gate } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const inCart = <T>(fn: () => Promise<T>) => gate.run('cart', fn);

  // Every answer is serialized from its response schema (common/contracts/cart.ts): a field the mapping
  // (toCartItem) grew by mistake is never sent, and the session shows only as its digest.
  // No cookie → [] without creating a session.
  r.get('/api/cart', { schema: { response: { 200: cartSchema } } }, async (request) => inCart(async () => cart.list(await sid(request))));

  r.post('/api/cart', { schema: { body: addToCartBody, response: { 200: cartItemSchema } }, config: { rateLimited: 'cart-add' } }, async (request) =>
    inCart(() => flows.addToCart(request.shopper, request.body)),
  );

  r.put('/api/cart/:id', { schema: { params: cartItemParams, body: updateCartBody, response: { 200: updateCartResponse } } }, async (request) =>
    inCart(async () => (await flows.changeCartLine(request.shopper, request.params.id, request.body.quantity)) ?? { success: true as const, removed: true as const }),
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
