// Starting the compiled shop for a load bench: one environment, migrated and seeded once, then N
// instances on free ports (shared by bench/drop.bench.ts and bench/drop-bots.bench.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, serverEntryOut } from '../../scripts/build-server.mjs';
import { freePort, waitFor } from './server-process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The shop's environment for a bench: production mode on the offline gateway with demo data (production
 * refuses test payments unless told: the bench uses them on purpose), on `dataDir`, or on `databaseUrl`
 * when given; `extra` settings on top.
 */
export function benchEnv(dataDir: string, databaseUrl: string | undefined, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    PAYMENTS: 'offline',
    DEMO_DATA: 'true',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: 'bench-admin-password',
    SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    ...extra,
  };
  delete env.DATABASE_URL;
  delete env.STRIPE_SECRET_KEY;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

/** Migrates and seeds the bench's database (`npm run db:migrate`). */
export function migrateBenchDatabase(env: NodeJS.ProcessEnv): void {
  const prep = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db-migrate.ts'], {
    cwd: root,
    env: { ...env, PUBLIC_URL: 'http://127.0.0.1' },
    stdio: 'inherit',
  });
  if (prep.status !== 0) throw new Error('db:migrate failed');
}

/**
 * Builds the server if stale and starts `count` instances (each on a free port, `PUBLIC_URL` its own
 * address), waiting for each to answer /healthz. `nodeArgs` go before the entry (e.g. --cpu-prof).
 * Every started child is pushed to `servers` at once, so the caller's cleanup stops it even if a later
 * one fails to start.
 */
export async function startShopInstances(
  env: NodeJS.ProcessEnv,
  count: number,
  servers: ChildProcess[],
  nodeArgs: string[] = [],
): Promise<string[]> {
  await buildServer();
  const bases: string[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [...nodeArgs, serverEntryOut], {
      cwd: root,
      env: { ...env, PORT: String(port), PUBLIC_URL: url },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    servers.push(child);
    bases.push(url);
    await waitFor(`${url}/healthz`, child, 90_000);
  }
  return bases;
}
