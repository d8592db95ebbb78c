import { loadConfigOrExit } from './config';
import { openDatabase } from './db/client';
import { prepareDatabase } from './db/prepare';
import { buildApp } from './app';
import { resolveSessionSecret } from './session-secret';

const config = loadConfigOrExit();
// scripts/start.mjs migrates in a child process first; this is a no-op then, and covers `npm run serve`.
if (!process.env.FIFTY_DB_PREPARED) await prepareDatabase(config);

const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const app = await buildApp(config, { database, sessionSecret: resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR) });

await app.ready();
for (const hook of bootHooks(app)) await hook();
app.services.jobs.start();
await app.listen({ port: config.PORT, host: config.HOST });

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  const force = setTimeout(() => process.exit(1), 15_000).unref();
  try {
    await app.close();
    await database.close();
  } finally {
    clearTimeout(force);
    process.exit(0);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

/** One-time start-up work of modules (e.g. printing a generated admin password). */
function bootHooks(instance: typeof app): Array<() => Promise<void>> {
  const hooks: Array<() => Promise<void>> = [];
  hooks.push(async () => {
    // ADMIN_PASSWORD's hash is stored (or updated); without it the first start generates one.
    const { generated } = await instance.services.admin.auth.ensurePassword();
    if (generated) {
      const line = '='.repeat(60);
      console.log(`\n${line}\nAdmin password (shown once): ${generated}\nLog in at /admin. Change it with: npm run admin:password\n${line}\n`);
    }
  });
  return hooks;
}
