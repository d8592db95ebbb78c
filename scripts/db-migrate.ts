import { loadConfigOrExit } from '../server/config';
import { openDatabase } from '../server/db/client';
import { prepareDatabase } from '../server/db/prepare';

const config = loadConfigOrExit();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, embeddedMode: 'shared', poolSize: 2 });
try {
  await prepareDatabase(database, config.DATA_DIR, { demoData: config.DEMO_DATA });
  console.log('Database migrated.');
} finally {
  await database.close();
}
