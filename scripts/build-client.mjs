// Builds the storefront: the browser bundle into <clientDir> and the server-rendering bundle
// (client/entry-server.tsx, every dependency bundled in) into <clientDir>-ssr.
// Usage: node scripts/build-client.mjs [clientDir]   (default dist/client)
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vite = path.join(root, 'node_modules', '.bin', 'vite');

export function ssrDirFor(clientDir) {
  return `${clientDir.replace(/[\\/]+$/, '')}-ssr`;
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
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const clientDir = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'client'));
  process.exit(buildClient(clientDir));
}
