// A drop: N shoppers, each in their own session, race for S pieces of one design through the whole
// API checkout on the offline gateway, over real HTTP against the real (compiled) server process:
//   add to cart → customer info → create payment intent → offline confirm (4242…) → payment-success.
//   npx tsx bench/drop.bench.ts            (embedded PostgreSQL, then an external PostgreSQL with 3 app
//                                           instances sharing it; 500 shoppers, 50 pieces)
//   BENCH_DB=embedded BENCH_SHOPPERS=5000 npx tsx bench/drop.bench.ts
//   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres  (server to create the fresh database on)
//   BENCH_INSTANCES=3                                         (app instances on the external PostgreSQL)
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'      (extra node flags for the server process)
// Results are printed and appended to bench/drop-runs.md. Exit code 1 when the goal is missed:
// sold out in < 2 s up to 500 shoppers, every shopper answered in < 15 s above that.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { and, eq, sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/client';
import { products } from '../server/modules/catalog/catalog.tables';
import { checkouts } from '../server/modules/checkout/checkout.tables';
import { orderItems } from '../server/modules/orders/orders.tables';
import { rssMb, stop } from './support/server-process';
import { percentile } from './support/stats';
import { createPgDatabase } from './support/pg-database';
import { benchEnv, migrateBenchDatabase, startShopInstances } from './support/shop-instances';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOPPERS = Number(process.env.BENCH_SHOPPERS ?? 500);
const PIECES = Number(process.env.BENCH_PIECES ?? 50);
const KINDS = (process.env.BENCH_DB ?? 'embedded,postgres').split(',').map((k) => k.trim()) as Array<
  'embedded' | 'postgres'
>;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 3);
const GOAL_MS = SHOPPERS <= 500 ? 2000 : 15_000;
const GOAL_TEXT = SHOPPERS <= 500 ? 'sold out (50th order) < 2000 ms' : 'every shopper answered < 15000 ms';

// ---- process helpers (freePort, waitFor, rssMb, stop: bench/support/server-process.ts) ------------

/** CPU seconds (user + system) a process has used so far (Linux /proc; 0 elsewhere). */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}


// ---- the drop -----------------------------------------------------------------------------------

type Step = 'cart' | 'info' | 'intent' | 'confirm' | 'success';

interface Sample {
  step: Step;
  ms: number;
  status: number;
}

interface DropResult {
  samples: Sample[];
  networkErrors: number;
  ordersOk: number;
  soldOutAtIntentMs: number | null;
  soldOutMs: number | null;
  finishedMs: number;
  outcomes: Record<string, number>;
}

async function runDrop(bases: string[], productId: string): Promise<DropResult> {
  const samples: Sample[] = [];
  const outcomes: Record<string, number> = {};
  let networkErrors = 0;
  let ordersOk = 0;
  let holds = 0;
  let soldOutMs: number | null = null;
  let soldOutAtIntentMs: number | null = null;
  const t0 = performance.now();

  async function shopper(n: number): Promise<string> {
    // A load balancer without stickiness: each shopper's requests go to one instance, shoppers spread out.
    const base = bases[n % bases.length]!;
    let cookie = '';
    async function call(
      step: Step,
      pathname: string,
      body: unknown,
    ): Promise<{ status: number; json: Record<string, unknown> }> {
      const start = performance.now();
      let res: Response;
      try {
        res = await fetch(base + pathname, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
          body: JSON.stringify(body),
        });
      } catch (err) {
        networkErrors++;
        throw err;
      }
      const text = await res.text();
      samples.push({ step, ms: performance.now() - start, status: res.status });
      for (const c of res.headers.getSetCookie()) if (c.startsWith('fifty_sid=')) cookie = c.split(';')[0]!;
      return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    }
    const add = await call('cart', '/api/cart', { productId, quantity: 1 });
    if (add.status !== 200) return `cart ${add.status}`;
    const info = await call('info', '/api/customer-info', {
      email: `shopper${n}@example.com`,
      firstName: 'Drop',
      lastName: `Shopper ${n}`,
      shippingAddress: `${n} Queue Street`,
      shippingCity: 'Springfield',
      shippingState: 'IL',
      shippingZip: '62701',
      shippingCountry: 'US',
    });
    if (info.status !== 200) return `info ${info.status}`;
    const intent = await call('intent', '/api/create-payment-intent', {});
    if (intent.status !== 200) return `intent ${intent.status}`;
    if (++holds === PIECES) soldOutAtIntentMs = performance.now() - t0;
    const confirm = await call('confirm', '/api/payments/offline/confirm', {
      clientSecret: intent.json.clientSecret,
      cardNumber: '4242 4242 4242 4242',
      // A card of their own: the offline gateway's fingerprint is the number with the expiry, and every
      // shopper buying with one card would be one shopper (limit 2, docs/product.md §9).
      expiry: `${String((n % 12) + 1).padStart(2, '0')}/${40 + (Math.floor(n / 12) % 50)}`,
      cvc: '123',
    });
    if (confirm.status !== 200) return `confirm ${confirm.status}`;
    const success = await call('success', '/api/payment-success', {
      paymentIntentId: intent.json.paymentIntentId,
    });
    if (success.status !== 200) return `success ${success.status}`;
    if (++ordersOk === PIECES) soldOutMs = performance.now() - t0;
    return 'order';
  }

  const results = await Promise.allSettled(Array.from({ length: SHOPPERS }, (_, i) => shopper(i + 1)));
  for (const r of results) {
    const key = r.status === 'fulfilled' ? r.value : 'network error';
    outcomes[key] = (outcomes[key] ?? 0) + 1;
  }
  return {
    samples,
    networkErrors,
    ordersOk,
    soldOutAtIntentMs,
    soldOutMs,
    finishedMs: performance.now() - t0,
    outcomes,
  };
}

