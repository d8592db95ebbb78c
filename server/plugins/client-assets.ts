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

export interface ClientAssets {
  /** <link rel="preload"> for the latin files of the two fonts every screen uses. */
  fontPreloads: string;
  /** The app shell and the screen's own chunk with their imports (not the entry, which is in the HTML). */
  scriptsFor(pathname: string): string[];
}

/**
 * The files a screen needs beyond the HTML, from the Vite manifest, so the browser can fetch them
 * in parallel instead of discovering them one import at a time (no request waterfall).
 */
export function loadClientAssets(clientDir: string): ClientAssets {
  const manifestPath = path.join(clientDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestPath)) return { fontPreloads: '', scriptsFor: () => [] };
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const collect = (chunk: ManifestChunk | undefined, into: Set<string>) => {
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const key of chunk.imports ?? []) collect(manifest[key], into);
  };
  const closure = (key: string) => {
    const files = new Set<string>();
    collect(manifest[key], files);
    return files;
  };
  // The entry and its static imports are already in index.html (Vite writes their tags).
  const inHtml = new Set<string>();
  collect(
    Object.values(manifest).find((c) => c.isEntry),
    inHtml,
  );
  // The entry imports the libraries (client/vendor.ts), then the app shell (client/boot.tsx), once
  // the page is painted.
  const shell = [...new Set([...closure('vendor.ts'), ...closure('boot.tsx')])].filter((f) => !inHtml.has(f));
  const skip = new Set([...inHtml, ...shell]);

  const assetsDir = path.join(clientDir, 'assets');
  const fonts = fs.existsSync(assetsDir)
    ? fs.readdirSync(assetsDir).filter((f) => /^(anton-latin-400-normal|inter-latin-wght-normal)-.*\.woff2$/.test(f))
    : [];
  const fontPreloads = fonts
    .map((f) => `<link rel="preload" href="/assets/${f}" as="font" type="font/woff2" crossorigin>`)
    .join('\n');

  const filesFor = (page: string) => [...shell, ...[...closure(`pages/${page}.tsx`)].filter((f) => !skip.has(f))];
  const cache = new Map(PAGE_BY_PREFIX.map(([, page]) => [page, filesFor(page)] as const));
  const notFound = filesFor('not-found-page');

  return {
    fontPreloads,
    scriptsFor(pathname: string): string[] {
      const hit = PAGE_BY_PREFIX.find(([re]) => re.test(pathname));
      return hit ? cache.get(hit[1])! : notFound;
    },
  };
}
