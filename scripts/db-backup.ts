// `npm run db:backup [file]`: the shop's database (and local uploads) in one file, default
// DATA_DIR/backups/fifty-<time>.jsonl.gz. Safe while the shop runs (one consistent snapshot).
import fs from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit } from '../server/config';
import { openDatabase } from '../server/db/client';
import { backupShop } from '../server/db/backup';

const config = loadConfigOrExit();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const outFile = path.resolve(process.argv[2] ?? path.join(config.DATA_DIR, 'backups', `fifty-${stamp}.jsonl.gz`));
fs.mkdirSync(path.dirname(outFile), { recursive: true, mode: 0o700 });
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, embeddedMode: 'shared', poolSize: 1 });
try {
  const r = await backupShop(database.pool, outFile, { uploadsDir: config.S3_BUCKET ? undefined : path.join(config.DATA_DIR, 'uploads') });
  console.log(`Backed up ${r.rows} rows of ${r.tables} tables and ${r.files} uploaded files to ${outFile}`);
  if (config.S3_BUCKET) console.log('Images are in the S3 bucket and are not in this file: back the bucket up on its own.');
} finally {
  await database.close();
}
