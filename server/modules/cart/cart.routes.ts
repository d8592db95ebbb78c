import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { addToCartBody, cartItemParams, updateCartBody } from '../../../common/contracts/cart';
import type { CartService } from './cart.service';

export async function cartRoutes(app: FastifyInstance, opts: { cart: CartService }): Promise<void> {
  const { cart } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const sid = async (request: { getSession(): Promise<{ sid: string } | null> }) =>
    (await request.getSession())?.sid ?? null;

  // No cookie → [] without creating a session.
  r.get('/api/cart', async (request) => cart.list(await sid(request)));

  r.post('/api/cart', { schema: { body: addToCartBody } }, async (request) =>
    cart.add(await sid(request), request.body, async () => (await request.ensureSession()).sid),
  );

  r.put('/api/cart/:id', { schema: { params: cartItemParams, body: updateCartBody } }, async (request) => {
    const line = await cart.update(await sid(request), request.params.id, request.body.quantity);
    return line ?? { success: true, removed: true };
  });

  r.delete('/api/cart/:id', { schema: { params: cartItemParams } }, async (request) => {
    await cart.remove(await sid(request), request.params.id);
    return { success: true };
  });

  r.delete('/api/cart', async (request) => {
    await cart.clear(await sid(request));
    return { success: true };
  });
}
