// `npm run db:restore <file>`: replaces the shop's data with a backup, all or nothing. Stop the shop first.
import path from 'node:path';
import { loadConfigOrExit } from '../server/config';
import { openDatabase } from '../server/db/client';
import { DataDirInUseError } from '../server/db/embedded-postgres';
import { migrateDatabase } from '../server/db/migrate';
import { BackupError, restoreShop } from '../server/db/backup';

const file = process.argv[2];
if (!file) {
  console.error('Usage: npm run db:restore <backup file>');
  process.exit(1);
}
const config = loadConfigOrExit();
let database;
try {
  // Exclusive: a running shop would keep serving its cached catalogue over the replaced data.
  database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, embeddedMode: 'exclusive', poolSize: 1 });
} catch (err) {
  console.error(err instanceof DataDirInUseError ? `${err.message} Stop the shop before restoring.` : (err as Error).message);
  process.exit(1);
}
try {
  await migrateDatabase(database);
  const r = await restoreShop(database.pool, path.resolve(file), { uploadsDir: config.S3_BUCKET ? undefined : path.join(config.DATA_DIR, 'uploads') });
  console.log(`Restored ${r.rows} rows of ${r.tables} tables and ${r.files} uploaded files from ${file}.`);
} catch (err) {
  console.error(err instanceof BackupError ? err.message : `Restore failed, nothing was changed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
