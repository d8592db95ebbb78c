// kill -9 of the embedded postmaster under a bare shop (no process manager): idle, and mid-drop with
// shoppers paying. Target: back to 200 on writes within 10 s, every order a shopper was told about is
// in the database (0 paid lost), the shop still running (it heals itself, ADR 007 amendment).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { openDatabase } from '../../server/db/client';
import { HttpShopper, spawnShop, waitHealthy, type ShopProcess } from '../../tests/support/shop-process';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function postmasterPid(dataDir: string): number {
  return Number(fs.readFileSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

const customerOf = (i: number) => ({
  email: `kill${i}@example.com`,
  firstName: 'Bench',
  lastName: 'Shopper',
  phone: null,
  shippingAddress: `${i + 1} Kill Lane`,
  shippingCity: 'Springfield',
  shippingState: 'IL',
  shippingZip: '62701',
  shippingCountry: 'US',
});

/** One purchase by shopper i: the order number, or null when a step failed (e.g. 503 while the database was away). */
async function buy(base: string, i: number): Promise<string | null> {
  const s = new HttpShopper(base);
  try {
    const list = await s.call('GET', '/api/products');
    const items = list.json as unknown as Array<{ id: string; inStock: boolean; stock: number; sizes?: string[] | null; colors?: Array<{ name: string }> | null }>;
    const p = items[i % items.length]!.stock > 0 ? items[i % items.length]! : items.find((x) => x.stock > 0);
    if (!p) return null;
    if ((await s.call('POST', '/api/cart', { productId: p.id, quantity: 1, selectedSize: p.sizes?.[0] ?? null, selectedColor: p.colors?.[0]?.name ?? null })).status !== 200) return null;
    if ((await s.call('POST', '/api/customer-info', customerOf(i))).status !== 200) return null;
    const intent = await s.call('POST', '/api/create-payment-intent', {});
    if (intent.status !== 200) return null;
    const card = { cardNumber: '4242 4242 4242 4242', expiry: `${String((i % 12) + 1).padStart(2, '0')}/${40 + Math.floor(i / 12)}`, cvc: '123' };
    const paid = await s.call('POST', '/api/payments/offline/confirm', { clientSecret: intent.json.clientSecret, ...card });
    if (paid.status !== 200) return null;
    const done = await s.call('POST', '/api/payment-success', { paymentIntentId: intent.json.paymentIntentId ?? paid.json.id });
    return done.status === 200 ? String(done.json.orderNumber) : null;
  } catch {
    return null;
  }
}

async function timeToWrite(base: string, since: number): Promise<number> {
  const s = new HttpShopper(base);
  for (;;) {
    const r = await s.call('POST', '/api/customer-info', customerOf(9999)).catch(() => ({ status: 0 }));
    if (r.status === 200) return Date.now() - since;
    if (Date.now() - since > 30_000) return Infinity;
    await sleep(100);
  }
}

const scenario: Scenario = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-bench-pmkill-'));
  let shop: ShopProcess | null = null;
  try {
    shop = await spawnShop({ dataDir, env: { RATE_LIMITS: 'off', LOG_LEVEL: 'error' } });
    await waitHealthy(shop);
    const idle: number[] = [];
    for (let round = 0; round < 3; round++) {
      process.kill(postmasterPid(dataDir), 'SIGKILL');
      idle.push(await timeToWrite(shop.base, Date.now()));
      await sleep(1000);
    }
    // Mid-drop: 8 shoppers buying in a loop; the postmaster is killed 3 s in; 15 s in all.
    const told: string[] = [];
    let stop = false;
    let n = 0;
    const buyers = Array.from({ length: 8 }, async () => {
      while (!stop) {
        const order = await buy(shop!.base, n++);
        if (order) told.push(order);
      }
    });
    await sleep(3000);
    const before = told.length;
    const killedAt = Date.now();
    process.kill(postmasterPid(dataDir), 'SIGKILL');
    const midMs = await timeToWrite(shop.base, killedAt);
    await sleep(8000);
    stop = true;
    await Promise.all(buyers);
    const stillRunning = shop.child.exitCode === null;
    shop.child.kill('SIGTERM');
    const exit = await shop.exited;
    const db = await openDatabase({ dataDir, embeddedMode: 'shared', poolSize: 1 });
    const { rows } = await db.pool.query<{ n: number }>('select count(*)::int as n from orders where order_number = any($1)', [told]);
    await db.close();
    const lost = told.length - rows[0]!.n;
    console.log(`idle: ${idle.join(', ')} ms; mid-drop: ${midMs} ms, ${told.length} orders (${before} before the kill), exit ${exit.code}`);
    const maxIdle = Math.max(...idle);
    return {
      rows: [
        { what: 'idle kill -9 → write 200 (3 rounds, max)', target: '≤ 10 s', measured: `${idle.join(' / ')} ms`, ok: maxIdle <= 10_000 },
        { what: 'mid-drop kill -9 → write 200', target: '≤ 10 s', measured: `${midMs} ms`, ok: midMs <= 10_000 },
        { what: 'orders told to shoppers missing from the database', target: '0', measured: `${lost} of ${told.length}`, ok: lost === 0 },
        { what: 'shop kept running, then SIGTERM → exit 0', target: 'yes', measured: `${stillRunning ? 'running' : 'EXITED'}, exit ${exit.code}`, ok: stillRunning && exit.code === 0 },
      ],
    };
  } finally {
    if (shop && shop.child.exitCode === null) shop.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};
export default scenario;
