import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { namesDir, processesNaming, stopProcessesNaming } from './test-leftovers.mjs';

// `npm test` (scripts/test.mjs) fails when a phase leaves a process of its own running: these are the
// checks it relies on, on real processes.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function runDir() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-leftovers-'));
  dirs.push(d);
  return d;
}

test('a folder is named by a path in it, in an argument, an option or a variable; not by a longer sibling', () => {
  expect(namesDir('/usr/bin/postgres\0-D\0/tmp/run-1/postgres/data\0', '/tmp/run-1')).toBe(true);
  expect(namesDir('node\0--data=/tmp/run-1/x\0', '/tmp/run-1')).toBe(true);
  expect(namesDir('PATH=/usr/bin\0DATA_DIR=/tmp/run-1\0', '/tmp/run-1/')).toBe(true);
  expect(namesDir('/tmp/run-1', '/tmp/run-1')).toBe(true);
  expect(namesDir('/usr/bin/postgres\0-D\0/tmp/run-10/postgres\0', '/tmp/run-1')).toBe(false);
  expect(namesDir('TMPDIR=/tmp\0', '/tmp/run-1')).toBe(false);
});

test('a process left with the run folder in its environment, command line or working directory is found and stopped; others are not', async () => {
  const dir = runDir();
  const other = runDir();
  const byEnv = spawn('sleep', ['60'], { env: { PATH: process.env.PATH, DATA_DIR: path.join(dir, 'data') } });
  const byCwd = spawn('sleep', ['61'], { cwd: dir, env: { PATH: process.env.PATH } });
  // Ignores SIGTERM: SIGKILL after the grace time.
  const stubborn = spawn('sh', ['-c', `trap '' TERM; while :; do sleep 0.1; done; echo ${dir}`], { env: { PATH: process.env.PATH } });
  const notOurs = spawn('sleep', ['63'], { env: { PATH: process.env.PATH, DATA_DIR: other } });
  const exits = [byEnv, byCwd, stubborn].map((c) => new Promise((r) => c.once('exit', r)));
  try {
    await expect.poll(() => processesNaming(dir).length).toBeGreaterThanOrEqual(3);
    const found = await stopProcessesNaming(dir, { graceMs: 500 });
    expect(found.map((p) => p.pid)).toEqual(expect.arrayContaining([byEnv.pid, byCwd.pid, stubborn.pid]));
    expect(found.map((p) => p.pid)).not.toContain(notOurs.pid);
    await Promise.all(exits);
    // The shell may have just forked for its `sleep 0.1` when it was killed: that orphan still shows the shell's
    // command line until it runs sleep, and is gone 0.1 s later by itself (a starved box widens the window).
    await expect.poll(() => processesNaming(dir), { timeout: 5_000 }).toEqual([]);
    expect(notOurs.exitCode).toBeNull();
  } finally {
    for (const c of [byEnv, byCwd, stubborn, notOurs]) c.kill('SIGKILL');
  }
});
