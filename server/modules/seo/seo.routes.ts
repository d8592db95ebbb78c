import type { FastifyInstance } from 'fastify';
import { requestUrl } from './request-url';
import type { SeoService } from './seo.service';

/** Crawler entry points: the sitemap lists every public page with absolute URLs. */
export async function seoRoutes(app: FastifyInstance, opts: { seo: SeoService }): Promise<void> {
  const { seo } = opts;

  app.get('/sitemap.xml', async (request, reply) => {
    const xml = await seo.sitemapXml(requestUrl(request).origin);
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(xml);
  });

  app.get('/robots.txt', async (request, reply) => {
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(seo.robotsTxt(requestUrl(request).origin));
  });
}
