import { loadConfigOrExit } from './config';
import { openDatabase, type Database } from './db/client';
import { DataDirInUseError } from './db/embedded-postgres';
import { prepareDatabase } from './db/prepare';
import { secureDataDir } from './lib/data-dir';
import { buildApp } from './app';
import { resolveSessionSecret } from './session-secret';

const config = loadConfigOrExit();
// Files the shop writes (database password, outbox, uploads, secrets) are the owner's alone.
process.umask(0o077);

let database: Database;
try {
  database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 20, log: (m) => console.log(m) });
} catch (err) {
  console.error(err instanceof DataDirInUseError ? err.message : `Could not open the database: ${(err as Error).message}`);
  process.exit(1);
}

let app: Awaited<ReturnType<typeof buildApp>> | null = null;
try {
  // DATA_DIR is the owner's alone (0700; 0710 for the embedded database's group when running as root).
  const { fixed } = secureDataDir(config.DATA_DIR, { traverseGid: database.embedded?.traverseGid });
  if (fixed.length) console.log(`Made ${fixed.length} file(s) in DATA_DIR private to the shop's user.`);
  await prepareDatabase(database, config.DATA_DIR, { demoData: config.DEMO_DATA });
  app = await buildApp(config, { database, sessionSecret: resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR) });
  await app.ready();
  for (const hook of bootHooks(app)) await hook();
  app.services.jobs.start();
  await app.listen({ port: config.PORT, host: config.HOST });
} catch (err) {
  console.error(`Could not start: ${(err as Error).message}`);
  await app?.close().catch(() => undefined);
  await database.close().catch(() => undefined);
  process.exit(1);
}

const DRAIN_MS = 750;
let draining = false;
app!.server.on('request', (_req, res) => {
  if (draining) res.setHeader('connection', 'close');
});

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app!.log.info({ signal }, 'shutting down: finishing in-flight requests');
  const force = setTimeout(() => {
    app!.log.error('shutdown took over 10 s; exiting anyway');
    process.exit(1);
  }, 10_000).unref();
  // Drain first: for a moment every answer says `Connection: close`, so keep-alive clients (a proxy, a load
  // balancer) that already sent their next request get it answered and their sockets close cleanly;
  // closing idle sockets at once would reset requests written to them but not yet read.
  draining = true;
  await new Promise((r) => setTimeout(r, DRAIN_MS));
  let code = 0;
  try {
    // Stops listening, closes the (now few) idle keep-alive sockets, answers in-flight requests, stops the jobs.
    await app!.close();
  } catch (err) {
    app!.log.error({ err }, 'closing the server failed');
    code = 1;
  }
  try {
    // Closes the pool, then stops the embedded PostgreSQL (a clean checkpoint) when this process owns it.
    await database.close();
  } catch (err) {
    app!.log.error({ err }, 'closing the database failed');
    code = 1;
  }
  clearTimeout(force);
  process.exit(code);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

/** One-time start-up work of modules (e.g. printing a generated admin password). */
function bootHooks(instance: NonNullable<typeof app>): Array<() => Promise<void>> {
  const hooks: Array<() => Promise<void>> = [];
  hooks.push(async () => {
    // Loud warnings for allowed-but-risky settings (test payments, TRUST_PROXY=true).
    const { configWarnings } = await import('./config');
    for (const warning of configWarnings(instance.services.config)) instance.log.warn(warning);
  });
  hooks.push(async () => {
    // ADMIN_PASSWORD's hash is stored (or updated); without it the first start generates one:
    // printed on a terminal, else written to DATA_DIR/admin-password.txt (0600), never logged.
    const { announceGeneratedPassword } = await import('./modules/admin/generated-password');
    const { generated } = await instance.services.admin.auth.ensurePassword();
    announceGeneratedPassword(generated, {
      dataDir: instance.services.config.DATA_DIR,
      isTTY: Boolean(process.stdout.isTTY),
      log: instance.log,
    });
  });
  return hooks;
}
