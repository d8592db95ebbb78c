// `npm run db:restore <file>`: replaces the shop's data with a backup, all or nothing, and puts back the
// session secret it was made under. Refused while any shop instance is connected (docs/operations.md).
// Every failure is one line on stderr and exit code 1; a database this script started is stopped.
import path from 'node:path';
import { loadConfigOrExit } from '../server/config';
import { openDatabase, type Database } from '../server/db/client';
import { DataDirInUseError } from '../server/db/embedded-postgres';
import { migrateDatabase } from '../server/db/migrate';
import { BackupError, readBackupHeader, restoreSessionSecret, restoreShop } from '../server/db/backup';

async function main(): Promise<number> {
  const arg = process.argv[2];
  if (!arg) {
    console.error('Usage: npm run db:restore <backup file>');
    return 1;
  }
  const file = path.resolve(arg);
  const config = loadConfigOrExit();
  // A missing or foreign file is refused before any database is started.
  await readBackupHeader(file);
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
    const r = await restoreShop(database.pool, file, { uploadsDir: config.S3_BUCKET ? undefined : path.join(config.DATA_DIR, 'uploads') });
    console.log(`Restored ${r.rows} rows of ${r.tables} tables and ${r.files} uploaded files from ${arg}.`);
    console.log(restoreSessionSecret(r.sessionSecret, { configured: config.SESSION_SECRET, dataDir: config.DATA_DIR }));
    return 0;
  } finally {
    await database.close();
  }
}

process.umask(0o077);
try {
  process.exitCode = await main();
} catch (err) {
  const message = err instanceof BackupError ? err.message : `Restore failed, nothing was changed: ${(err as Error).message}`;
  console.error(message.replace(/\s*\n\s*/g, ' '));
  process.exitCode = 1;
}
