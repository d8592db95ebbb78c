import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { loadConfigOrExit } from '../server/config';
import { openDatabase } from '../server/db/client';
import { migrationsFolder, withMigrationLock } from '../server/db/migrate';
import { seedIfEmpty } from '../server/db/seed/seed';

const config = loadConfigOrExit();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, embeddedMode: 'shared', poolSize: 2 });
try {
  // Under the migration lock, like a starting shop: never two demo catalogues.
  const seeded = await withMigrationLock(database, async (db) => {
    await migrate(db, { migrationsFolder });
    return seedIfEmpty(db, config.DATA_DIR);
  });
  console.log(seeded ? 'Seeded the demo catalogue.' : 'Catalogue already has products; nothing seeded.');
} finally {
  await database.close();
}
