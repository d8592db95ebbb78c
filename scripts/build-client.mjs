// Builds the storefront: the browser bundle into <clientDir> and the server-rendering bundle
// (client/entry-server.tsx, every dependency bundled in) into <clientDir>-ssr, then a brotli and a gzip copy of
// each text file of the browser build beside it (precompressClient).
// Usage: node scripts/build-client.mjs [clientDir]   (default dist/client)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vite = path.join(root, 'node_modules', '.bin', 'vite');

export function ssrDirFor(clientDir) {
  return `${clientDir.replace(/[\\/]+$/, '')}-ssr`;
}

/** Text files of the browser build worth compressing (fonts and images are compressed formats already). */
const COMPRESSIBLE_FILE = /\.(js|mjs|css|svg|json|txt|webmanifest)$/;

/**
 * Writes `<file>.br` (brotli 11) and `<file>.gz` (gzip 9) beside every compressible file of 1 KB or more in the
 * browser build (not index.html, the server's page template, nor Vite's manifest). The shop sends these bytes
 * as they are (server/plugins/client-files.ts) instead of compressing each response: about 1.2 CPU-seconds
 * once per build, for the smallest output.
 */
export function precompressClient(clientDir) {
  const walk = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === '.vite' ? [] : walk(full);
      return [full];
    });
  for (const file of walk(clientDir)) {
    if (!COMPRESSIBLE_FILE.test(file)) continue;
    const bytes = fs.readFileSync(file);
    if (bytes.length < 1024) continue;
    const quality = { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(bytes, { params: quality }));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  }
}

export function buildClient(clientDir) {
  const steps = [
    ['build', '--logLevel', 'warn', '--outDir', clientDir, '--emptyOutDir'],
    ['build', '--logLevel', 'warn', '--ssr', 'entry-server.tsx', '--outDir', ssrDirFor(clientDir), '--emptyOutDir'],
  ];
  for (const args of steps) {
    const r = spawnSync(vite, args, { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) return r.status ?? 1;
  }
  precompressClient(clientDir);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const clientDir = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'client'));
  process.exit(buildClient(clientDir));
}
