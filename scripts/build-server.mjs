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

export async function buildServer() {
  await build({
    entryPoints: {
      main: path.join(root, 'server', 'main.ts'),
      'mail-worker': path.join(root, 'server', 'modules', 'mail', 'mail-worker.ts'),
    },
    outdir: path.dirname(serverEntryOut),
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
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
}
