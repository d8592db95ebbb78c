// kill -9 of the embedded postmaster under a bare shop during a purchase flood (200 shoppers, 5 runs:
// FAULTS_FLOOD_SHOPPERS, FAULTS_FLOOD_RUNS). Per run: whether the shop process exited (it must not: a
// lost connection is the request's 503, docs/operations.md), the answers during (503 + Retry-After, no
// other 5xx, no dropped connection), the time until a purchase's writes work again, and paid-lost: charged
// shoppers (the card confirmed) without their order, and orders shown that are not in the database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { openDatabase } from '../../server/db/client';
import { resolveClusterDir } from '../../server/db/embedded-postgres';
import { spawnShop, waitHealthy } from '../../tests/support/shop-process';
import { addFloodProduct, startPurchaseFlood } from '../../tests/support/purchase-flood';

const RUNS = Number(process.env.FAULTS_FLOOD_RUNS ?? 5);
const SHOPPERS = Number(process.env.FAULTS_FLOOD_SHOPPERS ?? 200);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function postmasterPid(dataDir: string): number {
  const pgdata = path.join(resolveClusterDir(path.join(dataDir, 'postgres')), 'data');
  return Number(fs.readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

async function oneRun(run: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-bench-pmflood-'));
  const shop = await spawnShop({ dataDir, env: { RATE_LIMITS: 'off', LOG_LEVEL: 'error' } });
  try {
    await waitHealthy(shop, 120_000);
    const productId = await addFloodProduct(dataDir);
    const flood = startPurchaseFlood(shop.base, { shoppers: SHOPPERS, productId, firstShopper: run * 100_000 });
    while (flood.counts.ok < 300) await sleep(50);
    const before = { ...flood.counts };
    const killedAt = Date.now();
    process.kill(postmasterPid(dataDir), 'SIGKILL');
    // Writes back: the flood's own answers turn 2xx again after the 503s.
    let backMs = Infinity;
    let seen503 = false;
    while (Date.now() - killedAt < 30_000 && shop.child.exitCode === null) {
      if (flood.counts['503'] > before['503']) seen503 = true;
      if (seen503 && flood.counts.ok > before.ok + 50) {
        backMs = Date.now() - killedAt;
        break;
      }
      await sleep(20);
    }
    await sleep(5_000);
    const report = await flood.stop();
    const exited = shop.child.exitCode !== null;
    let exitCode: number | null = shop.child.exitCode;
    if (!exited) {
      shop.child.kill('SIGTERM');
      exitCode = (await shop.exited).code;
    }
    const db = await openDatabase({ dataDir, embeddedMode: 'shared', poolSize: 1 });
    const { rows } = await db.pool.query<{ n: number }>('select count(*)::int as n from orders where order_number = any($1)', [report.orders]);
    const paidNoOrder = await db.pool.query<{ n: number }>(
      'select count(*)::int as n from unnest($1::text[]) as i(id) where not exists (select 1 from orders o where o.stripe_payment_intent_id = i.id)',
      [report.charged.map((c) => c.intentId)],
    );
    await db.close();
    return {
      exited,
      exitCode,
      backMs,
      n503: report.counts['503'] - before['503'],
      bad: report.bad,
      orders: report.orders.length,
      shownMissing: report.orders.length - rows[0]!.n,
      chargedNoOrder: paidNoOrder.rows[0]!.n,
      chargedNotTold: report.charged.filter((c) => !c.orderNumber).length,
      output: shop.output(),
    };
  } finally {
    if (shop.child.exitCode === null) shop.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const scenario: Scenario = async () => {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await oneRun(i);
    console.log(
      `run ${i + 1}: ${r.exited ? `EXITED (${r.exitCode})` : `stayed up, SIGTERM → exit ${r.exitCode}`}; writes back in ${r.backMs} ms; ` +
        `${r.n503} answered 503 during; ${r.orders} orders; shown but missing ${r.shownMissing}; charged without an order ${r.chargedNoOrder}; ` +
        `charged shoppers not shown their order ${r.chargedNotTold}; other failures ${r.bad.length}${r.bad.length ? ` (${r.bad.slice(0, 3).join(' | ')})` : ''}`,
    );
    if (r.exited) console.log(r.output.split('\n').filter((l) => /uncaught|unhandled|error/i.test(l)).slice(0, 5).join('\n'));
    runs.push(r);
  }
  const exits = runs.filter((r) => r.exited).length;
  const lost = runs.reduce((n, r) => n + r.shownMissing + r.chargedNoOrder, 0);
  const maxBack = Math.max(...runs.map((r) => r.backMs));
  return {
    rows: [
      { what: `shop process exits during the kill (of ${RUNS} runs, ${SHOPPERS} shoppers)`, target: '0', measured: String(exits), ok: exits === 0 },
      { what: 'paid lost: shown orders missing + charged without an order', target: '0', measured: String(lost), ok: lost === 0 },
      { what: 'charged shoppers never shown their order', target: '0', measured: String(runs.reduce((n, r) => n + r.chargedNotTold, 0)), ok: runs.every((r) => r.chargedNotTold === 0) },
      { what: 'answers other than 2xx / 4xx / 503 + Retry-After (all runs)', target: '0', measured: String(runs.reduce((n, r) => n + r.bad.length, 0)), ok: runs.every((r) => r.bad.length === 0) },
      { what: 'kill -9 → purchases again (max)', target: '≤ 10 s', measured: `${maxBack} ms`, ok: maxBack <= 10_000 },
      { what: 'SIGTERM afterwards → exit 0', target: `${RUNS}/${RUNS}`, measured: `${runs.filter((r) => r.exitCode === 0).length}/${RUNS}`, ok: runs.every((r) => r.exitCode === 0) },
    ],
  };
};
export default scenario;
