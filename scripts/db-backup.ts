// `npm run db:backup [file]`: the shop's database (and local uploads) in one file (mode 0600), default
// DATA_DIR/backups/fifty-<time>.jsonl.gz. Safe while the shop runs (one consistent snapshot). Sessions,
// counters and client secrets are left out; the session secret is carried; the file is signed with the
// backup key, DATA_DIR/backup-key, made on the first backup (docs/operations.md "Backups").
import fs from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit } from '../server/config';
import { openDatabase } from '../server/db/client';
import { BACKUP_KEY_FILE, backupShop, loadOrCreateBackupKey } from '../server/db/backup';

/** The secret the shop signs with, never a new one: a backup must carry the secret its rows were made under. */
function currentSessionSecret(configured: string | undefined, dataDir: string): string | undefined {
  if (configured) return configured;
  try {
    return fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

const config = loadConfigOrExit();
process.umask(0o077);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const outFile = path.resolve(process.argv[2] ?? path.join(config.DATA_DIR, 'backups', `fifty-${stamp}.jsonl.gz`));
fs.mkdirSync(path.dirname(outFile), { recursive: true, mode: 0o700 });
const sessionSecret = currentSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
const keyFile = path.join(config.DATA_DIR, BACKUP_KEY_FILE);
const newKey = !fs.existsSync(keyFile);
const key = loadOrCreateBackupKey(config.DATA_DIR);
if (newKey) console.log(`Made the backup key ${keyFile}: keep a copy apart from the backups (a restore on another box needs it).`);
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, embeddedMode: 'shared', poolSize: 1 });
try {
  const r = await backupShop(database.pool, outFile, {
    uploadsDir: config.S3_BUCKET ? undefined : path.join(config.DATA_DIR, 'uploads'),
    sessionSecret,
    key,
  });
  console.log(`Backed up ${r.rows} rows of ${r.tables} tables and ${r.files} uploaded files to ${outFile}`);
  if (!sessionSecret) console.log('No session secret found (SESSION_SECRET or DATA_DIR/session-secret): this backup carries none.');
  if (config.S3_BUCKET) console.log('Images are in the S3 bucket and are not in this file: back the bucket up on its own.');
} catch (err) {
  console.error(`Backup failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
