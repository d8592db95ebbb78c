// `npm run db:restore -- <file> [--key-file <file>] [--unverified]`: replaces the shop's data with a backup,
// all or nothing, and puts back the session secret it was made under. The file's checksum is checked under
// the backup key (DATA_DIR/backup-key, or --key-file) before anything is changed; --unverified skips that.
// Refused while any shop instance is connected (docs/operations.md). Every failure is one line on stderr and
// exit code 1; a database this script started is stopped.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../server/config';
import { openDatabase, type Database } from '../server/db/client';
import { DataDirInUseError } from '../server/db/embedded-postgres';
import { migrateDatabase } from '../server/db/migrate';
import {
  BACKUP_KEY_FILE,
  BackupError,
  readBackupHeader,
  readBackupKey,
  restoreSessionSecret,
  restoreShop,
  verifyBackup,
  type BackupCheck,
} from '../server/db/backup';

const USAGE = 'Usage: npm run db:restore -- <backup file> [--key-file <backup key file>] [--unverified]';

async function main(): Promise<number> {
  let args: ReturnType<typeof parseRestoreArgs>;
  try {
    args = parseRestoreArgs();
  } catch (err) {
    console.error(`${(err as Error).message}. ${USAGE}`);
    return 1;
  }
  const arg = args.positionals[0];
  if (!arg || args.positionals.length > 1) {
    console.error(USAGE);
    return 1;
  }
  const { 'key-file': keyFile, unverified } = args.values;
  if (keyFile && unverified) throw new BackupError('Pass either --key-file or --unverified, not both.');
  const file = path.resolve(arg);
  const config = loadConfigOrExit();
  // A missing or foreign file is refused before any database is started.
  await readBackupHeader(file);
  let check: BackupCheck;
  if (unverified) {
    check = { unverified: true };
    console.log('--unverified: the backup is restored without checking that it is unchanged.');
  } else {
    const defaultKey = path.join(config.DATA_DIR, BACKUP_KEY_FILE);
    let key: Buffer;
    try {
      key = readBackupKey(keyFile ? path.resolve(keyFile) : defaultKey);
    } catch (err) {
      if (keyFile) throw err;
      throw new BackupError(
        `No backup key at ${defaultKey} (a backup made on another box?): pass the key of the shop that made it with ` +
          "--key-file <that shop's DATA_DIR/backup-key>, or run db:restore with --unverified.",
      );
    }
    check = { key };
    // An edited file is refused before any database is started (restoreShop checks it again as it reads).
    await verifyBackup(file, key);
  }
  let database: Database;
  try {
    // Exclusive: an embedded shop running on DATA_DIR owns its database. Instances on an external
    // PostgreSQL are refused by restoreShop (they hold the shop-presence lock).
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, embeddedMode: 'exclusive', poolSize: 1 });
  } catch (err) {
    throw new BackupError(err instanceof DataDirInUseError ? `${err.message} Stop the shop before restoring.` : `Could not open the database: ${(err as Error).message}`);
  }
  try {
    await migrateDatabase(database);
    const r = await restoreShop(database.pool, file, { ...check, uploadsDir: config.S3_BUCKET ? undefined : path.join(config.DATA_DIR, 'uploads') });
    console.log(`Restored ${r.rows} rows of ${r.tables} tables and ${r.files} uploaded files from ${arg}.`);
    console.log(restoreSessionSecret(r.sessionSecret, { configured: config.SESSION_SECRET, dataDir: config.DATA_DIR }));
    return 0;
  } finally {
    await database.close();
  }
}

function parseRestoreArgs() {
  return parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { 'key-file': { type: 'string' }, unverified: { type: 'boolean' } },
  });
}

process.umask(0o077);
try {
  process.exitCode = await main();
} catch (err) {
  const message = err instanceof BackupError ? err.message : `Restore failed, nothing was changed: ${(err as Error).message}`;
  console.error(message.replace(/\s*\n\s*/g, ' '));
  process.exitCode = 1;
}
