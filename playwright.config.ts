import { defineConfig, devices } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { cleanUpShopOnExit } from './tests/support/e2e-cleanup';
import { E2E_POW_TRIES } from './tests/support/e2e-env';
import { chromiumPath } from './scripts/chromium-path.mjs';

const port = Number(process.env.E2E_PORT ?? 3199);
// Workers load this file again: they reuse the runner's data folder, which only the runner cleans up
// (its shop's PostgreSQL stopped, the folder removed: tests/support/e2e-cleanup.ts).
const isRunner = !process.env.FIFTY_E2E_DATA_DIR;
const dataDir = process.env.FIFTY_E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-e2e-'));
process.env.FIFTY_E2E_DATA_DIR = dataDir;
if (isRunner) cleanUpShopOnExit(dataDir);
// Each run builds into its own folder so parallel runs never clobber each other's assets.
const clientDir = process.env.E2E_CLIENT_DIR ?? path.join(dataDir, 'client');
// Workers load this file again: they must find the same build (a spec may start a server of its own on it).
process.env.E2E_CLIENT_DIR = clientDir;
// `npm test` builds the storefront while lint and typecheck run (scripts/test.mjs) and says so with
// E2E_CLIENT_BUILT=1: the shop then starts on that build instead of building it again.
const buildClient = process.env.E2E_CLIENT_BUILT === '1' ? '' : `node scripts/build-client.mjs ${clientDir} && `;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // E2E_WORKERS tries more. The run is bound by CPU (a page load in a fresh context is 0.7–1.4 CPU-s of
  // Chromium): on a 2-core box 4 workers were hardly faster (6.1 vs 6.7 min) and broke tests' own deadlines.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // One retry on CI: a test that fails twice still fails the run; one that passes on retry is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: {
      // Debian's headless shell when installed (scripts/chromium-path.mjs, ADR 019), else its full Chromium.
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    // A trace only for a test's retry (CI retries once): recording one for every test (its screencast
    // above all) took about a fifth of the run's CPU, and a test that failed on CI gets its trace from
    // the retry. Locally, `npx playwright test --trace on <spec>` records one.
    trace: 'on-first-retry',
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // `exec`: the shop is the process Playwright signals, not a shell in front of it.
    command: `${buildClient}exec node scripts/start.mjs`,
    url: `http://localhost:${port}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    // Without this Playwright SIGKILLs the shop, which then cannot stop its embedded PostgreSQL (it would
    // run on for good). SIGTERM: the shop drains, stops its database and exits 0 (ADR 007).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'e2e-admin-password',
      LOG_LEVEL: 'warn',
      HOLD_MINUTES: '10',
      NODE_ENV: 'production',
      // Production refuses test payments, a missing PUBLIC_URL and seeds nothing unless told: e2e wants all three.
      PAYMENTS: 'offline',
      PUBLIC_URL: `http://localhost:${port}`,
      DEMO_DATA: 'true',
      CLIENT_DIR: clientDir,
      FIFTY_SKIP_BUILD: '1',
      POW_TRIES: E2E_POW_TRIES,
    },
  },
});
