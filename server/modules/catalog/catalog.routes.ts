import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  categorySchema,
  categorySlugParams,
  drawSaleListSchema,
  type DrawSale,
  PRODUCT_PAGE_SIZE,
  productIdParams,
  productListSchema,
  productPageQuery,
  productSchema,
  productsQuery,
} from '../../../common/contracts/catalog';
import { errorResponses } from '../../../common/contracts/api-error';
import { pickFeatured, slicePage } from '../../../common/domain/product-page';
import { upcomingDrops } from '../../../common/domain/release';
import { notFound } from '../../lib/http-error';
import { createBodyCache, PrecompressedBody, sendPrecompressedJson } from '../../plugins/precompressed';
import type { CatalogService } from './catalog.service';

/** What the product cards read of the draws (the draws module's service, wired in server/app.ts). */
export interface CatalogDraws {
  /** The draws that own their product's sale now (docs/draw.md), read at most every few seconds. */
  drawSales(): Promise<DrawSale[]>;
}

export async function catalogRoutes(
  app: FastifyInstance,
  opts: { catalog: CatalogService; draws?: CatalogDraws },
): Promise<void> {
  const { catalog } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Other instances' changes arrive over LISTEN/NOTIFY from the moment the app is ready.
  app.addHook('onReady', () => catalog.startListening());
  app.addHook('onClose', () => catalog.stopListening());

  // The two hot lists are served from the catalogue's cached JSON, compressed once per change.
  const categoriesBody = createBodyCache();
  const productsBody = createBodyCache();

  // Synchronous when the snapshot is fresh: no promise hops on the hottest path of a drop.
  // This route and the three product lists below send the snapshot's precompressed bytes: no response
  // schema runs per request (their shapes are documented in common/contracts/catalog.ts and checked
  // against the snapshot by catalog.routes.test.ts; server/route-contracts.test.ts lists them).
  r.get('/api/categories', { compress: false, decompress: false }, (request, reply) => {
    reply.header('cache-control', 'no-cache');
    const fresh = catalog.freshSnapshot();
    if (fresh) return sendPrecompressedJson(request, reply, categoriesBody(fresh.categoriesJson));
    return catalog.categoriesJson().then((json) => sendPrecompressedJson(request, reply, categoriesBody(json)));
  });

  r.get('/api/categories/:slug', { schema: { params: categorySlugParams, response: { 200: categorySchema, ...errorResponses } } }, async (request) => {
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

  // Grid pages (the home page's 'Latest Drops' after its first page or a filter click): bodies for
  // the current snapshot only, at most a few hundred of them.
  const pageBodies = new Map<string, PrecompressedBody>();
  let pageBodiesVersion = -1;
  const cachedBody = (version: number, key: string, make: () => unknown) => {
    if (version !== pageBodiesVersion) {
      pageBodies.clear();
      pageBodiesVersion = version;
    }
    let body = pageBodies.get(key);
    if (!body) {
      body = new PrecompressedBody(JSON.stringify(make()), { brotliQuality: 6 });
      if (pageBodies.size < 500) pageBodies.set(key, body);
    }
    return body;
  };

  r.get('/api/products/page', { schema: { querystring: productPageQuery }, compress: false, decompress: false }, async (request, reply) => {
    const { category, page = 1 } = request.query;
    const snap = await catalog.current();
    const body = cachedBody(snap.version, `${category ?? ''} ${page}`, () =>
      slicePage(snap.products, { category: category ?? null, page }, PRODUCT_PAGE_SIZE),
    );
    reply.header('cache-control', 'no-cache');
    return sendPrecompressedJson(request, reply, body);
  });

  r.get('/api/products/featured', { compress: false, decompress: false }, async (request, reply) => {
    const snap = await catalog.current();
    reply.header('cache-control', 'no-cache');
    return sendPrecompressedJson(request, reply, cachedBody(snap.version, 'featured', () => pickFeatured(snap.products)));
  });

  // Products whose release is still to come (the home page's 'Upcoming drops'): depends on the time, so not cached.
  r.get('/api/products/upcoming', { schema: { response: { 200: productListSchema, ...errorResponses } } }, async (_request, reply) => {
    const snap = await catalog.current();
    reply.header('cache-control', 'no-cache');
    return upcomingDrops(snap.products, Date.now());
  });

  // The products sold by draw right now: their cards lead to the draw instead of an Add to Cart the server
  // would refuse (docs/draw.md). One small list for every grid, read from the draws' few-seconds cache.
  r.get('/api/products/draws', { schema: { response: { 200: drawSaleListSchema, ...errorResponses } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return opts.draws ? opts.draws.drawSales() : [];
  });

  r.get('/api/products/:id', { schema: { params: productIdParams, response: { 200: productSchema, ...errorResponses } } }, async (request) => {
    const product = await catalog.getProduct(request.params.id);
    if (!product) throw notFound('Product not found');
    return product;
  });
}
