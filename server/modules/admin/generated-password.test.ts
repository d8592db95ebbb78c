import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { announceGeneratedPassword, GENERATED_PASSWORD_FILE } from './generated-password';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-pw-'));
  dirs.push(dataDir);
  const logged: Array<{ obj: object; msg: string }> = [];
  const printed: string[] = [];
  return {
    dataDir,
    logged,
    printed,
    log: { warn: (obj: object, msg: string) => logged.push({ obj, msg }) },
    print: (text: string) => printed.push(text),
  };
}

describe('announceGeneratedPassword', () => {
  test('on a terminal the password is printed once and no file is written', () => {
    const s = setup();
    const result = announceGeneratedPassword('Gen3rated-Passw0rd_abc', { ...s, isTTY: true });
    expect(result.file).toBeNull();
    expect(s.printed.join('')).toContain('Admin password (shown once): Gen3rated-Passw0rd_abc');
    expect(fs.existsSync(path.join(s.dataDir, GENERATED_PASSWORD_FILE))).toBe(false);
    expect(s.logged).toEqual([]);
  });

  test('without a terminal it goes to DATA_DIR/admin-password.txt (0600); the log names the file, never the password', () => {
    const s = setup();
    // A stale file with loose permissions is tightened, not trusted.
    fs.writeFileSync(path.join(s.dataDir, GENERATED_PASSWORD_FILE), 'old', { mode: 0o644 });
    const { file } = announceGeneratedPassword('Gen3rated-Passw0rd_abc', { ...s, isTTY: false });
    expect(file).toBe(path.join(s.dataDir, GENERATED_PASSWORD_FILE));
    expect(fs.readFileSync(file!, 'utf8').trim()).toBe('Gen3rated-Passw0rd_abc');
    expect(fs.statSync(file!).mode & 0o777).toBe(0o600);
    expect(s.printed).toEqual([]);
    expect(s.logged).toHaveLength(1);
    expect(JSON.stringify(s.logged)).toContain(file!);
    expect(JSON.stringify(s.logged)).not.toContain('Gen3rated-Passw0rd_abc');
  });

  test('nothing happens when no password was generated', () => {
    const s = setup();
    expect(announceGeneratedPassword(null, { ...s, isTTY: false }).file).toBeNull();
    expect(fs.readdirSync(s.dataDir)).toEqual([]);
    expect([...s.logged, ...s.printed]).toEqual([]);
  });
});
