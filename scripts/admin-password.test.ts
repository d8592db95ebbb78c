import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../tests/support/build-test-app';
import { GENERATED_PASSWORD_FILE } from '../server/modules/admin/generated-password';

const root = path.resolve(import.meta.dirname, '..');

/** Runs the real script against the test app's database, with `stdin` piped in. */
function runScript(t: TestApp, args: string[], stdin: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/admin-password.ts', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, DATABASE_URL: t.config.DATABASE_URL, DATA_DIR: t.dataDir, LOG_LEVEL: 'silent' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
    child.stdin.end(stdin);
  });
}

describe('npm run admin:password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ seed: false });
  });
  afterAll(async () => {
    await t?.close();
  });
  const login = (password: string) => t.client().post('/api/admin/login', { password });

  test('refuses a password given on the command line (shell history) and changes nothing', async () => {
    const r = await runScript(t, ['a-long-enough-password'], '');
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/Do not pass the password as an argument/);
    expect((await login('test-admin-password')).statusCode).toBe(200);
  });

  test('refuses fewer than 12 characters read from stdin', async () => {
    const r = await runScript(t, [], 'elevenchars\n');
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('at least 12 characters');
  });

  test('sets the password read from stdin and removes a stale generated-password file', async () => {
    fs.writeFileSync(path.join(t.dataDir, GENERATED_PASSWORD_FILE), 'old\n', { mode: 0o600 });
    const r = await runScript(t, [], 'piped-in password 42\n');
    expect(r.out).toContain('Admin password updated.');
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('piped-in password 42');
    expect((await login('piped-in password 42')).statusCode).toBe(200);
    expect((await login('test-admin-password')).statusCode).toBe(401);
    expect(fs.existsSync(path.join(t.dataDir, GENERATED_PASSWORD_FILE))).toBe(false);
  });
});
