// Start-up and idle footprint of the shop on its embedded PostgreSQL, as an operator meets them:
//   - first start on an empty DATA_DIR (create the cluster, migrate, seed and draw the demo art) → first 200
//   - restart on an existing DATA_DIR (after SIGTERM) → first 200, median of BENCH_RESTARTS (default 5)
//   - idle resident memory a few seconds after start: the app process plus every PostgreSQL process of
//     its data directory.
// Runs the compiled server (dist/server/main.js, built first) as `npm start` does.
//   npx tsx bench/startup.bench.ts
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, serverEntryOut } from '../scripts/build-server.mjs';
import { freePort, rssMb, stop } from './support/server-process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESTARTS = Number(process.env.BENCH_RESTARTS ?? 5);

async function startAndTime(dataDir: string, port: number): Promise<{ child: ChildProcess; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [serverEntryOut], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'bench-admin-password',
      CLIENT_DIR: path.join(root, 'dist', 'client'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return { child, ms: Math.round(performance.now() - started) };
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** RSS of every process whose command line names this data directory (the postmaster and its children). */
function postgresRssMb(dataDir: string): number {
  const ps = spawnSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).stdout.split('\n');
  const postmasters = ps.filter((l) => l.includes(path.join(dataDir, 'postgres', 'data'))).map((l) => Number(l.trim().split(/\s+/)[0]));
  const pids = new Set(postmasters);
  for (const l of ps) {
    const [pid, ppid] = l.trim().split(/\s+/).map(Number);
    if (pids.has(ppid!)) pids.add(pid!);
  }
  // Shared memory is counted once per process by RSS; PSS (proportional) counts it once in all.
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/Pss:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // exited
    }
  }
  return Math.round(kb / 1024);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  await buildServer();
  if (!fs.existsSync(path.join(root, 'dist', 'client', 'index.html'))) {
    spawnSync(process.execPath, ['scripts/build-client.mjs'], { cwd: root, stdio: 'inherit' });
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-startup-'));
  const port = await freePort();
  try {
    const first = await startAndTime(dataDir, port);
    console.log(`first start on an empty DATA_DIR → first 200: ${first.ms} ms`);
    await stop(first.child, 15_000);

    const restarts: number[] = [];
    const appRss: number[] = [];
    const pgPss: number[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      const run = await startAndTime(dataDir, port);
      restarts.push(run.ms);
      await new Promise((r) => setTimeout(r, 3000));
      appRss.push(rssMb(run.child.pid!));
      pgPss.push(postgresRssMb(dataDir));
      await stop(run.child, 15_000);
    }
    console.log(`restart on an existing DATA_DIR → first 200: ${restarts.join(', ')} ms (median ${median(restarts)} ms)`);
    console.log(
      `idle memory 3 s after start: app RSS ${appRss.join(', ')} MB; PostgreSQL PSS ${pgPss.join(', ')} MB; ` +
        `together median ${median(appRss.map((a, i) => a + pgPss[i]!))} MB`,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
