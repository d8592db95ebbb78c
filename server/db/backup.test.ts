import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../tests/support/build-test-app';
import { confirmOffline, createProduct, readyShopper, startPayment } from '../../tests/support/shop-fixtures';
import { projectRoot } from '../lib/project-root';
import { BACKUP_KEY_FILE, BackupError, KEPT_TABLES, LEFT_OUT_TABLES, backupShop, loadOrCreateBackupKey, restoreSessionSecret, restoreShop } from './backup';
import { openDatabase, type Database } from './client';
import { holdShopPresence } from './migrate';
import { prepareDatabase } from './prepare';

const TABLES_COMPARED = ['products', 'categories', 'orders', 'order_items', 'checkouts', 'stock_holds', 'discount_codes', 'app_settings', 'drop_queue'];
const SECRET = 'backed-up-session-secret-0123456789-abcdefghij';
/** The backup key of the shop under test (DATA_DIR/backup-key in a real one). */
const KEY = crypto.randomBytes(32);

async function snapshot(t: TestApp): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES_COMPARED) {
    // Session ids are compared apart: a backup carries them hashed.
    const { rows } = await t.database.pool.query(`select (to_jsonb(x) - 'session_id')::text as r from "${table}" x order by 1`);
    out[table] = rows.map((r: { r: string }) => r.r);
  }
  return out;
}

async function count(t: TestApp, table: string): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: number }>(`select count(*)::int as n from "${table}"`);
  return rows[0].n;
}

/** A place in the product's waiting room, as the drops module writes it (seq from its sequence). */
async function joinQueue(t: TestApp, productId: string, session: string): Promise<number> {
  const { rows } = await t.database.pool.query<{ seq: string }>(
    `insert into drop_queue (product_id, session_id, address_key, raffle, lottery_key) values ($1, $2, 'addr', false, 0.5) returning seq`,
    [productId, session],
  );
  return Number(rows[0].seq);
}

