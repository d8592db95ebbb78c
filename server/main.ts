import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { loadConfigOrExit } from './config';
import { openDatabase, type Database } from './db/client';
import { DataDirInUseError } from './db/embedded-postgres';
import { prepareDatabase } from './db/prepare';
import { secureDataDir } from './lib/data-dir';
import { buildApp } from './app';
import { DATABASE_UNAVAILABLE_MESSAGE } from './plugins/error-handler';
import { resolveSessionSecret } from './session-secret';

const config = loadConfigOrExit();
// Files the shop writes (database password, outbox, uploads, secrets) are the owner's alone.
process.umask(0o077);

// Stopping (docs/operations.md "Stopping and restarting", ADR 007):
// 1. drain (DRAIN_MS): still listening; every answer says `Connection: close`, so keep-alive clients
//    that already sent their next request get it answered and their sockets close cleanly;
// 2. refuse: still listening; new requests get 503 + Retry-After + Connection: close, so clients back off
//    before the listening socket closes (connections still queued in the kernel when it closes would be
//    reset), except those that finish a purchase already paid (SETTLING_ROUTES: a charged shopper is shown
//    their order, not an error). It lasts until no request is in flight (event streams aside) and no new
//    connection came for QUIET_MS, at least REFUSE_MS and at most REFUSE_MAX_MS;
// 3. close: stop listening; idle sockets are closed once idle for GRACE_MS (a connection accepted in the
//    last milliseconds has its request answered, not reset); in-flight requests are answered;
// 4. stop the jobs, the pool and the embedded PostgreSQL; exit 0.
// Any uncaught error, a stuck stop (FORCE_MS) or a database that cannot be got back ends the process
// with exit code 1, and still stops the embedded PostgreSQL first.
const DRAIN_MS = 600;
const REFUSE_MS = 150;
const QUIET_MS = 250;
const REFUSE_MAX_MS = 4_000;
const GRACE_MS = 250;
const FORCE_MS = 10_000;
const RETRY_AFTER_S = '5';

let database: Database | undefined;
let app: Awaited<ReturnType<typeof buildApp>> | null = null;
let closing = false;
let draining = false;
let refusing = false;
let sweep: NodeJS.Timeout | undefined;
/** When the last connection was accepted, and the requests in flight (event streams aside): step 2's end. */
let lastConnectionAt = 0;
const inFlight = new Set<ServerResponse>();
/**
 * Routes that finish a purchase already paid, answered while the shop refuses everything else: the
 * order for a charged card (the success page, the gateway's webhook) and the success page's read of it.
 */
const SETTLING_ROUTES = new Set(['/api/payment-success', '/api/orders/latest', '/api/webhooks/stripe']);

const logError = (err: unknown, msg: string) => {
  if (app) app.log.error({ err }, msg);
  else console.error(`${msg}: ${(err as Error)?.message ?? String(err)}`);
};

/** Stops the embedded PostgreSQL (when this process owns it) within a few seconds, whatever else failed. */
async function stopDatabaseNow(): Promise<void> {
  const db = database;
  if (!db) return;
  await Promise.race([
    (db.embedded ? db.embedded.stop() : db.pool.end()).catch((err: unknown) => logError(err, 'stopping the database failed')),
    new Promise((r) => setTimeout(r, 8_000).unref()),
  ]);
}

let dying = false;
async function die(err: unknown, what: string): Promise<never> {
  if (!dying) {
    dying = true;
    logError(err, what);
    await stopDatabaseNow();
  }
  process.exit(1);
}
process.on('uncaughtException', (err) => void die(err, 'uncaught exception: stopping'));
process.on('unhandledRejection', (err) => void die(err, 'unhandled promise rejection: stopping'));

try {
  database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: 20,
    // Kept open when idle, so a rush starts on open connections (docs/operations.md, Database connections).
    keepConnections: 6,
    log: (m) => (app ? app.log.warn(m) : console.log(m)),
    // The supervisor restarts a dead PostgreSQL itself; only when another process took it meanwhile
    // does the shop stop, non-zero, so that a supervisor (or the operator) sees it.
    onLost: (err) => void shutdown('database lost', 1, err),
  });
} catch (err) {
  console.error(err instanceof DataDirInUseError ? err.message : `Could not open the database: ${(err as Error).message}`);
  process.exit(1);
}

