// Compiles the server (server/main.ts and everything it imports from server/ and common/) to one
// JavaScript module, dist/server/main.js, so `npm start` runs plain node: no TypeScript compilation at
// run time. npm packages stay external (loaded from node_modules as usual).
// Usage: node scripts/build-server.mjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverEntryOut = path.join(root, 'dist', 'server', 'main.js');

/**
 * The server's build: `main` (the shop) in `outdir`; modules loaded with import() go to chunks/. Also used by
 * tests/support/compiled-server.ts to build the server the same way.
 */
export function serverBuildOptions({
  main = path.join(root, 'server', 'main.ts'),
  outdir = path.dirname(serverEntryOut),
} = {}) {
  return {
    entryPoints: { main },
    outdir,
    // Modules imported with import() (Stripe, S3) become chunks loaded only when used.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    legalComments: 'none',
  };
}

export async function buildServer() {
  await build(serverBuildOptions());
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
}
