// `npm start`: build the storefront and the server when missing or older than their sources, then run
// the compiled server in THIS process (no child): SIGTERM/SIGINT from npm, docker or systemd reach the
// server itself, which drains its requests, stops its jobs and the embedded database, and exits 0.
// The server migrates the database (and seeds the demo shop on first start) before it listens.
// It also supervises its embedded PostgreSQL (restarts it when it dies, ADR 007 amendment), so a bare
// `npm start` heals by itself; it exits non-zero only when it must not go on (see docs/operations.md).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildClient, ssrDirFor } from './build-client.mjs';
import { buildServer, serverEntryOut } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** True when an output is missing or older than any file under the source folders. */
function stale(outputs, sourceDirs) {
  if (!outputs.every((f) => fs.existsSync(f))) return true;
  const newestSource = Math.max(...sourceDirs.map((d) => newestMtime(path.join(root, d))));
  return newestSource > Math.min(...outputs.map((f) => fs.statSync(f).mtimeMs));
}

const skipBuild = Boolean(process.env.FIFTY_SKIP_BUILD);
const clientDir = process.env.CLIENT_DIR ? path.resolve(process.env.CLIENT_DIR) : path.join(root, 'dist', 'client');
if (!skipBuild && stale([path.join(clientDir, 'index.html'), path.join(ssrDirFor(clientDir), 'entry-server.js')], ['client', 'common'])) {
  console.log('Building the storefront…');
  const status = buildClient(clientDir);
  if (status !== 0) process.exit(status);
}
// The server is always rebuilt when stale (about a second); FIFTY_SKIP_BUILD only skips the storefront build.
if (stale([serverEntryOut], ['server', 'common'])) {
  console.log('Compiling the server…');
  await buildServer();
}

await import(pathToFileURL(serverEntryOut).href);
