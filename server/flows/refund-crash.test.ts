// A refund through a real crash (ADR 021): the shop is killed with -9 after the provider refunded and before the
// ledger write; the restarted shop's reconciliation records that refund exactly once and never refunds again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openDatabase } from '../db/client';
import { buyOnePiece, HttpShopper, spawnShop, waitHealthy, type ShopProcess } from '../../tests/support/shop-process';

const shops: ShopProcess[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-refund-crash-'));
const pauseFile = path.join(dataDir, 'refund-paused');
/** The restarted shop reconciles refunds this old, this often (TEST_REFUND_RECONCILE_MS). */
const RECONCILE_MS = 500;

async function start(env: Record<string, string>): Promise<ShopProcess> {
  const shop = await spawnShop({ dataDir, env });
  shops.push(shop);
  await waitHealthy(shop, 90_000);
  return shop;
}

/** The refund records of the order and the offline provider's refunds of its payment. */
async function ledger(orderNumber: string): Promise<{ records: Array<{ status: string; gateway: string | null }>; atProvider: number }> {
  const db = await openDatabase({ dataDir, embeddedMode: 'shared', poolSize: 1 });
  try {
    const records = await db.pool.query<{ status: string; gateway: string | null }>(
      `select r.status, r.gateway_refund_id as gateway from order_refunds r join orders o on o.id = r.order_id where o.order_number = $1`,
      [orderNumber],
    );
    const provider = await db.pool.query<{ n: number }>(
      `select count(*)::int as n from offline_refunds f join orders o on o.stripe_payment_intent_id = f.intent_id where o.order_number = $1`,
      [orderNumber],
    );
    return { records: records.rows, atProvider: provider.rows[0]!.n };
  } finally {
    await db.close();
  }
}

afterAll(async () => {
  for (const s of shops) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  // A shop killed with -9 leaves its PostgreSQL behind: a shared open and close stops it as start.test.ts does.
  await (await openDatabase({ dataDir, embeddedMode: 'shared', poolSize: 1 })).close().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('kill -9 between the provider refund and the ledger write: after a restart the refund is recorded exactly once', async () => {
  const first = await start({ TEST_REFUND_PAUSE_FILE: pauseFile });
  const orderNumber = await buyOnePiece(first.base);
  const owner = new HttpShopper(first.base);
  expect((await owner.call('POST', '/api/admin/login', { password: 'process-test-password' })).status).toBe(200);
  const page = await owner.call('GET', `/api/admin/orders/page?q=${orderNumber}`);
  const orderId = (page.json.orders as Array<{ id: string }>)[0]!.id;

  // The refund never answers: the shop pauses after the provider refunded, and is killed there.
  void owner.call('POST', `/api/admin/orders/${orderId}/refund`, { amount: '5.00', requestKey: 'crash-test-refund' }).catch(() => undefined);
  await expect.poll(() => fs.existsSync(pauseFile), { timeout: 10_000, interval: 50 }).toBe(true);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');

  // The money moved at the provider; the shop's record still says requested.
  expect(await ledger(orderNumber)).toEqual({ records: [{ status: 'requested', gateway: null }], atProvider: 1 });

  // Restarted on the same data (no pause): its reconciliation finds the provider's refund by the record's id.
  const second = await start({ TEST_REFUND_RECONCILE_MS: String(RECONCILE_MS) });
  await expect
    .poll(async () => (await ledger(orderNumber)).records.map((r) => r.status), { timeout: 10_000, interval: 200 })
    .toEqual(['succeeded']);
  // Settled, it is out of reconciliation's reach: one record, one provider refund, the same one.
  const after = await ledger(orderNumber);
  expect(after.atProvider).toBe(1);
  expect(after.records).toEqual([{ status: 'succeeded', gateway: expect.stringMatching(/^re_offline_/) }]);
  second.child.kill('SIGTERM');
  expect(await second.exited).toEqual({ code: 0, signal: null });
}, 120_000);
