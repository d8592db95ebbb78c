import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { projectRoot } from '../lib/project-root';
import type { Database } from './client';

export const migrationsFolder = path.join(projectRoot, 'server', 'db', 'migrations');

export async function migrateDatabase(database: Database): Promise<void> {
  // Several app instances may start at once against one PostgreSQL: serialise migrations.
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock(505050)');
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock(505050)').catch(() => undefined);
    client.release();
  }
}