try {
  // DATA_DIR is the owner's alone (0700; 0710 for the embedded database's group when running as root).
  const { fixed } = secureDataDir(config.DATA_DIR, { traverseGid: database.embedded?.traverseGid });
  if (fixed.length) console.log(`Made ${fixed.length} file(s) in DATA_DIR private to the shop's user.`);
  await prepareDatabase(database, config.DATA_DIR, { demoData: config.DEMO_DATA });
  app = await buildApp(config, { database, sessionSecret: resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR) });
  // Step 2 above: new requests are refused while the listener stays open (Fastify's own 503 once closing
  // would refuse a charged shopper's order too).
  app.addHook('onRequest', async (request, reply) => {
    if (!refusing || SETTLING_ROUTES.has(request.routeOptions.url ?? '')) return;
    return reply
      .code(503)
      .header('retry-after', RETRY_AFTER_S)
      .header('connection', 'close')
      .header('cache-control', 'no-store')
      .send({ message: DATABASE_UNAVAILABLE_MESSAGE });
  });
  await app.ready();
  trackConnections(app.server);
  for (const hook of bootHooks(app)) await hook();
  app.services.jobs.start();
  await app.listen({ port: config.PORT, host: config.HOST });
  void database.warm();
} catch (err) {
  console.error(`Could not start: ${(err as Error).message}`);
  await app?.close().catch(() => undefined);
  await database.close().catch(() => undefined);
  process.exit(1);
}

/**
 * Connection bookkeeping for a stop that resets nothing. The listener runs BEFORE Fastify's own (which
 * may answer synchronously: a malformed URL, the 503 once closing), so headers are set while they can be.
 * Node's server.close() closes every idle connection at once, including one accepted a moment ago whose
 * request is not read yet: it is replaced by one that spares connections active within GRACE_MS, and is
 * called again until none is left.
 */
function trackConnections(server: NonNullable<typeof app>['server']) {
  const sockets = new Map<Socket, { busy: number; lastActive: number }>();
  server.on('connection', (socket: Socket) => {
    lastConnectionAt = Date.now();
    sockets.set(socket, { busy: 0, lastActive: Date.now() });
    socket.once('close', () => sockets.delete(socket));
  });
  server.prependListener('request', (req, res) => {
    const state = sockets.get(req.socket);
    if (state) {
      state.busy++;
      state.lastActive = Date.now();
      res.once('close', () => {
        state.busy--;
        state.lastActive = Date.now();
      });
    }
    // Event streams (the waiting room's, live stock's: `…/events`) never end by themselves: not counted.
    if (!/\/events(\?|$)/.test(req.url ?? '')) {
      inFlight.add(res);
      res.once('close', () => inFlight.delete(res));
    }
    if (draining && !res.headersSent) res.setHeader('connection', 'close');
  });
  server.closeIdleConnections = () => {
    const now = Date.now();
    for (const [socket, state] of sockets) {
      if (state.busy === 0 && now - state.lastActive >= GRACE_MS) socket.destroy();
    }
  };
  server.on('close', () => clearInterval(sweep));
  return sockets;
}

/**
 * Step 2's end: nothing in flight but event streams (they end with the server), and no connection for
 * QUIET_MS, so that a shopper whose card was just charged reaches the listener for their order, and the
 * listener closes with no connection waiting in the kernel.
 */
async function quietDown(): Promise<void> {
  const started = Date.now();
  for (;;) {
    const now = Date.now();
    if (now - started >= REFUSE_MAX_MS) return;
    if (now - started >= REFUSE_MS && now - lastConnectionAt >= QUIET_MS && inFlight.size === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function shutdown(reason: string, exitCode = 0, cause?: unknown) {
  if (closing) return;
  if (!app) return void die(cause ?? new Error(reason), reason);
  closing = true;
  if (cause) logError(cause, reason);
  app!.log.info({ reason }, 'shutting down: finishing in-flight requests');
  const force = setTimeout(() => void die(new Error(`shutdown took over ${FORCE_MS / 1000} s`), 'exiting anyway'), FORCE_MS).unref();
  draining = true;
  await new Promise((r) => setTimeout(r, DRAIN_MS));
  let code = exitCode;
  refusing = true;
  await quietDown();
  app!.log.info({ inFlight: inFlight.size }, 'shutting down: closing the server');
  // Closes idle sockets as they pass GRACE_MS of quiet, until the server has none left.
  sweep = setInterval(() => app!.server.closeIdleConnections(), 50);
  try {
    // Stops listening, answers what is still in flight, ends the event streams, stops the jobs.
    await app!.close();
  } catch (err) {
    app!.log.error({ err }, 'closing the server failed');
    code = 1;
  }
  clearInterval(sweep);
  app!.log.info('shutting down: closing the database');
  try {
    // Closes the pool, then stops the embedded PostgreSQL (a clean checkpoint) when this process owns it.
    await database!.close();
  } catch (err) {
    app!.log.error({ err }, 'closing the database failed');
    await stopDatabaseNow();
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
