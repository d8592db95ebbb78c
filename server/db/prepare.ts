import type { Config } from '../config';
import { openDatabase } from './client';
import { migrateDatabase } from './migrate';
import { seedIfEmpty } from './seed/seed';

/** Migrate and seed: run in a short-lived process so PGlite's first-init memory is given back. */
export async function prepareDatabase(config: Config, log: (msg: string) => void = console.log): Promise<void> {
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
  try {
    await migrateDatabase(database);
    if (await seedIfEmpty(database.db, config.DATA_DIR)) log('Seeded the demo catalogue.');
  } finally {
    await database.close();
  }
}
