import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { liveStockSchema, productIdParams, type LiveStock } from '../../../common/contracts/catalog';
import type { InventoryService } from './inventory.service';
import type { LiveStockHub } from './live-stock';

const PRODUCT_NOT_FOUND = 'Product not found';
const messageSchema = z.object({ message: z.string() });

/** Live stock (issue 14 item 6): the numbers now, and a Server-Sent Events stream of them. */
export async function inventoryRoutes(
  app: FastifyInstance,
  opts: { inventory: InventoryService; liveStock: LiveStockHub },
): Promise<void> {
  const { inventory, liveStock } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  const findStock = async (id: string): Promise<LiveStock | null> => (await inventory.liveStock([id]))[0] ?? null;

  r.get(
    '/api/products/:id/stock',
    { schema: { params: productIdParams, response: { 200: liveStockSchema, 404: messageSchema } } },
    async (request, reply) => {
      // The number moves with every sale: never kept by a browser or a proxy.
      reply.header('cache-control', 'no-store');
      const stock = await findStock(request.params.id);
      return stock ?? reply.code(404).send({ message: PRODUCT_NOT_FOUND });
    },
  );

  r.get('/api/products/:id/stock/events', { schema: { params: productIdParams } }, async (request, reply) => {
    if (liveStock.full())
      return reply
        .code(503)
        .header('retry-after', '10')
        .send({ message: 'Too many live stock streams on this server; try again shortly.' });
    const current = await findStock(request.params.id);
    if (!current) return reply.code(404).send({ message: PRODUCT_NOT_FOUND });
    // The stream is written straight to the socket: no compression, no page cache, no serializer.
    reply.hijack();
    liveStock.open(reply.raw, current);
  });

  // Streams never end by themselves: close them before the server waits for its connections to finish.
  app.addHook('preClose', async () => {
    liveStock.close();
  });
}
