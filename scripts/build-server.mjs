// Compiles the server (server/main.ts and everything it imports from server/ and common/) to one
// JavaScript module, dist/server/main.js, so `npm start` runs plain node: no TypeScript compilation at
// run time. npm packages stay external (loaded from node_modules as usual). The mail worker thread is its
// own entry, dist/server/mail-worker.js, found next to main.js (server/modules/mail/mail-thread.ts).
// Usage: node scripts/build-server.mjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverEntryOut = path.join(root, 'dist', 'server', 'main.js');

/**
 * The server's build: `main` (the shop) beside the mail worker's own entry, in `outdir`; code both use goes to
 * chunks/. Also used by the mail worker's test to compile a small entry the same way.
 */
export function serverBuildOptions({
  main = path.join(root, 'server', 'main.ts'),
  outdir = path.dirname(serverEntryOut),
} = {}) {
  return {
    entryPoints: { main, 'mail-worker': path.join(root, 'server', 'modules', 'mail', 'mail-worker.ts') },
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
