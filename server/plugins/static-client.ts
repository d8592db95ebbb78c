import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { SeoService } from '../modules/seo/seo.service';

export interface StaticClientOptions {
  clientDir: string;
  uploadsDir: string;
  seo: SeoService;
}

/** JSON inside <script type="application/json"> is data, not script: CSP allows it; `<` is escaped. */
function bootstrapTag(data: Record<string, unknown>): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<script type="application/json" id="fifty-bootstrap">${json}</script>`;
}

export async function registerStaticClient(app: FastifyInstance, opts: StaticClientOptions): Promise<void> {
  fs.mkdirSync(opts.uploadsDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: opts.uploadsDir,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    setHeaders(res) {
      // Upload keys are content-unique and never rewritten.
      res.header('cache-control', 'public, max-age=31536000, immutable');
      res.header('x-content-type-options', 'nosniff');
    },
  });

  const indexPath = path.join(opts.clientDir, 'index.html');
  const hasClient = fs.existsSync(indexPath);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: opts.clientDir,
      prefix: '/',
      index: false,
      wildcard: false,
      decorateReply: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }
  const template = hasClient
    ? fs.readFileSync(indexPath, 'utf8')
    : '<!doctype html><html lang="en"><head><meta charset="utf-8"><!--app-head--></head><body><div id="root"></div><p>Client not built: run npm run build.</p></body></html>';

  app.get('/*', async (request, reply) => {
    const url = new URL(request.url, `${request.protocol}://${request.headers.host ?? 'localhost'}`);
    if (url.pathname.startsWith('/api/') || url.pathname === '/api') {
      return reply.status(404).send({ message: `Not found: GET ${url.pathname}` });
    }
    if (path.extname(url.pathname) && !url.pathname.endsWith('.html')) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    const page = await opts.seo.renderPage(url);
    const html = template.replace('<!--app-head-->', `${page.head}\n${bootstrapTag(page.bootstrap)}`);
    return reply
      .status(page.status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(html);
  });
}
