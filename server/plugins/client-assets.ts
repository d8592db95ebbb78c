import fs from 'node:fs';
import path from 'node:path';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

// Which lazy page chunk a path renders (mirrors client/app/router.tsx).
const PAGE_BY_PREFIX: Array<[RegExp, string]> = [
  [/^\/$/, 'home-page'],
  [/^\/products?\/[^/]+$/, 'product-page'],
  [/^\/category\/[^/]+$/, 'category-page'],
  [/^\/search$/, 'search-page'],
  [/^\/checkout$/, 'checkout-page'],
  [/^\/order-success$/, 'order-success-page'],
  [/^\/admin$/, 'admin-page'],
  [/^\/refund-policy$/, 'refund-policy-page'],
  [/^\/size-guide$/, 'size-guide-page'],
  [/^\/mission$/, 'mission-page'],
  [/^\/shipping$/, 'shipping-page'],
];

/**
 * <link rel="modulepreload"> for the route's own chunk and the latin fonts, so the browser fetches
 * them in parallel with the entry bundle instead of after it has run (no request waterfall).
 */
export function loadClientAssets(clientDir: string): { preloadsFor(pathname: string): string } {
  const manifestPath = path.join(clientDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestPath)) return { preloadsFor: () => '' };
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.values(manifest).find((c) => c.isEntry);
  const entryFiles = new Set<string>();
  const collect = (chunk: ManifestChunk | undefined, into: Set<string>) => {
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const key of chunk.imports ?? []) collect(manifest[key], into);
  };
  collect(entry, entryFiles);

  const assetsDir = path.join(clientDir, 'assets');
  const fonts = fs.existsSync(assetsDir)
    ? fs.readdirSync(assetsDir).filter((f) => /^(anton-latin-400-normal|inter-latin-wght-normal)-.*\.woff2$/.test(f))
    : [];
  const fontLinks = fonts.map((f) => `<link rel="preload" href="/assets/${f}" as="font" type="font/woff2" crossorigin>`);

  const cache = new Map<string, string>();
  for (const [, page] of PAGE_BY_PREFIX) {
    const chunk = manifest[`pages/${page}.tsx`];
    const files = new Set<string>();
    collect(chunk, files);
    const links = [...files].filter((f) => !entryFiles.has(f)).map((f) => `<link rel="modulepreload" href="/${f}">`);
    cache.set(page, [...fontLinks, ...links].join('\n'));
  }
  const notFound = (() => {
    const files = new Set<string>();
    collect(manifest['pages/not-found-page.tsx'], files);
    return [...fontLinks, ...[...files].filter((f) => !entryFiles.has(f)).map((f) => `<link rel="modulepreload" href="/${f}">`)].join('\n');
  })();

  return {
    preloadsFor(pathname: string): string {
      const hit = PAGE_BY_PREFIX.find(([re]) => re.test(pathname));
      return hit ? cache.get(hit[1])! : notFound;
    },
  };
}
