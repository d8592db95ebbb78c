import crypto from 'node:crypto';
import pg from 'pg';

/** A fresh database on the PostgreSQL server at `serverUrl`, and how to drop it afterwards. */
export async function createPgDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `fifty_bench_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
