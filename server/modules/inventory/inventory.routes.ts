import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { liveStockSchema, productIdParams, type LiveStock } from '../../../common/contracts/catalog';
import type { InventoryService } from './inventory.service';
import { refusalHeaders } from '../../lib/event-stream-hub';
import type { LiveStockHub } from './live-stock';

const PRODUCT_NOT_FOUND = 'Product not found';
const messageSchema = z.object({ message: z.string() });

/** Live stock (ADR 011): the numbers now, and a Server-Sent Events stream of them. */
export async function inventoryRoutes(
  app: FastifyInstance,
  opts: { inventory: InventoryService; liveStock: LiveStockHub },
): Promise<void> {
  const { inventory, liveStock } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  const findStock = async (id: string): Promise<LiveStock | null> => (await inventory.liveStock([id]))[0] ?? null;

  r.get(
    '/api/products/:id/stock',
    {
      schema: { params: productIdParams, response: { 200: liveStockSchema, 404: messageSchema } },
      // The fallback poll of a page whose stream was refused: per address, generously (rate-limits.ts).
      config: { rateLimited: 'stock-status' },
    },
    async (request, reply) => {
      // The number moves with every sale: never kept by a browser or a proxy.
      reply.header('cache-control', 'no-store');
      const stock = await findStock(request.params.id);
      return stock ?? reply.code(404).send({ message: PRODUCT_NOT_FOUND });
    },
  );

  r.get(
    '/api/products/:id/stock/events',
    { schema: { params: productIdParams }, config: { rateLimited: 'stock-status' } },
    async (request, reply) => {
      // The slot is taken before anything is awaited, so a client that leaves at any point gives it back
      // (server/lib/event-stream-hub.ts); refused: 503 (this server is full) or 429 (this address is).
      const slot = liveStock.reserve(request.raw, reply.raw, request.ip);
      if (slot.refused) return reply.code(slot.status).headers(refusalHeaders(slot)).send({ message: slot.message });
      let current: LiveStock | null;
      try {
        current = await findStock(request.params.id);
      } catch (err) {
        slot.release();
        throw err;
      }
      if (!current) {
        slot.release();
        return reply.code(404).send({ message: PRODUCT_NOT_FOUND });
      }
      // The stream is written straight to the socket: no compression, no page cache, no serializer.
      reply.hijack();
      liveStock.open(slot, current);
    },
  );

  // Streams never end by themselves: close them before the server waits for its connections to finish.
  app.addHook('preClose', async () => {
    liveStock.close();
  });
}
