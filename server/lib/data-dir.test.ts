import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { secureDataDir } from './data-dir';

const modeOf = (p: string) => fs.lstatSync(p).mode & 0o7777;
const made: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-datadir-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('secureDataDir', () => {
  test('creates a missing DATA_DIR readable by its owner only', () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    secureDataDir(dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
  });

  test('fixes loose modes left by earlier versions: files 0600, folders 0700; DATA_DIR/postgres is left alone', () => {
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o755);
    const write = (rel: string, mode: number) => {
      const full = path.join(dataDir, rel);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, 'x');
      fs.chmodSync(full, mode);
      return full;
    };
    const eml = write('outbox/2025-01-01-order.eml', 0o644);
    const upload = write('uploads/products/a.webp', 0o666);
    const secret = write('session-secret', 0o644);
    fs.chmodSync(path.join(dataDir, 'outbox'), 0o755);
    fs.chmodSync(path.join(dataDir, 'uploads'), 0o777);
    fs.chmodSync(path.join(dataDir, 'uploads', 'products'), 0o755);
    const pgFile = write('postgres/data/PG_VERSION', 0o640);
    fs.chmodSync(path.join(dataDir, 'postgres'), 0o750);
    fs.chmodSync(path.join(dataDir, 'postgres', 'data'), 0o750);
    // A link is never followed: its target keeps its mode.
    const outside = path.join(tempDir(), 'outside.txt');
    fs.writeFileSync(outside, 'x');
    fs.chmodSync(outside, 0o644);
    fs.symlinkSync(outside, path.join(dataDir, 'link'));

    const { fixed } = secureDataDir(dataDir);

    expect(modeOf(dataDir)).toBe(0o700);
    for (const file of [eml, upload, secret]) expect(modeOf(file)).toBe(0o600);
    for (const dir of ['outbox', 'uploads', 'uploads/products']) expect(modeOf(path.join(dataDir, dir))).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'postgres'))).toBe(0o750);
    expect(modeOf(path.join(dataDir, 'postgres', 'data'))).toBe(0o750);
    expect(modeOf(pgFile)).toBe(0o640);
    expect(modeOf(outside)).toBe(0o644);
    expect(fixed).toContain(eml);
    expect(fixed).not.toContain(pgFile);

    // A second run has nothing left to fix.
    expect(secureDataDir(dataDir).fixed).toEqual([]);
  });

  test('with traverseGid, DATA_DIR is 0710 and owned by that group so the database user can pass through', () => {
    const dataDir = tempDir();
    const gid = process.getgid!();
    secureDataDir(dataDir, { traverseGid: gid });
    expect(modeOf(dataDir)).toBe(0o710);
    expect(fs.statSync(dataDir).gid).toBe(gid);
  });
});
