import type { Database } from './client';
import { migrateDatabase } from './migrate';
import { seedIfEmpty } from './seed/seed';

/** Migrate, then seed the demo catalogue into an empty shop. Runs in the server process before it listens. */
export async function prepareDatabase(database: Database, dataDir: string, log: (msg: string) => void = console.log): Promise<void> {
  await migrateDatabase(database);
  if (await seedIfEmpty(database.db, dataDir)) log('Seeded the demo catalogue.');
}
