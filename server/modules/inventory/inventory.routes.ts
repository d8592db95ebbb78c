import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { liveStockSchema, productIdParams, type LiveStock } from '../../../common/contracts/catalog';
import { HttpError, notFound } from '../../plugins/http-error';
import type { InventoryService } from './inventory.service';
import type { LiveStockHub } from './live-stock';

const PRODUCT_NOT_FOUND = 'Product not found';

/** Live stock (issue 14 item 6): the numbers now, and a Server-Sent Events stream of them. */
export async function inventoryRoutes(
  app: FastifyInstance,
  opts: { inventory: InventoryService; liveStock: LiveStockHub },
): Promise<void> {
  const { inventory, liveStock } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  async function stockOrThrow(id: string): Promise<LiveStock> {
    const [stock] = await inventory.liveStock([id]);
    if (!stock) throw notFound(PRODUCT_NOT_FOUND);
    return stock;
  }

  r.get(
    '/api/products/:id/stock',
    { schema: { params: productIdParams, response: { 200: liveStockSchema } } },
    async (request, reply) => {
      // The number moves with every sale: never kept by a browser or a proxy.
      reply.header('cache-control', 'no-store');
      return stockOrThrow(request.params.id);
    },
  );

  r.get('/api/products/:id/stock/events', { schema: { params: productIdParams } }, async (request, reply) => {
    if (liveStock.full())
      throw new HttpError(503, 'Too many live stock streams on this server; try again shortly.', { 'retry-after': '10' });
    const current = await stockOrThrow(request.params.id);
    // The stream is written straight to the socket: no compression, no page cache, no serializer.
    reply.hijack();
    liveStock.open(reply.raw, current);
  });

  // Streams never end by themselves: close them before the server waits for its connections to finish.
  app.addHook('preClose', async () => {
    liveStock.close();
  });
}
