import fs from 'node:fs';
import path from 'node:path';
import { PrecompressedBody } from './precompressed';

/**
 * The storefront's built files (scripts/build-client.mjs), read into memory once when the shop starts and
 * sent as they are: a request for a script, stylesheet or font touches no disk and compresses nothing. On a
 * drop's release second every new shopper asks for the same few dozen files at once; served from disk and
 * compressed per response (@fastify/static under @fastify/compress), they took a large share of the shop's CPU
 * in a browser test run (bench/README.md, "Figures that were in code comments"). The build writes a brotli
 * and a gzip copy beside each text file; a file without them is compressed once, on its first request in
 * that encoding (PrecompressedBody). The whole build, copies included, is small enough to keep in memory.
 */
export interface ClientFile {
  body: PrecompressedBody;
  contentType: string;
  cacheControl: string;
}

/** The types of what a Vite build emits; anything else is sent as bytes of no known type. */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};
const contentTypeOf = (file: string) => CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
/** Formats that are compressed already: compressing them again only costs CPU. */
const COMPRESSED_FORMAT = /\.(png|jpe?g|webp|avif|woff2?|gz|br)$/i;

/**
 * Every file of the build by its URL path ('/assets/boot-Ab12.js', '/favicon.svg'): not index.html (the pages'
 * template), not Vite's manifest, not the .br/.gz copies themselves. Files under assets/ carry a content hash
 * in their names and are cached for a year; the others for an hour.
 */
export function loadClientFiles(clientDir: string): Map<string, ClientFile> {
  const files = new Map<string, ClientFile>();
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file) : undefined);
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.vite') walk(full);
        continue;
      }
      if (/\.(br|gz)$/.test(entry.name) || full === path.join(clientDir, 'index.html')) continue;
      const urlPath = `/${path.relative(clientDir, full).split(path.sep).join('/')}`;
      const compressed = COMPRESSED_FORMAT.test(entry.name);
      files.set(urlPath, {
        body: new PrecompressedBody(fs.readFileSync(full), {
          compressed,
          encoded: compressed ? {} : { br: read(`${full}.br`), gzip: read(`${full}.gz`) },
        }),
        contentType: contentTypeOf(entry.name),
        cacheControl: urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      });
    }
  };
  walk(clientDir);
  return files;
}
