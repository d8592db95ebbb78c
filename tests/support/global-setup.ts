// Vitest global setup: every database test runs on a real PostgreSQL. With TEST_DATABASE_URL set, that
// server; otherwise an embedded PostgreSQL started here for the run (the same one the shop starts),
// so `npm test` on a fresh machine races real transactions and touches no service of the machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openDatabase } from '../../server/db/client';
import { startEmbeddedPostgres } from '../../server/db/embedded-postgres';
import { migrateDatabase } from '../../server/db/migrate';
import { stopLeftoverShopDatabase } from './e2e-cleanup';

/** Creates and migrates this run's template database on the server at `baseUrl`. */
async function createTemplate(baseUrl: string): Promise<string> {
  const name = `fifty_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  return name;
}

async function dropTemplate(baseUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
  await admin.end();
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseUrl: string;
    /** A database migrated once per run: every suite's database is a copy of it (CREATE DATABASE … TEMPLATE). */
    testTemplateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    console.log(`Database tests run on the PostgreSQL at TEST_DATABASE_URL (${new URL(external).host}).`);
    project.provide('testDatabaseUrl', external);
    const template = await createTemplate(external);
    project.provide('testTemplateDatabase', template);
    return () => dropTemplate(external, template);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-test-pg-'));
  const started = Date.now();
  const server = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), durable: false });
  // The teardown below stops it; should vitest end without it (Ctrl-C, a crash), the exit does.
  process.once('exit', () => stopLeftoverShopDatabase(dir, { remove: true }));
  console.log(`Database tests run on an embedded PostgreSQL started for this run in ${Date.now() - started} ms (${dir}).`);
  project.provide('testDatabaseUrl', server.urlFor('postgres'));
  project.provide('testTemplateDatabase', await createTemplate(server.urlFor('postgres')));
  return async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
