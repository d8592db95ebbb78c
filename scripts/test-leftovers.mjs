// What a test run left running. `npm test` (scripts/test.mjs) gives every phase a throwaway TMPDIR of its
// own; everything the phases start (vitest's embedded PostgreSQL, spawned shops and their databases, the
// e2e shop, browsers) names that folder in its command line, working directory or environment (a data
// directory made with os.tmpdir(), DATA_DIR=…, TMPDIR=…). So once the phases have exited, any process that
// still names it is one of the run's own, left behind: found here, stopped and reported (the run fails).
// Processes of other runs and other people never name this run's folder and are never touched.
import fs from 'node:fs';

/** Whether the NUL-separated text of /proc/<pid>/{cmdline,environ} or a cwd names `dir` (or a path in it). */
export function namesDir(text, dir) {
  const d = dir.replace(/\/+$/, '');
  for (const part of text.split('\0')) {
    const value = part.includes('=') && !part.startsWith('/') ? part.slice(part.indexOf('=') + 1) : part;
    for (const word of value.split(/[\s:]+/)) if (word === d || word.startsWith(`${d}/`)) return true;
  }
  return false;
}

function read(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The live processes (not `exclude`) whose command line, working directory or environment names `dir`. */
export function processesNaming(dir, exclude = [process.pid]) {
  /** @type {{ pid: number, ppid: number, command: string }[]} */
  const found = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (exclude.includes(pid)) continue;
    const cmdline = read(`/proc/${pid}/cmdline`);
    if (!cmdline) continue; // a kernel thread, or gone
    let cwd = '';
    try {
      cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // another user's process, or gone
    }
    if (namesDir(cmdline, dir) || namesDir(cwd, dir) || namesDir(read(`/proc/${pid}/environ`), dir)) {
      const ppid = Number(read(`/proc/${pid}/stat`).replace(/^.*\) \S+ /s, '').split(' ')[0]);
      found.push({ pid, ppid, command: cmdline.split('\0').filter(Boolean).join(' ') });
    }
  }
  return found;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return fs.existsSync(`/proc/${pid}`) && !/^\S+ \(.*\) Z/.test(read(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
};

/**
 * Stops what still names `dir`: a PostgreSQL with SIGINT (its fast shutdown, so its data folder is left
 * clean), anything else with SIGTERM; whatever is still there after `graceMs` gets SIGKILL.
 * Returns what was found (empty: the run left nothing).
 */
export async function stopProcessesNaming(dir, { graceMs = 10_000, exclude } = {}) {
  const found = processesNaming(dir, exclude);
  const pids = new Set(found.map((p) => p.pid));
  // Only the topmost of each tree: a postmaster stops its own backends (signalled one by one, they would
  // look like crashes to it).
  for (const p of found.filter((f) => !pids.has(f.ppid))) {
    try {
      process.kill(p.pid, /(^|\/)postgres( |$)/.test(p.command) ? 'SIGINT' : 'SIGTERM');
    } catch {
      // gone meanwhile
    }
  }
  const until = Date.now() + graceMs;
  while (found.some((p) => alive(p.pid)) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  for (const p of found) {
    if (!alive(p.pid)) continue;
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
