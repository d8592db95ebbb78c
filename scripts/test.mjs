// `npm test`: first the process and fault tests (FAULT_TESTS) beside lint, typecheck and the storefront's
// build (none needs another); then the suite on the real database (vitest) beside the storefront in a
// browser (Playwright), each with its own PostgreSQL. A step starts once the one before it has passed; the
// phases of a step all run to their end.
// Prints how long each phase took. Phases that run side by side prefix their lines with their name.
//
// The box is bound by CPU from start to end (on the 2-core reference box both cores are busy throughout),
// so the run is laid out by who must get the CPU first (NICE), not by adding parallel work:
// - The fault tests hold the shop to time bounds (writes again within 10 s of a kill -9): they run at normal
//   priority and lint, typecheck and the build at nice 10 take what they leave. Beside the browser run (a
//   load average of 10 and more) a kill -9 recovery once took over 10 s, so they never run beside it.
// - In the second step the unit run and the browser run share the CPU at equal priority. The unit run at
//   nice 19 (the browser run, the longer phase, first) saved 8–28 s, but a starved unit run then failed
//   tests that hold a load to a bound (fifty payments at once, all answered), so it is not done.
// CONTRIBUTING.md "Test" has the measurements behind this.
//
// Nothing of the run may outlive it (pass, fail or Ctrl-C): every phase gets a throwaway TMPDIR of this
// run, and afterwards any process still naming it (an embedded PostgreSQL, a spawned shop, a browser) is
// stopped, listed, and fails the run (scripts/test-leftovers.mjs).
//
// Usage: node scripts/test.mjs [phase…]   phases: faults lint typecheck client unit e2e (default: all, in that
// order; e2e without client builds the storefront itself)
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopProcessesNaming } from './test-leftovers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/**
 * Tests that kill, signal or restart the shop or its PostgreSQL as operating-system processes and hold them
 * to time bounds (writes again within 10 s of a kill -9, a stop within its bound): never beside the browser
 * run, and ahead of what runs beside them (NICE).
 */
const FAULT_TESTS = ['scripts/start.test.ts', 'server/db/outage.test.ts', 'server/db/relocated-cluster.test.ts', 'server/modules/mail/mail-relay-stop.test.ts', 'server/flows/refund-crash.test.ts'];

/** Each phase: [command, args, extra environment] (the environment read once the steps before it have ended). */
const PHASES = {
  // --cache: a re-run lints only the files changed since (the cache keys on content and config).
  lint: () => [bin('eslint'), ['.', '--max-warnings=0', '--cache', '--cache-location', 'node_modules/.cache/eslint/']],
  // TypeScript 7, the compiler ported to Go: the same checks in about a third of the time and CPU of
  // TypeScript 6, which stays for typescript-eslint (ADR 020).
  typecheck: () => [process.execPath, [path.join(root, 'node_modules/typescript-go/bin/tsc'), '--noEmit', '-p', 'tsconfig.json']],
  // The storefront the e2e shop serves, built here while lint and typecheck run instead of when the
  // Playwright run starts its shop (playwright.config.ts skips its own build when told E2E_CLIENT_BUILT=1).
  client: () => [process.execPath, ['scripts/build-client.mjs', clientDir]],
  unit: () => [bin('vitest'), ['run', ...FAULT_TESTS.flatMap((file) => ['--exclude', file])]],
  faults: () => [bin('vitest'), ['run', ...FAULT_TESTS]],
  e2e: () => [
    'sh',
    ['-c', `node scripts/ensure-chromium.mjs && exec "${bin('playwright')}" test`],
    // No screenshots for people to look at (tests/support/e2e.ts keepScreenshot): nobody looks at a whole run's.
    { E2E_SCREENSHOTS: 'off', ...(clientBuilt() ? { E2E_CLIENT_DIR: clientDir, E2E_CLIENT_BUILT: '1' } : {}) },
  ],
};
// Steps run one after the other; the phases inside a step side by side.
const STEPS = [['faults', 'lint', 'typecheck', 'client'], ['unit', 'e2e']];
/** How much a phase yields the CPU to the others of its step (nice levels; a phase not listed runs at 0). */
const NICE = { lint: 10, typecheck: 10, client: 10 };

