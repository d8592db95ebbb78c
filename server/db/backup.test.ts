import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../tests/support/build-test-app';
import { confirmOffline, createProduct, readyShopper, startPayment } from '../../tests/support/shop-fixtures';
import { BackupError, backupShop, restoreShop } from './backup';

const TABLES_COMPARED = ['products', 'categories', 'orders', 'order_items', 'checkouts', 'stock_holds', 'discount_codes', 'sessions', 'app_settings'];

async function snapshot(t: TestApp): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES_COMPARED) {
    const { rows } = await t.database.pool.query(`select row_to_json(x)::text as r from "${table}" x order by 1`);
    out[table] = rows.map((r: { r: string }) => r.r);
  }
  return out;
}

describe('db:backup / db:restore round-trip a shop', () => {
  let source: TestApp;
  let target: TestApp;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-backup-'));
  const file = path.join(dir, 'shop.jsonl.gz');

  beforeAll(async () => {
    source = await buildTestApp();
    target = await buildTestApp({ seed: false });
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a shop with a paid order comes back identical, uploads included', async () => {
    const id = await createProduct(source.database.db, { stock: 5 });
    const shopper = await readyShopper(source, id);
    const intent = await startPayment(shopper);
    expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
    const paid = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
    expect(paid.statusCode, paid.body).toBe(200);
    const uploads = path.join(source.dataDir, 'uploads');
    fs.mkdirSync(path.join(uploads, 'products'), { recursive: true });
    fs.writeFileSync(path.join(uploads, 'products', 'a.webp'), Buffer.from([1, 2, 3, 250]));

    const before = await snapshot(source);
    expect(before.orders).toHaveLength(1);
    const made = await backupShop(source.database.pool, file, { uploadsDir: uploads });
    expect(made.files).toBe(1);
    expect(made.rows).toBeGreaterThan(20);

    const targetUploads = path.join(target.dataDir, 'uploads');
    const restored = await restoreShop(target.database.pool, file, { uploadsDir: targetUploads });
    expect(restored.rows).toBe(made.rows);
    expect(await snapshot(target)).toEqual(before);
    expect([...fs.readFileSync(path.join(targetUploads, 'products', 'a.webp'))]).toEqual([1, 2, 3, 250]);
    // The restored shop works: its catalogue and the order are served.
    const order = await target.client().get('/api/products');
    expect(order.statusCode).toBe(200);
  });

  test('a damaged backup changes nothing', async () => {
    const before = await snapshot(target);
    const lines = zlib.gunzipSync(fs.readFileSync(file)).toString().trim().split('\n');
    const truncated = path.join(dir, 'truncated.jsonl.gz');
    fs.writeFileSync(truncated, zlib.gzipSync(lines.slice(0, -1).join('\n')));
    await expect(restoreShop(target.database.pool, truncated)).rejects.toThrow(BackupError);
    expect(await snapshot(target)).toEqual(before);

    const notABackup = path.join(dir, 'other.gz');
    fs.writeFileSync(notABackup, zlib.gzipSync('{"hello":1}\n'));
    await expect(restoreShop(target.database.pool, notABackup)).rejects.toThrow('is not a Fifty backup');
  });
});
