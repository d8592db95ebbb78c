// The shop as `npm start` runs it: server/main.ts compiled by scripts/build-server.mjs into plain JavaScript.
// Tests and benches that spawn shop processes start this build instead of the TypeScript sources through
// tsx: a start then costs about half the CPU (1.0 against 2.0–2.3 CPU-seconds to healthy on the 2-core
// reference box; CONTRIBUTING.md "Test"), and it is the code production runs.
//
// One build per state of the sources, in node_modules/.cache/fifty-test-server/<key> (the key hashes every
// server and common source file's path, size and modification time): test runs side by side (Vitest beside
// Playwright) share it, and an edited file gets a new one. Inside the checkout, so the build finds the
// project's node_modules (npm packages stay external) and its package.json (server/lib/project-root.ts).
// A build is written to a folder of its own and renamed into place, so two processes building at once
// cannot leave a half-written one.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { serverBuildOptions } from '../../scripts/build-server.mjs';
import { projectRoot } from '../../server/lib/project-root';

const cacheDir = path.join(projectRoot, 'node_modules', '.cache', 'fifty-test-server');
/** Older builds than this are removed when a new one is made (a run still using one is long over). */
const KEEP_OLD_BUILDS_MS = 60 * 60_000;

function sourcesKey(): string {
  const hash = crypto.createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!entry.name.endsWith('.test.ts')) {
        const st = fs.statSync(full);
        hash.update(`${path.relative(projectRoot, full)}\0${st.size}\0${st.mtimeMs}\n`);
      }
    }
  };
  for (const dir of ['server', 'common']) walk(path.join(projectRoot, dir));
  const builder = fs.statSync(path.join(projectRoot, 'scripts', 'build-server.mjs'));
  hash.update(`build-server\0${builder.size}\0${builder.mtimeMs}`);
  return hash.digest('hex').slice(0, 16);
}

function removeOldBuilds(keep: string): void {
  for (const name of fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : []) {
    const full = path.join(cacheDir, name);
    if (name !== keep && Date.now() - fs.statSync(full).mtimeMs > KEEP_OLD_BUILDS_MS) fs.rmSync(full, { recursive: true, force: true });
  }
}

let built: Promise<string> | undefined;

/** The path of the compiled shop's entry (main.js) for the sources as they are now; built on first use. */
export function compiledServerEntry(): Promise<string> {
  return (built ??= (async () => {
    const key = sourcesKey();
    const dir = path.join(cacheDir, key);
    const entry = path.join(dir, 'main.js');
    if (fs.existsSync(entry)) return entry;
    fs.mkdirSync(cacheDir, { recursive: true });
    const staging = fs.mkdtempSync(path.join(cacheDir, `${key}.building-`));
    try {
      await build(serverBuildOptions({ outdir: staging }));
      try {
        fs.renameSync(staging, dir);
      } catch (err) {
        // Another process put the same build in place first: use that one.
        if (!fs.existsSync(entry)) throw err;
      }
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
    removeOldBuilds(key);
    return entry;
  })());
}
