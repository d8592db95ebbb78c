import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { jsonForScript, type SeoService } from '../modules/seo/seo.service';
import { createPageCache, type CachedPage, type PageCache, type PageCacheOptions } from './page-cache';
import { loadClientAssets } from './client-assets';
import { loadClientFiles } from './client-files';
import { PrecompressedBody, sendPrecompressed } from './precompressed';
import { loadServerRenderer } from './server-render';

declare module 'fastify' {
  interface FastifyInstance {
    /** The rendered-page cache (its stats are read by tests). */
    pageCache: PageCache;
  }
}

export interface StaticClientOptions {
  clientDir: string;
  uploadsDir: string;
  seo: SeoService;
  /** The shop's own origin (PUBLIC_URL's, else http://localhost:PORT): pages are keyed and rendered for it. */
  origin: string;
  pageCache?: PageCacheOptions;
}

interface PreloadProduct {
  category?: string;
  images?: string[];
}

/** The first screen's big image, preloaded with the same srcset/sizes the page's <img> uses. */
function lcpImagePreload(pathname: string, bootstrap: Record<string, unknown>): string {
  let src: string | undefined;
  let sizes = '';
  if (/^\/products?\//.test(pathname)) {
    src = (bootstrap.product as PreloadProduct | null | undefined)?.images?.[0];
    sizes = '(min-width: 1024px) 50vw, 100vw';
  } else if (pathname.startsWith('/category/')) {
    const list = (bootstrap.categoryProducts as { products?: PreloadProduct[] } | undefined)?.products ?? [];
    src = list[0]?.images?.[0];
    sizes = '(min-width: 1024px) 25vw, 50vw';
  }
  const m = src ? /^(\/uploads\/.+)\.webp$/.exec(src) : null;
  if (!m) return '';
  const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const srcset = `${m[1]}-400.webp 400w, ${m[1]}-800.webp 800w, ${src} 1600w`;
  return `<link rel="preload" as="image" href="${esc(`${m[1]}-800.webp`)}" imagesrcset="${esc(srcset)}" imagesizes="${sizes}" fetchpriority="high">`;
}

/** JSON inside <script type="application/json"> is data, not script: CSP allows it; `<` is escaped. */
function jsonTag(id: string, data: unknown): string {
  return `<script type="application/json" id="${id}">${jsonForScript(data)}</script>`;
}

const bootstrapTag = (data: Record<string, unknown>) => jsonTag('fifty-bootstrap', data);

const ROOT_DIV = '<div id="root"></div>';

/** The stylesheet right after the fixed <meta> tags, ahead of the per-page head, so it is fetched first. */
function prepareTemplate(html: string): string {
  const sheets: string[] = [];
  const rest = html.replace(/\s*<link rel="stylesheet"[^>]*>/g, (tag) => {
    sheets.push(tag.trim());
    return '';
  });
  return sheets.length ? rest.replace('<!--app-head-->', () => `${sheets.join('\n')}\n<!--app-head-->`) : html;
}

/** fetchpriority="low" on the entry script and every module preload. */
function lowPriorityScripts(html: string): string {
  return html.replace(/<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority)/g, '<$1 fetchpriority="low"');
}

const isApiPath = (p: string) => p === '/api' || p.startsWith('/api/');

