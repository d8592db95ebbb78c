// `npm start`: build the client when it is missing or older than its sources, migrate and seed in a
// short-lived process (PGlite's first initialisation memory is returned to the OS), then serve.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildClient, ssrDirFor } from './build-client.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const clientDir = process.env.CLIENT_DIR ? path.resolve(process.env.CLIENT_DIR) : path.join(root, 'dist', 'client');
const built = [path.join(clientDir, 'index.html'), path.join(ssrDirFor(clientDir), 'entry-server.js')];
const stale =
  !process.env.FIFTY_SKIP_BUILD &&
  (!built.every((f) => fs.existsSync(f)) ||
    Math.max(newestMtime(path.join(root, 'client')), newestMtime(path.join(root, 'common'))) >
      Math.min(...built.map((f) => fs.statSync(f).mtimeMs)));
if (stale) {
  console.log('Building the storefront…');
  const status = buildClient(clientDir);
  if (status !== 0) process.exit(status);
}

const migrate = spawnSync(bin('tsx'), ['scripts/db-migrate.ts'], { cwd: root, stdio: 'inherit' });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const server = spawn(bin('tsx'), ['server/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FIFTY_DB_PREPARED: '1', NODE_ENV: process.env.NODE_ENV ?? 'production' },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
