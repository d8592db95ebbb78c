// As root with DATA_DIR inside a private folder (a clone in /root, any mkdtemp folder): the embedded
// PostgreSQL's user `fifty-postgres` cannot enter it, so the cluster is kept under /var/lib/fifty and
// DATA_DIR/postgres.location points to it (ADR 007 amendment, README "The embedded database").
// Real shop processes; runs only as root (the only case where the database has a user of its own).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase } from './client';
import { clusterPointerFile, RELOCATED_CLUSTERS_ROOT, resolveClusterDir } from './embedded-postgres';
import { buyOnePiece, spawnShop, waitHealthy, type ShopProcess } from '../../tests/support/shop-process';

const asRoot = process.getuid?.() === 0;
const shops: ShopProcess[] = [];
let privateDir: string | undefined;
let clusterDir: string | undefined;
let madeRoot = false;

function postmasterPid(cluster: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(cluster, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

async function start(dataDir: string) {
  const shop = await spawnShop({ dataDir });
  shops.push(shop);
  return shop;
}

afterAll(async () => {
  for (const s of shops) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  const dataDir = privateDir && path.join(privateDir, 'checkout', 'data');
  if (dataDir && clusterDir && postmasterPid(clusterDir)) {
    // Stopped through the same code path as the shop's own stop.
    await (await openDatabase({ dataDir, embeddedMode: 'shared', poolSize: 1 })).close().catch(() => undefined);
  }
  if (clusterDir?.startsWith(`${RELOCATED_CLUSTERS_ROOT}/`)) fs.rmSync(clusterDir, { recursive: true, force: true });
  if (madeRoot) {
    try {
      fs.rmdirSync(RELOCATED_CLUSTERS_ROOT); // only when empty: another checkout's cluster stays
    } catch {
      // not empty
    }
  }
  if (privateDir) fs.rmSync(privateDir, { recursive: true, force: true });
});

describe.skipIf(!asRoot)('as root, DATA_DIR inside a private folder', () => {
  test('the cluster lives under /var/lib/fifty: the shop serves, stops clean, starts again on it, adopts it after kill -9, and a second shop refuses', async () => {
    madeRoot = !fs.existsSync(RELOCATED_CLUSTERS_ROOT);
    privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-private-'));
    fs.chmodSync(privateDir, 0o700);
    const dataDir = path.join(privateDir, 'checkout', 'data');

    const first = await start(dataDir);
    await waitHealthy(first);
    clusterDir = resolveClusterDir(path.join(dataDir, 'postgres'));
    expect(path.dirname(clusterDir)).toBe(RELOCATED_CLUSTERS_ROOT);
    expect(fs.readFileSync(clusterPointerFile(path.join(dataDir, 'postgres')), 'utf8').trim()).toBe(clusterDir);
    // One line on the first start says where; DATA_DIR keeps no cluster and stays private (0700).
    expect(first.output().split('\n').filter((l) => l.includes(`keeps its database in ${clusterDir}`))).toHaveLength(1);
    expect(fs.existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(postmasterPid(clusterDir)).not.toBeNull();
    const orderNumber = await buyOnePiece(first.base);

    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(postmasterPid(clusterDir)).toBeNull();

    // A restart finds the same cluster through the pointer (the order is there), saying nothing new.
    const second = await start(dataDir);
    await waitHealthy(second);
    expect(second.output()).not.toContain('keeps its database in');
    const db = await openDatabase({ dataDir, embeddedMode: 'shared', poolSize: 1 });
    try {
      const { rows } = await db.pool.query<{ n: number }>('select count(*)::int as n from orders where order_number = $1', [orderNumber]);
      expect(rows[0]!.n).toBe(1);
    } finally {
      await db.close();
    }

    // kill -9: the database outlives the app, and the next start adopts it.
    second.child.kill('SIGKILL');
    await second.exited;
    const survivor = postmasterPid(clusterDir);
    expect(survivor).not.toBeNull();
    const third = await start(dataDir);
    await waitHealthy(third);
    expect(third.output()).toContain('Reusing the embedded PostgreSQL left running by an earlier process.');
    expect(postmasterPid(clusterDir)).toBe(survivor);

    // One owner: a second shop on the same DATA_DIR refuses, the first keeps serving.
    const fourth = await start(dataDir);
    expect((await fourth.exited).code).toBe(1);
    expect(fourth.output()).toContain(`Another Fifty process is already running on ${dataDir}`);
    expect((await fetch(`${third.base}/healthz`)).status).toBe(200);

    third.child.kill('SIGTERM');
    expect(await third.exited).toEqual({ code: 0, signal: null });
    expect(postmasterPid(clusterDir)).toBeNull();
  }, 90_000);
});
