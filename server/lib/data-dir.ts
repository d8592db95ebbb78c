import fs from 'node:fs';
import path from 'node:path';

/** PostgreSQL manages the modes of its own data directory (it refuses to start with loose ones). */
const POSTGRES_SUBDIR = 'postgres';

export interface SecureDataDirResult {
  /** Paths whose mode (or group) was changed: loose files from before this check, or a first start. */
  fixed: string[];
}

/**
 * DATA_DIR holds the database, uploads, the outbox (names, addresses, codes) and secrets: it is the
 * shop owner's alone. Creates it 0700 (0710 with its group set to `traverseGid`, so the embedded
 * PostgreSQL's own OS user can reach DATA_DIR/postgres when the shop runs as root), and makes every
 * file below 0600 and every folder 0700, except DATA_DIR/postgres and its contents.
 */
export function secureDataDir(dataDir: string, opts: { traverseGid?: number } = {}): SecureDataDirResult {
  const fixed: string[] = [];
  const root = path.resolve(dataDir);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });

  const rootMode = opts.traverseGid === undefined ? 0o700 : 0o710;
  const rootStat = fs.statSync(root);
  if (opts.traverseGid !== undefined && rootStat.gid !== opts.traverseGid) {
    fs.chownSync(root, -1, opts.traverseGid);
    fixed.push(root);
  }
  if ((rootStat.mode & 0o7777) !== rootMode) {
    fs.chmodSync(root, rootMode);
    if (!fixed.includes(root)) fixed.push(root);
  }

  const walk = (dir: string, top: boolean) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (top && entry.name === POSTGRES_SUBDIR) continue;
      const full = path.join(dir, entry.name);
      // Symbolic links are not followed: a link could point anywhere on the machine.
      if (entry.isSymbolicLink()) continue;
      const want = entry.isDirectory() ? 0o700 : 0o600;
      const mode = fs.lstatSync(full).mode & 0o7777;
      if (mode !== want) {
        fs.chmodSync(full, want);
        fixed.push(full);
      }
      if (entry.isDirectory()) walk(full, false);
    }
  };
  walk(root, true);
  return { fixed };
}