// ---- one run per database -----------------------------------------------------------------------

interface RunFigures {
  kind: string;
  sold: number;
  oversold: number;
  fiveXx: number;
  networkErrors: number;
  soldOutMs: number | null;
  holdsTakenMs: number | null;
  finishedMs: number;
  p50: number;
  p99: number;
  perStep: Record<Step, { n: number; p50: number; p99: number }>;
  stockAfter: number;
  rssIdle: number;
  rssPeak: number;
  serverCpuS: number;
  outcomes: Record<string, number>;
}

async function run(kind: 'embedded' | 'postgres'): Promise<RunFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-drop-'));
  const pgDb = kind === 'postgres' ? await createPgDatabase(PG_URL) : null;
  const instances = kind === 'postgres' ? INSTANCES : 1;
  const servers: ChildProcess[] = [];
  try {
    // Every bench shopper comes from 127.0.0.1: per-address budgets × 100 (per-session limits unchanged).
    const env = benchEnv(dataDir, pgDb?.url, { RATE_LIMIT_ADDRESS_FACTOR: '100' });
    console.log(`\n[${kind}] preparing a seeded database…`);
    migrateBenchDatabase(env);

    // The drop product: exactly PIECES in stock, no sizes (one tap buys it).
    const setup = await openDatabase({ databaseUrl: pgDb?.url, dataDir, poolSize: 2, embeddedMode: 'shared' });
    const [product] = await setup.db
      .insert(products)
      .values({
        name: 'Drop 001 Tee',
        priceCents: 5000,
        category: 'tshirts',
        stock: PIECES,
        editionSize: Math.max(50, PIECES),
        sizes: [],
        colors: [],
        images: [],
      })
      .returning({ id: products.id });
    await setup.close();

    const bases = await startShopInstances(
      env,
      instances,
      servers,
      process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
    );
    const server = servers[0]!;
    const rssIdle = rssMb(server.pid!);
    let rssPeak = rssIdle;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(server!.pid!))), 100);

    console.log(`[${kind}] ${SHOPPERS} shoppers race for ${PIECES} pieces on ${instances} app instance(s)…`);
    const cpuBefore = servers.reduce((n, s) => n + cpuSeconds(s.pid!), 0);
    const drop = await runDrop(bases, product!.id);
    const serverCpuS = Math.round((servers.reduce((n, s) => n + cpuSeconds(s.pid!), 0) - cpuBefore) * 10) / 10;
    clearInterval(sampler);
    await Promise.all(servers.map((s) => stop(s, 15_000)));
    servers.length = 0;

    // Count what really happened, in the database.
    const check = await openDatabase({ databaseUrl: pgDb?.url, dataDir, poolSize: 2, embeddedMode: 'shared' });
    const [state] = await check.db
      .select({ stock: products.stock, sold: products.soldCount })
      .from(products)
      .where(eq(products.id, product!.id));
    const [units] = await check.db
      .select({ n: sql<number>`coalesce(sum(${orderItems.quantity}), 0)::int` })
      .from(orderItems)
      .where(eq(orderItems.productId, product!.id));
    const [open] = await check.db
      .select({ n: sql<number>`count(*)::int` })
      .from(checkouts)
      .where(and(eq(checkouts.status, 'open')));
    await check.close();
    if (open!.n > 0) console.log(`[${kind}] note: ${open!.n} checkouts still open (holds awaiting expiry)`);

    const all = drop.samples.map((s) => s.ms).sort((a, b) => a - b);
    const steps: Step[] = ['cart', 'info', 'intent', 'confirm', 'success'];
    const perStep = Object.fromEntries(
      steps.map((step) => {
        const ms = drop.samples
          .filter((s) => s.step === step)
          .map((s) => s.ms)
          .sort((a, b) => a - b);
        return [step, { n: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99) }];
      }),
    ) as RunFigures['perStep'];
    return {
      kind: instances > 1 ? `${kind} ×${instances}` : kind,
      sold: units!.n,
      oversold: Math.max(0, units!.n - PIECES) + (state!.stock < 0 ? -state!.stock : 0),
      fiveXx: drop.samples.filter((s) => s.status >= 500).length,
      networkErrors: drop.networkErrors,
      soldOutMs: drop.soldOutMs === null ? null : Math.round(drop.soldOutMs),
      holdsTakenMs: drop.soldOutAtIntentMs === null ? null : Math.round(drop.soldOutAtIntentMs),
      finishedMs: Math.round(drop.finishedMs),
      p50: percentile(all, 50),
      p99: percentile(all, 99),
      perStep,
      stockAfter: state!.stock,
      rssIdle,
      rssPeak,
      serverCpuS,
      outcomes: drop.outcomes,
    };
  } finally {
    await Promise.all(servers.map((s) => stop(s, 15_000)));
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const cpus = os.cpus();
  const machine = `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`;
  const figures: RunFigures[] = [];
  for (const kind of KINDS) figures.push(await run(kind));

  const log = path.join(root, 'bench', 'drop-runs.md');
  if (!fs.existsSync(log)) {
    fs.writeFileSync(
      log,
      '# Drop runs (appended by bench/drop.bench.ts)\n\n' +
        '| date | machine | db | shoppers / pieces | sold | oversold | 5xx | net errors | sold out ms (holds / orders) | all done ms | p50 / p99 ms | p50 / p99 ms per step: cart, info, intent, confirm, success | stock after | server RSS MB (idle / peak) | server CPU s | load avg |\n' +
        '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n',
    );
  }
  let ok = true;
  for (const f of figures) {
    console.log(`\n[${f.kind}] outcomes: ${JSON.stringify(f.outcomes)}`);
    console.table(f.perStep);
    console.log(
      `[${f.kind}] sold ${f.sold}, oversold ${f.oversold}, 5xx ${f.fiveXx}, network errors ${f.networkErrors}, ` +
        `holds taken in ${f.holdsTakenMs} ms, sold out (50th order) in ${f.soldOutMs} ms, all ${SHOPPERS} done in ${f.finishedMs} ms, ` +
        `p50 ${f.p50} ms, p99 ${f.p99} ms, stock after ${f.stockAfter}, RSS ${f.rssIdle} → ${f.rssPeak} MB, server CPU ${f.serverCpuS} s, load ${os.loadavg()[0]!.toFixed(1)}`,
    );
    const steps = (['cart', 'info', 'intent', 'confirm', 'success'] as const)
      .map((s) => `${f.perStep[s].p50} / ${f.perStep[s].p99}`)
      .join('; ');
    fs.appendFileSync(
      log,
      `| ${new Date().toISOString()} | ${machine} | ${f.kind} | ${SHOPPERS} / ${PIECES} | ${f.sold} | ${f.oversold} | ${f.fiveXx} | ${f.networkErrors} | ${f.holdsTakenMs} / ${f.soldOutMs} | ${f.finishedMs} | ${f.p50} / ${f.p99} | ${steps} | ${f.stockAfter} | ${f.rssIdle} / ${f.rssPeak} | ${f.serverCpuS} | ${os.loadavg()[0]!.toFixed(1)} |\n`,
    );
    const met =
      f.sold === PIECES &&
      f.oversold === 0 &&
      f.fiveXx === 0 &&
      f.networkErrors === 0 &&
      f.soldOutMs !== null &&
      (SHOPPERS <= 500 ? f.soldOutMs : f.finishedMs) < GOAL_MS;
    console.log(`[${f.kind}] goal (${PIECES} sold, 0 oversold, 0 errors, ${GOAL_TEXT}): ${met ? 'MET' : 'MISSED'}`);
    ok &&= met;
  }
  console.log(`\nappended to ${path.relative(root, log)}`);
  if (!ok) process.exitCode = 1;
}

await main();
