import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../common/contracts/api-error';
import {
  wishlistBody,
  wishlistChangeSchema,
  wishlistItemParams,
  wishlistSchema,
} from '../../../common/contracts/wishlist';
import type { WishlistService } from './wishlist.service';

const sid = async (request: FastifyRequest) => (await request.getSession())?.sid ?? null;

export async function wishlistRoutes(app: FastifyInstance, opts: { wishlist: WishlistService }): Promise<void> {
  const { wishlist } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // No cookie → an empty list, without creating a session.
  r.get('/api/wishlist', { schema: { response: { 200: wishlistSchema, ...errorResponses } } }, async (request) =>
    wishlist.list(await sid(request)),
  );

  // Saving writes a row per shopper: the same budget as a cart add (modules/rate-limit).
  r.post(
    '/api/wishlist',
    {
      schema: { body: wishlistBody, response: { 200: wishlistChangeSchema, ...errorResponses } },
      config: { rateLimited: 'cart-add' },
    },
    async (request) => wishlist.save(async () => (await request.ensureSession()).sid, request.body.productId),
  );

  r.delete(
    '/api/wishlist/:productId',
    { schema: { params: wishlistItemParams, response: { 200: wishlistChangeSchema, ...errorResponses } } },
    async (request) => wishlist.remove(await sid(request), request.params.productId),
  );
}
