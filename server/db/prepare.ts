import type { Database } from './client';
import { migrateDatabase } from './migrate';
import { seedIfEmpty } from './seed/seed';

/**
 * Migrate, then (DEMO_DATA, default off in production) seed the demo catalogue and FALL15 into an
 * empty shop. Runs in the server process before it listens. `npm run db:seed` seeds at any time.
 */
export async function prepareDatabase(
  database: Database,
  dataDir: string,
  opts: { demoData?: boolean; log?: (msg: string) => void } = {},
): Promise<void> {
  await migrateDatabase(database);
  if (!(opts.demoData ?? true)) return;
  if (await seedIfEmpty(database.db, dataDir)) (opts.log ?? console.log)('Seeded the demo catalogue.');
}
