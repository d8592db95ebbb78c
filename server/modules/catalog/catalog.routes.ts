import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { categorySlugParams, productIdParams, productsQuery } from '../../../common/contracts/catalog';
import { notFound } from '../../plugins/http-error';
import { createBodyCache, PrecompressedBody, sendPrecompressedJson } from '../../plugins/precompressed';
import type { CatalogService } from './catalog.service';

export async function catalogRoutes(app: FastifyInstance, opts: { catalog: CatalogService }): Promise<void> {
  const { catalog } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // The two hot lists are served from the catalogue's cached JSON, compressed once per change.
  const categoriesBody = createBodyCache();
  const productsBody = createBodyCache();

  // Synchronous when the snapshot is fresh: no promise hops on the hottest path of a drop.
  r.get('/api/categories', { compress: false, decompress: false }, (request, reply) => {
    reply.header('cache-control', 'no-cache');
    const fresh = catalog.freshSnapshot();
    if (fresh) return sendPrecompressedJson(request, reply, categoriesBody(fresh.categoriesJson));
    return catalog.categoriesJson().then((json) => sendPrecompressedJson(request, reply, categoriesBody(json)));
  });

  r.get('/api/categories/:slug', { schema: { params: categorySlugParams } }, async (request) => {
    const category = await catalog.getCategory(request.params.slug);
    if (!category) throw notFound('Category not found');
    return category;
  });

  r.get('/api/products', { schema: { querystring: productsQuery }, compress: false, decompress: false }, (request, reply) => {
    const { q, category } = request.query;
    if (q !== undefined || category !== undefined) {
      return (async () => {
        let list = q?.trim() ? await catalog.search(q) : await catalog.listProducts();
        if (category) list = list.filter((p) => p.category === category);
        return sendPrecompressedJson(request, reply, new PrecompressedBody(JSON.stringify(list), { oneOff: true }));
      })();
    }
    reply.header('cache-control', 'no-cache');
    const fresh = catalog.freshSnapshot();
    if (fresh) return sendPrecompressedJson(request, reply, productsBody(fresh.productsJson));
    return catalog.productsJson().then((json) => sendPrecompressedJson(request, reply, productsBody(json)));
  });

  r.get('/api/products/:id', { schema: { params: productIdParams } }, async (request) => {
    const product = await catalog.getProduct(request.params.id);
    if (!product) throw notFound('Product not found');
    return product;
  });
}