const asked = process.argv.slice(2);
for (const a of asked) if (!(a in PHASES)) throw new Error(`unknown phase '${a}' (${Object.keys(PHASES).join(', ')})`);
const steps = STEPS.map((s) => s.filter((p) => asked.length === 0 || asked.includes(p))).filter((s) => s.length > 0);

const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-test-run-'));
// Readable by the embedded PostgreSQL's own user like /tmp itself: run as root from a private folder
// (/root, a mktemp -d), the PostgreSQL binaries and clusters are copied under the TMPDIR (ADR 007).
fs.chmodSync(runDir, 0o755);
const clientDir = path.join(runDir, 'client');
const children = new Set();
let interrupted = null;
const results = [];
const clientBuilt = () => results.some((r) => r.phase === 'client' && r.ok);

/** Copies a phase's output line by line, each line led by the phase's name (phases side by side). */
function prefixLines(from, to, phase) {
  const lead = `${phase.padEnd(9)}│ `;
  readline.createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => to.write(`${lead}${line}\n`));
}

function run(phase, sideBySide) {
  const [command, commandArgs, env = {}] = PHASES[phase]();
  const [cmd, args] = NICE[phase] ? ['nice', ['-n', String(NICE[phase]), command, ...commandArgs]] : [command, commandArgs];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: sideBySide ? ['inherit', 'pipe', 'pipe'] : 'inherit',
      // Piped output is no terminal: keep the colours a terminal would have shown.
      env: { ...process.env, ...(sideBySide && process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}), ...env, TMPDIR: runDir },
    });
    if (sideBySide) {
      prefixLines(child.stdout, process.stdout, phase);
      prefixLines(child.stderr, process.stderr, phase);
    }
    children.add(child);
    child.on('error', (err) => {
      console.error(`${phase}: ${err.message}`);
    });
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ phase, ok: code === 0, code, signal, ms: Date.now() - started });
    });
  });
}

// Ctrl-C reaches the phases by itself (same process group): passing it on would be a second Ctrl-C, which
// makes Playwright quit without stopping its shop. SIGTERM or SIGHUP to this process alone is passed on.
// Either way the run waits for the phases to end, then checks that nothing is left.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    interrupted ??= sig;
    if (sig !== 'SIGINT') for (const c of children) c.kill(sig);
  });
}

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const t0 = Date.now();
let failed = false;
for (const step of steps) {
  if (failed || interrupted) break;
  const started = Date.now();
  const done = await Promise.all(step.map((phase) => run(phase, step.length > 1)));
  results.push(...done);
  if (step.length > 1) console.log(`\n${step.join(' + ')} side by side: ${secs(Date.now() - started)}`);
  for (const r of done) if (!r.ok) failed = true;
}

const leftovers = await stopProcessesNaming(runDir);
fs.rmSync(runDir, { recursive: true, force: true });

console.log('\nnpm test phases:');
for (const r of results) console.log(`  ${r.phase.padEnd(10)} ${secs(r.ms).padStart(8)}  ${r.ok ? 'passed' : `FAILED (${r.signal ?? `exit ${r.code}`})`}`);
console.log(`  ${'total'.padEnd(10)} ${secs(Date.now() - t0).padStart(8)}`);
if (leftovers.length) {
  console.error(`\nThe run left ${leftovers.length} process(es) of its own running (stopped now):`);
  for (const p of leftovers) console.error(`  ${p.pid} ${p.command.slice(0, 200)}`);
} else {
  console.log('No process of the run is left running.');
}
process.exitCode = interrupted ? 130 : failed || leftovers.length ? 1 : 0;