export async function registerStaticClient(app: FastifyInstance, opts: StaticClientOptions): Promise<void> {
  fs.mkdirSync(opts.uploadsDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: opts.uploadsDir,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    // The caching header is ours (setHeaders), not send's default `max-age=0`.
    cacheControl: false,
    setHeaders(reply) {
      // Upload keys are content-unique and never rewritten.
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
    },
  });

  const indexPath = path.join(opts.clientDir, 'index.html');
  const hasClient = fs.existsSync(indexPath);
  if (hasClient) {
    // One route per built file, answered from memory (client-files.ts); HEAD comes with each GET.
    for (const [urlPath, file] of loadClientFiles(opts.clientDir)) {
      app.get(urlPath, { compress: false }, (request, reply) => {
        reply.header('cache-control', file.cacheControl);
        return sendPrecompressed(request, reply, file.body, file.contentType);
      });
    }
  }
  const template = prepareTemplate(
    hasClient
      ? fs.readFileSync(indexPath, 'utf8')
      : '<!doctype html><html lang="en"><head><meta charset="utf-8"><!--app-head--></head><body><div id="root"></div><p>Client not built: run npm run build.</p></body></html>',
  );
  // A server-rendered page's entry script is tiny and waits for the first paint anyway.
  const ssrTemplate = lowPriorityScripts(template);

  const assets = loadClientAssets(opts.clientDir);
  const renderer = await loadServerRenderer(opts.clientDir, app.log);
  if (hasClient && !template.includes(ROOT_DIV)) throw new Error(`${indexPath} has no ${ROOT_DIV}`);

  /** One page as it is sent, rendered for `url` (already reduced to what the page reads). */
  async function renderPage(url: URL, version: number): Promise<CachedPage> {
    const page = await opts.seo.renderPage(url);
    if (page.redirect) return { version, status: 301, redirect: page.redirect, body: null, openEnded: true };
    const markup = await renderer.render(url, page.bootstrap);
    const scripts = assets.scriptsFor(url.pathname);
    const image = lcpImagePreload(url.pathname, page.bootstrap);
    // A server-rendered page is painted before its scripts load (client/main.tsx fetches them
    // after the first paint, from the list below): the stylesheet, fonts and first image come first.
    // Its markup sits in a disabled <fieldset> until hydration, so no button is pressed before it works.
    // A page the browser renders itself preloads its scripts at once. The data comes after the page.
    const scriptPreloads = markup ? '' : scripts.map((f) => `<link rel="modulepreload" href="/${f}">`).join('\n');
    const head = `${page.head}\n${assets.fontPreloads}\n${scriptPreloads}\n${image}`;
    const root = markup ? `<fieldset id="root" role="none" disabled>${markup}</fieldset>` : ROOT_DIV;
    const data = `${bootstrapTag(page.bootstrap)}${markup ? `\n${jsonTag('fifty-scripts', scripts.map((f) => `/${f}`))}` : ''}`;
    // A function replacement: `$&` or `$'` in product copy must not be read as replacement patterns.
    const html = (markup ? ssrTemplate : template)
      .replace('<!--app-head-->', () => head)
      .replace(ROOT_DIV, () => `${root}\n${data}`);
    // Pages are re-made on every stock change during a drop: a fast brotli setting, as the best one costs many
    // times the CPU for a slightly smaller page (bench/README.md, "Figures that were in code comments").
    return { version, status: page.status, body: new PrecompressedBody(html, { brotliQuality: 6 }), openEnded: page.openEnded };
  }

  function sendPage(request: FastifyRequest, reply: FastifyReply, page: CachedPage) {
    if (page.redirect) return reply.redirect(page.redirect, 301);
    // Nothing in a page is per shopper (the cart, popup and session live in the browser), so one
    // copy serves everyone; browsers revalidate it with its ETag on every visit.
    reply.code(page.status).header('cache-control', 'no-cache');
    return sendPrecompressed(request, reply, page.body!, 'text/html; charset=utf-8', { validator: page.status === 200 });
  }

  /**
   * Rendered pages are cached per catalogue version (see modules/seo/page-cache.ts): a hit is
   * answered from memory without a promise, as the catalogue JSON is.
   */
  const pages = createPageCache(opts.pageCache);
  app.decorate('pageCache', pages);

  /**
   * The page a request asks for, on the shop's own origin: the Host header plays no part, so any number of
   * made-up hosts is one cached page (and a Host can never leak into a page others are sent).
   */
  function pageRequestUrl(rawUrl: string): URL {
    try {
      // Parsed against the origin so that `//evil.example/x` stays a path.
      const url = new URL(`${opts.origin}${rawUrl.startsWith('/') ? '' : '/'}${rawUrl}`);
      return url.origin === opts.origin ? url : new URL(`${opts.origin}/`);
    } catch {
      return new URL(`${opts.origin}/`);
    }
  }

  app.get('/*', { compress: false }, (request, reply) => {
    const url = pageRequestUrl(request.url);
    // The raw path too: `/api/../x` is still a call to the API, not a page.
    if (isApiPath(url.pathname) || isApiPath(request.url.split('?')[0])) {
      return reply.status(404).send({ message: `Not found: GET ${url.pathname}` });
    }
    if (path.extname(url.pathname) && !url.pathname.endsWith('.html')) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    const target = opts.seo.pageUrl(url);
    // What the page shows besides the catalogue (a product's draw) is part of its key: the page turns with it.
    const variant = opts.seo.pageVariant(target);
    const keyOf = (v: string) => (v ? `${target.href} ${v}` : target.href);
    const fresh = opts.seo.freshCatalogVersion();
    const hit = fresh === null || typeof variant !== 'string' ? null : pages.get(keyOf(variant), fresh);
    if (hit) return sendPage(request, reply, hit);
    return (async () => {
      const key = keyOf(await variant);
      const version = fresh ?? (await opts.seo.catalogVersion());
      const page = pages.get(key, version) ?? (await pages.render(key, version, () => renderPage(target, version)));
      return sendPage(request, reply, page);
    })();
  });
}