function readLines(file: string): Array<Record<string, unknown>> {
  return zlib
    .gunzipSync(fs.readFileSync(file))
    .toString()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('db:backup / db:restore round-trip a shop', () => {
  let source: TestApp;
  let target: TestApp;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-backup-'));
  const file = path.join(dir, 'shop.jsonl.gz');
  let queueMax = 0;
  let backedUp: Record<string, unknown[]> = {};

  beforeAll(async () => {
    source = await buildTestApp();
    target = await buildTestApp({ seed: false });
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a shop with a paid order comes back identical, uploads, queue places and session secret included', async () => {
    const id = await createProduct(source.database.db, { stock: 5 });
    const shopper = await readyShopper(source, id);
    const intent = await startPayment(shopper);
    expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
    const paid = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
    expect(paid.statusCode, paid.body).toBe(200);
    const uploads = path.join(source.dataDir, 'uploads');
    fs.mkdirSync(path.join(uploads, 'products'), { recursive: true });
    fs.writeFileSync(path.join(uploads, 'products', 'a.webp'), Buffer.from([1, 2, 3, 250]));
    // The waiting room's arrival order comes from a sequence: 41 places were handed out before the backup.
    await source.database.pool.query(`select setval(pg_get_serial_sequence('drop_queue', 'seq'), 40)`);
    queueMax = await joinQueue(source, id, 'queued-session');
    expect(queueMax).toBe(41);

    const before = await snapshot(source);
    backedUp = before;
    expect(before.orders).toHaveLength(1);
    const made = await backupShop(source.database.pool, file, { uploadsDir: uploads, sessionSecret: SECRET, key: KEY });
    expect(made.files).toBe(1);
    expect(made.rows).toBeGreaterThan(20);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const targetUploads = path.join(target.dataDir, 'uploads');
    const restored = await restoreShop(target.database.pool, file, { uploadsDir: targetUploads, key: KEY });
    expect(restored.rows).toBe(made.rows);
    expect(restored.sessionSecret).toBe(SECRET);
    expect(await snapshot(target)).toEqual(before);
    const sid = (await source.database.pool.query<{ s: string }>('select session_id as s from orders')).rows[0].s;
    const hashed = (await target.database.pool.query<{ s: string }>('select session_id as s from orders')).rows[0].s;
    expect(hashed).toBe(`backup:${crypto.createHash('sha256').update(sid).digest('hex')}`);
    expect([...fs.readFileSync(path.join(targetUploads, 'products', 'a.webp'))]).toEqual([1, 2, 3, 250]);
    // The restored shop works: its catalogue is served.
    expect((await target.client().get('/api/products')).statusCode).toBe(200);
  });

  test('the next queue place after a restore comes after every place in the backup (sequences restored)', async () => {
    const product = (await target.database.pool.query<{ product_id: string }>('select product_id from drop_queue limit 1')).rows[0];
    expect(await joinQueue(target, product.product_id, 'arrived-after-restore')).toBeGreaterThan(queueMax);
  });

  test('restore is refused while a shop instance is connected, and changes nothing', async () => {
    await target.database.pool.query("insert into categories (slug, name, description, image) values ('only-here', 'X', 'x', '')");
    const before = await snapshot(target);
    const instances: Database[] = [];
    for (let i = 0; i < 2; i++) {
      const instance = await openDatabase({ databaseUrl: target.config.DATABASE_URL, poolSize: 2 });
      // What a starting shop does (server/main.ts): it holds the presence lock until it closes.
      await prepareDatabase(instance, target.dataDir, { demoData: false });
      instances.push(instance);
    }
    await expect(restoreShop(target.database.pool, file, { key: KEY })).rejects.toThrow(
      '2 shop instances are connected to this database: stop every instance before restoring',
    );
    await instances[0].close();
    await expect(restoreShop(target.database.pool, file, { key: KEY })).rejects.toThrow('A shop instance is connected');
    expect(await snapshot(target)).toEqual(before);
    await instances[1].close();

    // Nobody connected any more: the restore goes through.
    expect(before).not.toEqual(backedUp);
    await restoreShop(target.database.pool, file, { key: KEY });
    expect(await snapshot(target)).toEqual(backedUp);
  });

  test('a shop starting during a restore waits for it (it cannot take its presence lock until the restore ends)', async () => {
    const restoreLock = await target.database.pool.connect();
    const instance = await openDatabase({ databaseUrl: target.config.DATABASE_URL, poolSize: 1 });
    try {
      await restoreLock.query('select pg_advisory_lock(505052)');
      await expect(holdShopPresence(instance, { waitMs: 300 })).rejects.toThrow('Gave up');
      await restoreLock.query('select pg_advisory_unlock(505052)');
      const presence = await holdShopPresence(instance, { waitMs: 300 });
      await presence.release();
    } finally {
      restoreLock.release();
      await instance.close();
    }
  });

  test('a damaged backup changes nothing', async () => {
    const before = await snapshot(target);
    const lines = zlib.gunzipSync(fs.readFileSync(file)).toString().trim().split('\n');
    const truncated = path.join(dir, 'truncated.jsonl.gz');
    fs.writeFileSync(truncated, zlib.gzipSync(lines.slice(0, -1).join('\n')));
    await expect(restoreShop(target.database.pool, truncated, { key: KEY })).rejects.toThrow(BackupError);
    // Unchecked, the missing end marker still stops it.
    const cut = path.join(dir, 'cut.jsonl.gz');
    fs.writeFileSync(cut, zlib.gzipSync(lines.slice(0, -2).join('\n')));
    await expect(restoreShop(target.database.pool, cut, { unverified: true })).rejects.toThrow('is incomplete (no end marker)');
    expect(await snapshot(target)).toEqual(before);

    const notABackup = path.join(dir, 'other.gz');
    fs.writeFileSync(notABackup, zlib.gzipSync('{"hello":1}\n'));
    await expect(restoreShop(target.database.pool, notABackup, { key: KEY })).rejects.toThrow('is not a Fifty backup');
    const notGzip = path.join(dir, 'plain.txt');
    fs.writeFileSync(notGzip, 'hello');
    await expect(restoreShop(target.database.pool, notGzip, { key: KEY })).rejects.toThrow(`${notGzip} is not a Fifty backup, or it is damaged`);
    await expect(restoreShop(target.database.pool, path.join(dir, 'missing.gz'), { key: KEY })).rejects.toThrow('No backup file at');
    expect(await snapshot(target)).toEqual(before);
  });

  test('a backup whose order total was edited (a valid gzip) is refused before anything is changed; the unedited one restores', async () => {
    await target.database.pool.query("insert into categories (slug, name, description, image) values ('edited-case', 'X', 'x', '')");
    const before = await snapshot(target);
    const lines = zlib.gunzipSync(fs.readFileSync(file)).toString().split('\n');
    const at = lines.findIndex((l) => l.startsWith('{"table":"orders"'));
    const total = /"total_cents":(\d+)/.exec(lines[at] ?? '');
    expect(total, 'the backup holds an order total').not.toBeNull();
    const edited = path.join(dir, 'edited.jsonl.gz');
    // The order's total changed; the file is a whole, valid gzip and every line is valid JSON.
    lines[at] = lines[at]!.replace(total![0], `"total_cents":${total![1] === '1' ? '2' : '1'}`);
    fs.writeFileSync(edited, zlib.gzipSync(lines.join('\n')));
    expect(() => zlib.gunzipSync(fs.readFileSync(edited))).not.toThrow();
    await expect(restoreShop(target.database.pool, edited, { key: KEY })).rejects.toThrow(
      `The backup ${edited} was changed after it was made (its checksum does not match): it was not restored.`,
    );
    expect(await snapshot(target)).toEqual(before);

    // Text added after the checksum would be restored unchecked: refused too.
    const appended = path.join(dir, 'appended.jsonl.gz');
    fs.writeFileSync(appended, Buffer.concat([fs.readFileSync(file), zlib.gzipSync('{"table":"categories","rows":[]}\n')]));
    await expect(restoreShop(target.database.pool, appended, { key: KEY })).rejects.toThrow('was changed after it was made');
    // Under another shop's key: said so, not called edited.
    await expect(restoreShop(target.database.pool, file, { key: crypto.randomBytes(32) })).rejects.toThrow(/was signed with another backup key \(key [0-9a-f]{16}; this one is [0-9a-f]{16}\)/);
    // No key and no explicit --unverified: nothing is restored.
    await expect(restoreShop(target.database.pool, file, {} as { unverified: true })).rejects.toThrow('A restore needs the backup key');
    expect(await snapshot(target)).toEqual(before);

    await restoreShop(target.database.pool, file, { key: KEY });
    expect(await snapshot(target)).toEqual(backedUp);
    // The operator may restore an edited file on purpose, and says so.
    await restoreShop(target.database.pool, edited, { unverified: true });
    const { rows } = await target.database.pool.query<{ t: string }>('select total_cents::text as t from orders');
    expect(rows.map((r) => r.t)).toEqual([total![1] === '1' ? '2' : '1']);
  });

  test('a backup of an older release (no checksum) restores only with --unverified', async () => {
    const lines = zlib.gunzipSync(fs.readFileSync(file)).toString().trim().split('\n');
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    const older = path.join(dir, 'version-2.jsonl.gz');
    fs.writeFileSync(older, zlib.gzipSync([JSON.stringify({ ...header, version: 2 }), ...lines.slice(1, -1)].join('\n')));
    await expect(restoreShop(target.database.pool, older, { key: KEY })).rejects.toThrow(
      `The backup ${older} carries no checksum (an older release of Fifty made it), so it cannot be checked: if you trust the file, run db:restore with --unverified.`,
    );
    await restoreShop(target.database.pool, older, { unverified: true });
    expect(await snapshot(target)).toEqual(backedUp);
  });
});

describe('what a backup leaves out', () => {
  let t: TestApp;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-backup-'));
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('every table of the schema is either kept or left out on purpose', async () => {
    const { rows } = await t.database.pool.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public'");
    const unclassified = rows.map((r) => r.name).filter((n) => !KEPT_TABLES.includes(n) && !Object.hasOwn(LEFT_OUT_TABLES, n));
    expect(unclassified, 'add each new table to KEPT_TABLES or LEFT_OUT_TABLES in server/db/backup.ts').toEqual([]);
  });

  test('no sessions, carts, rate limits, login counters, spent challenges or client secrets', async () => {
    const id = await createProduct(t.database.db, { stock: 5 });
    const payer = await readyShopper(t, id);
    const intent = await startPayment(payer);
    await readyShopper(t, id); // a second shopper with a cart and customer details, unpaid
    await t.database.pool.query("insert into rate_limits (key, count, reset_at) values ('rl-key-visible', 3, now() + interval '1 minute')");
    await t.database.pool.query("insert into admin_login_throttle (key, attempts) values ('throttle-key-visible', 2)");
    await t.database.pool.query("insert into spent_pow_challenges (signature, expires_at) values ('pow-signature-visible', now() + interval '5 minutes')");
    await t.database.pool.query(
      "insert into admin_devices (token_hash, password_tag, last_agent, last_network) values ('device-token-visible', 'tag', 'Firefox on macOS', 'abc123')",
    );
    await t.database.pool.query("insert into wishlist_items (session_id, product_id) values ('wishlist-session-visible', $1)", [id]);
    for (const table of Object.keys(LEFT_OUT_TABLES)) expect(await count(t, table), table).toBeGreaterThan(0);
    await t.database.pool.query(
      "insert into product_alerts (product_id, email, kind, token, claim_token) values ($1, 'a@example.com', 'restock', 'unsubscribe-token-kept', 'claim-token-visible')",
      [id],
    );
    const sids = (await t.database.pool.query<{ sid: string }>('select sid from sessions')).rows.map((r) => r.sid);
    const secrets = (await t.database.pool.query<{ s: string }>('select client_secret as s from offline_payment_intents')).rows.map((r) => r.s);
    expect(secrets).toContain(intent.clientSecret);

    const file = path.join(dir, 'shop.jsonl.gz');
    await backupShop(t.database.pool, file, { key: KEY });
    const text = zlib.gunzipSync(fs.readFileSync(file)).toString();
    const lines = readLines(file);
    const tables = new Set(lines.filter((l) => 'table' in l).map((l) => l.table as string));
    expect([...tables].filter((x) => Object.hasOwn(LEFT_OUT_TABLES, x))).toEqual([]);
    expect(tables).toContain('checkouts');
    expect((lines[0].tables as string[]).filter((x) => Object.hasOwn(LEFT_OUT_TABLES, x))).toEqual([]);
    for (const value of [...sids, ...secrets, 'rl-key-visible', 'throttle-key-visible', 'pow-signature-visible', 'device-token-visible', 'wishlist-session-visible', 'claim-token-visible']) {
      const at = text.indexOf(value);
      expect(at, `${value.slice(0, 12)} in ${JSON.stringify(text.slice(Math.max(0, at - 100), at + 200))}`).toBe(-1);
    }
    // The intent itself is kept (reconciliation reads it), with a new secret of the same shape.
    const intents = lines.filter((l) => l.table === 'offline_payment_intents').flatMap((l) => l.rows as Array<{ id: string; client_secret: string }>);
    expect(intents.map((i) => i.id)).toContain(intent.paymentIntentId);
    for (const i of intents) expect(i.client_secret).toMatch(new RegExp(`^${i.id}_secret_[0-9a-f]{32}$`));
    expect(text).toContain('unsubscribe-token-kept');
    // No session secret unless the caller passes it.
    expect(lines.some((l) => 'sessionSecret' in l)).toBe(false);
  });
});

describe('the session secret after a restore', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-secret-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('written to DATA_DIR/session-secret (0600) when SESSION_SECRET is not set; a set one that differs is reported', () => {
    fs.writeFileSync(path.join(dir, 'session-secret'), 'the-secret-of-a-fresh-shop', { mode: 0o600 });
    expect(restoreSessionSecret(SECRET, { dataDir: dir })).toMatch(/^Restored the session secret/);
    expect(fs.readFileSync(path.join(dir, 'session-secret'), 'utf8')).toBe(SECRET);
    expect(fs.statSync(path.join(dir, 'session-secret')).mode & 0o777).toBe(0o600);
    expect(restoreSessionSecret(SECRET, { dataDir: dir })).toMatch(/matches the backup/);
    expect(restoreSessionSecret(SECRET, { dataDir: dir, configured: SECRET })).toBe('SESSION_SECRET matches the backup.');
    expect(restoreSessionSecret(SECRET, { dataDir: dir, configured: 'x'.repeat(40) })).toMatch(/^SESSION_SECRET differs/);
  });
});

