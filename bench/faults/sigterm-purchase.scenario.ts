// SIGTERM under a purchase flood, 5 runs (FAULTS_SIGTERM_PURCHASE_RUNS): 50 keep-alive shoppers
// (FAULTS_SIGTERM_SHOPPERS) buying again and again, each stopping when told 503 + Retry-After. Per run:
// connections reset unanswered (of the 50 shoppers), charged shoppers not shown their order, the exit code
// and the time from the signal to the exit (docs/operations.md, Stopping and restarting).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { spawnShop, waitHealthy } from '../../tests/support/shop-process';
import { addFloodProduct, startPurchaseFlood } from '../../tests/support/purchase-flood';

const RUNS = Number(process.env.FAULTS_SIGTERM_PURCHASE_RUNS ?? 5);
const SHOPPERS = Number(process.env.FAULTS_SIGTERM_SHOPPERS ?? 50);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function oneRun() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-bench-sigbuy-'));
  const shop = await spawnShop({ dataDir, env: { RATE_LIMITS: 'off', LOG_LEVEL: 'error' } });
  try {
    await waitHealthy(shop, 120_000);
    const productId = await addFloodProduct(dataDir);
    const flood = startPurchaseFlood(shop.base, { shoppers: SHOPPERS, productId, stopWhenRefused: true, settleMs: 2_000 });
    while (flood.ordered < 40) await sleep(20);
    const sent = Date.now();
    shop.child.kill('SIGTERM');
    const exit = await shop.exited;
    const ms = Date.now() - sent;
    const report = await flood.stop();
    return {
      code: exit.code,
      ms,
      resets: report.counts.dropped,
      bad: report.bad.length - report.counts.dropped,
      charged: report.charged.length,
      chargedNotTold: report.charged.filter((c) => c.orderNumber === null).length,
      refused503: report.counts['503'],
      closed: report.counts.closed,
    };
  } finally {
    if (shop.child.exitCode === null) shop.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const scenario: Scenario = async () => {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await oneRun();
    console.log(
      `run ${i + 1}: exit ${r.code} in ${r.ms} ms; ${r.resets} of ${SHOPPERS} shoppers reset; ${r.refused503} told 503, ${r.closed} found it closed; ` +
        `${r.chargedNotTold} of ${r.charged} charged shoppers not shown their order; ${r.bad} other failures`,
    );
    runs.push(r);
  }
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  return {
    rows: [
      { what: `connections reset (all runs, ${SHOPPERS} shoppers each)`, target: '0', measured: runs.map((r) => r.resets).join(' / '), ok: runs.every((r) => r.resets === 0) },
      { what: 'charged shoppers not shown their order', target: '0', measured: runs.map((r) => `${r.chargedNotTold} of ${r.charged}`).join(' / '), ok: runs.every((r) => r.chargedNotTold === 0) },
      { what: 'runs ending in exit 0', target: `${RUNS}/${RUNS}`, measured: `${runs.filter((r) => r.code === 0).length}/${RUNS}`, ok: runs.every((r) => r.code === 0) },
      { what: 'signal → exit (median / max)', target: '≤ 10 s', measured: `${sorted[Math.floor(RUNS / 2)]} / ${sorted[RUNS - 1]} ms`, ok: sorted[RUNS - 1]! <= 10_000 },
    ],
  };
};
export default scenario;
