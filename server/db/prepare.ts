import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Database } from './client';
import { holdShopPresence, migrateDatabase, migrationsFolder, withMigrationLock } from './migrate';
import { seedIfEmpty } from './seed/seed';

export interface PrepareOptions {
  demoData?: boolean;
  /** Draw the demo art (tests skip it: same paths, no files). Default true. */
  art?: boolean;
  log?: (msg: string) => void;
}

/**
 * Before the server listens: mark this process as a serving shop (a shared lock `db:restore` waits
 * for; released by database.close()), then migrate and (DEMO_DATA, default off in production) seed
 * the demo catalogue and FALL15 into an empty shop — both under the one migration lock, so instances
 * starting together on an empty database seed it once. `npm run db:seed` seeds at any time.
 */
export async function prepareDatabase(database: Database, dataDir: string, opts: PrepareOptions = {}): Promise<void> {
  const presence = await holdShopPresence(database);
  const close = database.close;
  database.close = async () => {
    await presence.release();
    await close.call(database);
  };
  try {
    if (!(opts.demoData ?? true)) {
      await migrateDatabase(database);
      return;
    }
    const seeded = await withMigrationLock(database, async (db) => {
      await migrate(db, { migrationsFolder });
      return seedIfEmpty(db, dataDir, { art: opts.art });
    });
    if (seeded) (opts.log ?? console.log)('Seeded the demo catalogue.');
  } catch (err) {
    await presence.release();
    throw err;
  }
}
