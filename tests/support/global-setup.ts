// Vitest global setup: every database test runs on a real PostgreSQL. With TEST_DATABASE_URL set, that
// server; otherwise an embedded PostgreSQL started here for the run (the same one the shop starts),
// so `npm test` on a fresh machine races real transactions and touches no service of the machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../server/db/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    console.log(`Database tests run on the PostgreSQL at TEST_DATABASE_URL (${new URL(external).host}).`);
    project.provide('testDatabaseUrl', external);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-test-pg-'));
  const started = Date.now();
  const pg = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), durable: false });
  console.log(`Database tests run on an embedded PostgreSQL started for this run in ${Date.now() - started} ms (${dir}).`);
  project.provide('testDatabaseUrl', pg.urlFor('postgres'));
  return async () => {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
