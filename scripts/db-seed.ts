import { loadConfigOrExit } from '../server/config';
import { openDatabase } from '../server/db/client';
import { migrateDatabase } from '../server/db/migrate';
import { seedIfEmpty } from '../server/db/seed/seed';

const config = loadConfigOrExit();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, embeddedMode: 'shared', poolSize: 2 });
try {
  await migrateDatabase(database);
  const seeded = await seedIfEmpty(database.db, config.DATA_DIR);
  console.log(seeded ? 'Seeded the demo catalogue.' : 'Catalogue already has products; nothing seeded.');
} finally {
  await database.close();
}
