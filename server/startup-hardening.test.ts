// Start-up checks of the production hardening (ADR 008), on the real server entry compiled as `npm start` runs it
// (tests/support/compiled-server.ts): production
// refuses test payments, a missing PUBLIC_URL and a weak admin password before touching anything; a
// production start seeds no demo data, keeps DATA_DIR private and never prints the generated password.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, stop, waitFor } from '../bench/support/server-process';
import { buildTestApp, type TestApp } from '../tests/support/build-test-app';
import { compiledServerEntry } from '../tests/support/compiled-server';
import { GENERATED_PASSWORD_FILE } from './modules/admin/generated-password';

const root = path.resolve(import.meta.dirname, '..');

async function startServer(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [await compiledServerEntry()], {
    cwd: root,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

describe('server start-up refuses unsafe configurations with a readable message', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-refuse-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test.each([
    [
      'production without Stripe keys or PAYMENTS=offline',
      { NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example' },
      /STRIPE_SECRET_KEY: production takes real payments[^\n]*PAYMENTS=offline/,
    ],
    [
      'production without PUBLIC_URL',
      { NODE_ENV: 'production', PAYMENTS: 'offline' },
      /PUBLIC_URL: required when NODE_ENV=production/,
    ],
    ['an admin password under 12 characters', { ADMIN_PASSWORD: 'hunter2' }, /ADMIN_PASSWORD: ADMIN_PASSWORD must be at least 12 characters/],
  ])('%s', async (_name, env, message) => {
    const server = await startServer({ ...env, DATA_DIR: dataDir, PORT: '0' });
    const code = await server.exited;
    expect(code).not.toBe(0);
    expect(server.output()).toMatch(/^Invalid configuration:/m);
    expect(server.output()).toMatch(message);
    // Refused before anything was written.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});

describe('a production start', () => {
  let t: TestApp;
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServer>>;
  let base: string;

  beforeAll(async () => {
    // An empty, migrated database the server shares (DATABASE_URL); DATA_DIR left with loose modes by an older version.
    t = await buildTestApp({ seed: false });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-prod-'));
    fs.chmodSync(dataDir, 0o755);
    fs.mkdirSync(path.join(dataDir, 'outbox'), { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'outbox', 'old.eml'), 'To: ada@example.com\n', { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, 'outbox', 'old.eml'), 0o644);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startServer({
      NODE_ENV: 'production',
      PAYMENTS: 'offline',
      PUBLIC_URL: base,
      DATABASE_URL: t.config.DATABASE_URL!,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
    });
    await waitFor(`${base}/healthz`, server.child, 90_000);
  }, 120_000);

  afterAll(async () => {
    if (server) await stop(server.child, 10_000);
    await t?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('warns loudly that payments are test payments', () => {
    expect(server.output()).toContain('PAYMENTS=offline in production: the built-in TEST gateway');
  });

  test('seeds no demo catalogue and no FALL15 code (DEMO_DATA defaults to false in production)', async () => {
    expect(await (await fetch(`${base}/api/products`)).json()).toEqual([]);
    const res = await fetch(`${base}/api/validate-discount`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ code: 'FALL15' }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  test('the generated admin password goes to DATA_DIR/admin-password.txt (0600), never to the output', async () => {
    const file = path.join(dataDir, GENERATED_PASSWORD_FILE);
    expect(modeOf(file)).toBe(0o600);
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(server.output()).not.toContain(password);
    expect(server.output()).toContain(file);
    const login = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ password }),
    });
    expect(login.status).toBe(200);
  });

  test('DATA_DIR and what is in it are private to the shop user', () => {
    expect(modeOf(dataDir) & 0o077).toBe(0);
    expect(modeOf(path.join(dataDir, 'outbox'))).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'outbox', 'old.eml'))).toBe(0o600);
    expect(modeOf(path.join(dataDir, 'session-secret'))).toBe(0o600);
  });
});
