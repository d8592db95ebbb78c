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

  r.get('/api/categories', { compress: false }, async (request, reply) => {
    reply.header('cache-control', 'no-cache');
    return sendPrecompressedJson(request, reply, categoriesBody(await catalog.categoriesJson()));
  });

  r.get('/api/categories/:slug', { schema: { params: categorySlugParams } }, async (request) => {
    const category = await catalog.getCategory(request.params.slug);
    if (!category) throw notFound('Category not found');
    return category;
  });

  r.get('/api/products', { schema: { querystring: productsQuery }, compress: false }, async (request, reply) => {
    const { q, category } = request.query;
    if (q !== undefined || category !== undefined) {
      let list = q?.trim() ? await catalog.search(q) : await catalog.listProducts();
      if (category) list = list.filter((p) => p.category === category);
      return sendPrecompressedJson(request, reply, new PrecompressedBody(JSON.stringify(list), { oneOff: true }));
    }
    reply.header('cache-control', 'no-cache');
    return sendPrecompressedJson(request, reply, productsBody(await catalog.productsJson()));
  });

  r.get('/api/products/:id', { schema: { params: productIdParams } }, async (request) => {
    const product = await catalog.getProduct(request.params.id);
    if (!product) throw notFound('Product not found');
    return product;
  });
}
