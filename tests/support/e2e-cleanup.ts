// The Playwright run's own shop (playwright.config.ts webServer) must leave nothing running. Playwright
// ends the web server with SIGKILL to its process group unless `gracefulShutdown` is set, and the
// shop's embedded PostgreSQL runs in a process group of its own (ADR 007): a killed shop leaves it
// running for good. The config therefore sends SIGTERM (the shop stops its database and exits 0), and
// this is the safety net for when that did not happen (the stop timed out, the runner was killed):
// when the runner exits, a postmaster still running on the run's data directory is stopped and the
// throwaway folder removed. Playwright tears its web server down after globalTeardown, so a
// globalTeardown would run while the shop still owns its database: the runner's 'exit' is the moment.
import fs from 'node:fs';
import path from 'node:path';
import { resolveClusterDir } from '../../server/db/embedded-postgres';

const STOP_WAIT_MS = 15_000;

/** The live postmaster of a shop's data directory (checked to be PostgreSQL, not a reused pid), else null. */
export function shopPostmasterPid(dataDir: string): number | null {
  let pid: number;
  try {
    const cluster = resolveClusterDir(path.join(dataDir, 'postgres'));
    pid = Number(fs.readFileSync(path.join(cluster, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 0);
  } catch {
    return null;
  }
  try {
    return /postgres/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')) ? pid : null;
  } catch {
    return pid;
  }
}

/** Blocks this thread (an 'exit' handler cannot await). */
function sleepSync(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Stops what the shop on `dataDir` left running (fast shutdown: SIGINT to the postmaster) and, once it is
 * gone, removes the folder. Synchronous, so it can run in an 'exit' handler. Returns whether one was running.
 */
export function stopLeftoverShopDatabase(dataDir: string, opts: { remove?: boolean } = {}): boolean {
  const pid = shopPostmasterPid(dataDir);
  if (pid !== null) {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // gone meanwhile
    }
    const until = Date.now() + STOP_WAIT_MS;
    while (shopPostmasterPid(dataDir) !== null && Date.now() < until) sleepSync(100);
  }
  if (opts.remove && shopPostmasterPid(dataDir) === null) fs.rmSync(dataDir, { recursive: true, force: true });
  return pid !== null;
}

/** In the Playwright runner: clean up the run's shop data directory when the runner exits. */
export function cleanUpShopOnExit(dataDir: string): void {
  process.once('exit', () => {
    if (stopLeftoverShopDatabase(dataDir, { remove: true })) {
      console.warn(`The e2e shop's PostgreSQL was still running on ${dataDir} after the run: stopped it.`);
    }
  });
}