describe('npm run db:restore (the script)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-restore-script-'));
  const whole = path.join(dataDir, 'whole.jsonl.gz');
  const truncated = path.join(dataDir, 'truncated.jsonl.gz');
  const edited = path.join(dataDir, 'edited.jsonl.gz');
  const otherKey = path.join(dataDir, 'other-backup-key');
  beforeAll(async () => {
    const t = await buildTestApp({ seed: false });
    try {
      // Signed with this DATA_DIR's own key, as `npm run db:backup` does.
      const key = loadOrCreateBackupKey(dataDir);
      expect(fs.statSync(path.join(dataDir, BACKUP_KEY_FILE)).mode & 0o777).toBe(0o600);
      await backupShop(t.database.pool, whole, { key });
      const lines = zlib.gunzipSync(fs.readFileSync(whole)).toString().trim().split('\n');
      // Its end cut off: found only after the script started its database (unchecked, --unverified).
      fs.writeFileSync(truncated, zlib.gzipSync(lines.slice(0, -2).join('\n')));
      // One byte of it changed, still a valid gzip of valid JSON lines.
      fs.writeFileSync(edited, zlib.gzipSync(`${lines.join('\n').replace(/"createdAt":"2/, '"createdAt":"1')}\n`));
      fs.writeFileSync(otherKey, crypto.randomBytes(32).toString('hex'), { mode: 0o600 });
    } finally {
      await t.close();
    }
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  function restore(file: string, ...args: string[]) {
    const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development' };
    delete env.DATABASE_URL;
    delete env.SESSION_SECRET;
    return spawnSync(path.join(projectRoot, 'node_modules', '.bin', 'tsx'), ['scripts/db-restore.ts', file, ...args], {
      cwd: projectRoot,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
  }

  test.each([
    ['a missing file', () => path.join(dataDir, 'no-such-backup.jsonl.gz'), /^No backup file at .*no-such-backup\.jsonl\.gz\.$/],
    [
      'a file that is not a backup',
      () => {
        const f = path.join(dataDir, 'garbage.jsonl.gz');
        fs.writeFileSync(f, 'not gzip at all');
        return f;
      },
      /is not a Fifty backup, or it is damaged/,
    ],
    ['a damaged backup, unchecked (after the embedded PostgreSQL started)', () => truncated, /^The backup .*truncated\.jsonl\.gz is incomplete \(no end marker\)\.$/, '--unverified'],
    ['an edited backup', () => edited, /^The backup .*edited\.jsonl\.gz was changed after it was made \(its checksum does not match\): it was not restored\./],
    ['a backup signed with another key', () => whole, /^The backup .*whole\.jsonl\.gz was signed with another backup key/, '--key-file', otherKey],
    ['a key file that is missing', () => whole, /^No backup key at .*no-such-key\.$/, '--key-file', path.join(dataDir, 'no-such-key')],
  ] as Array<[string, () => string, RegExp, ...string[]]>)('%s: exit 1, one line, no stack, no PostgreSQL left running', (_what, makeFile, message, ...args) => {
    const r = restore(makeFile(), ...args);
    expect(r.status, r.stderr).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // No server left behind (the damaged backup's case started one and must have stopped it).
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid'))).toBe(false);
  });

  test('an unedited backup restores (exit 0), checked under DATA_DIR/backup-key', () => {
    const r = restore(whole);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Restored \d+ rows of \d+ tables and 0 uploaded files from /m);
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid'))).toBe(false);
  });
});
