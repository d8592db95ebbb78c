// A drop: N shoppers, each in their own session, race for S pieces of one design through the whole
// API checkout on the offline gateway, over real HTTP against the real (compiled) server process:
//   add to cart → customer info → create payment intent → offline confirm (4242…) → payment-success.
//   npx tsx bench/drop.bench.ts            (embedded PostgreSQL, then an external PostgreSQL with 3 app
//                                           instances sharing it; 500 shoppers, 50 pieces)
//   BENCH_DB=embedded BENCH_SHOPPERS=5000 npx tsx bench/drop.bench.ts
//   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres  (server to create the fresh database on)
//   BENCH_INSTANCES=3                                         (app instances on the external PostgreSQL)
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'      (extra node flags for the server process)
//   BENCH_SIZE_ROUNDS=3   (rounds of the one-pool drop against the same edition cut in sizes, ADR 015;
//                          0 runs the one-pool drop alone)
//   BENCH_SEED=1          (the shoppers' random sizes)
// Each database gets the one-pool drop and, on the same server, a drop of the same edition cut into a size
// run of 5/10/15/10/5/5 over XS–XXL, each shopper wanting one random size: rounds alternate which goes
// first. Results are printed and appended to bench/drop-runs.md. Exit code 1 when the goal is missed:
// sold out in < 2 s up to 500 shoppers, every shopper answered in < 15 s above that; for the size run,
// 0 oversold per size and overall, every size sold out, and its median sell-out within 20 % of one pool's.
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
import { productVariants } from '../server/modules/inventory/variants.tables';
import { replaceSizeRun } from '../server/modules/inventory/variants.repository';
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
const SIZE_ROUNDS = Number(process.env.BENCH_SIZE_ROUNDS ?? 3);
const SEED = Number(process.env.BENCH_SEED ?? 1);
/** The size run of ADR 015's bench: 5/10/15/10/5/5 over XS–XXL, scaled to BENCH_PIECES (50 by default). */
const RUN_SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'] as const;
const RUN_SHARES = [5, 10, 15, 10, 5, 5];
const SIZE_RUN = RUN_SIZES.map((size, i) => ({ size, pieces: Math.round((RUN_SHARES[i]! * PIECES) / 50) }));
SIZE_RUN[2]!.pieces += PIECES - SIZE_RUN.reduce((a, r) => a + r.pieces, 0);
/** The size run's sell-out is within this share of the one pool's (ADR 015, Consequences). */
const SIZE_RATIO_GOAL = 1.2;
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

/** A small seeded generator (mulberry32), so a run's shoppers want the same sizes every time. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

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

/** `sizeOf(n)`: the size shopper n wants (a product cut in sizes); absent: one pool, no size. */
async function runDrop(bases: string[], productId: string, sizeOf?: (n: number) => string): Promise<DropResult> {
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
    const add = await call('cart', '/api/cart', { productId, quantity: 1, ...(sizeOf && { selectedSize: sizeOf(n) }) });
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
  /** The one pool against the same edition cut in sizes (absent with BENCH_SIZE_ROUNDS=0). */
  sizes?: SizeFigures;
}

/** One size of a size-run drop, counted in the database afterwards. */
interface SizeCount {
  size: string;
  pieces: number;
  /** Units of this size on order lines. */
  ordered: number;
  /** The variant's sold count. */
  sold: number;
  left: number;
  held: number;
}

interface SizeFigures {
  rounds: Array<{ first: 'pool' | 'sizes'; poolMs: number | null; sizedMs: number | null; sizedOutcomes: Record<string, number> }>;
  poolMedianMs: number | null;
  sizedMedianMs: number | null;
  /** sized / pool, of the medians. */
  ratio: number | null;
  /** Per size, summed over the rounds' size-run drops (each round has its own product). */
  perSize: SizeCount[];
  oversoldPerSize: number;
  oversoldOverall: number;
  /** Every size of every round's product has 0 left, 0 held and all its pieces sold. */
  everySizeSoldOut: boolean;
  fiveXx: number;
  networkErrors: number;
}

const median = (xs: Array<number | null>): number | null => {
  const v = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (v.length === 0) return null;
  return Math.round(v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2);
};

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

    // The drop product: exactly PIECES in stock, no sizes (one tap buys it). With the size rounds, more
    // one-pool products and the same edition cut in sizes (ADR 015), each round on fresh products.
    const setup = await openDatabase({ databaseUrl: pgDb?.url, dataDir, poolSize: 2, embeddedMode: 'shared' });
    const poolProduct = async (name: string) => {
      const [row] = await setup.db
        .insert(products)
        .values({
          name,
          priceCents: 5000,
          category: 'tshirts',
          stock: PIECES,
          editionSize: Math.max(50, PIECES),
          sizes: [],
          colors: [],
          images: [],
        })
        .returning({ id: products.id });
      return row!.id;
    };
    const sizedProduct = async (name: string) => {
      const [row] = await setup.db
        .insert(products)
        .values({
          name,
          priceCents: 5000,
          category: 'tshirts',
          stock: PIECES,
          editionSize: PIECES,
          sizes: [...RUN_SIZES],
          colors: [],
          images: [],
        })
        .returning({ id: products.id });
      const run = await setup.db.transaction((tx) => replaceSizeRun(tx, row!.id, SIZE_RUN));
      if (!run.ok) throw new Error(`size run refused: ${run.message}`);
      return row!.id;
    };
    const product = { id: await poolProduct('Drop 001 Tee') };
    const rounds: Array<{ first: 'pool' | 'sizes'; pool: string; sized: string }> = [];
    for (let r = 0; r < SIZE_ROUNDS; r++)
      rounds.push({
        first: r % 2 === 0 ? 'pool' : 'sizes',
        pool: r === 0 ? product.id : await poolProduct(`Drop 00${r + 1} Tee`),
        sized: await sizedProduct(`Drop 00${r + 1} Sized Tee`),
      });
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

    // The same edition cut in sizes, each shopper wanting one random size, against one pool on the same
    // server; the rounds alternate which goes first, so a warmer server favours neither.
    const random = seeded(SEED);
    const sizeRounds: Array<{ first: 'pool' | 'sizes'; pool: DropResult; sized: DropResult }> = [];
    for (const [r, round] of rounds.entries()) {
      const wants = Array.from({ length: SHOPPERS + 1 }, () => RUN_SIZES[Math.floor(random() * RUN_SIZES.length)]!);
      const sized = () => runDrop(bases, round.sized, (n) => wants[n]!);
      const pool = () => (r === 0 ? Promise.resolve(drop) : runDrop(bases, round.pool));
      console.log(`[${kind}] size round ${r + 1}/${rounds.length}: ${round.first} first…`);
      await new Promise((done) => setTimeout(done, 1000));
      if (round.first === 'pool') {
        const p = await pool();
        await new Promise((done) => setTimeout(done, 1000));
        sizeRounds.push({ first: round.first, pool: p, sized: await sized() });
      } else {
        const z = await sized();
        await new Promise((done) => setTimeout(done, 1000));
        sizeRounds.push({ first: round.first, pool: await pool(), sized: z });
      }
    }
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
    let sizes: SizeFigures | undefined;
    if (rounds.length > 0) {
      const perSize = new Map<string, SizeCount>(
        SIZE_RUN.map((r) => [r.size, { size: r.size, pieces: 0, ordered: 0, sold: 0, left: 0, held: 0 }]),
      );
      let oversoldPerSize = 0;
      let oversoldOverall = 0;
      let everySizeSoldOut = true;
      for (const round of rounds) {
        const variants = await check.db.select().from(productVariants).where(eq(productVariants.productId, round.sized));
        const lines = await check.db
          .select({ size: orderItems.selectedSize, n: sql<number>`sum(${orderItems.quantity})::int` })
          .from(orderItems)
          .where(eq(orderItems.productId, round.sized))
          .groupBy(orderItems.selectedSize);
        const [pool] = await check.db
          .select({ n: sql<number>`coalesce(sum(${orderItems.quantity}), 0)::int` })
          .from(orderItems)
          .where(eq(orderItems.productId, round.pool));
        oversoldOverall += Math.max(0, pool!.n - PIECES);
        oversoldOverall += Math.max(0, lines.reduce((a, l) => a + l.n, 0) - PIECES);
        for (const planned of SIZE_RUN) {
          const v = variants.find((x) => x.size === planned.size);
          const ordered = lines.find((l) => l.size === planned.size)?.n ?? 0;
          const count = perSize.get(planned.size)!;
          count.pieces += planned.pieces;
          count.ordered += ordered;
          count.sold += v?.soldCount ?? 0;
          count.left += v?.stock ?? 0;
          count.held += v?.heldCount ?? 0;
          oversoldPerSize += Math.max(0, ordered - planned.pieces, (v?.soldCount ?? 0) - planned.pieces);
          everySizeSoldOut &&= !!v && v.stock === 0 && v.heldCount === 0 && v.soldCount === planned.pieces;
        }
      }
      const poolMedianMs = median(sizeRounds.map((r) => r.pool.soldOutMs));
      const sizedMedianMs = median(sizeRounds.map((r) => r.sized.soldOutMs));
      sizes = {
        rounds: sizeRounds.map((r) => ({
          first: r.first,
          poolMs: r.pool.soldOutMs === null ? null : Math.round(r.pool.soldOutMs),
          sizedMs: r.sized.soldOutMs === null ? null : Math.round(r.sized.soldOutMs),
          sizedOutcomes: r.sized.outcomes,
        })),
        poolMedianMs,
        sizedMedianMs,
        ratio: poolMedianMs && sizedMedianMs ? Math.round((sizedMedianMs / poolMedianMs) * 100) / 100 : null,
        perSize: [...perSize.values()],
        oversoldPerSize,
        oversoldOverall,
        everySizeSoldOut,
        fiveXx: sizeRounds.reduce((a, r) => a + r.sized.samples.filter((x) => x.status >= 500).length, 0),
        networkErrors: sizeRounds.reduce((a, r) => a + r.sized.networkErrors, 0),
      };
    }
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
      sizes,
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
  const sizeLog = path.join(root, 'bench', 'drop-sizes-runs.md');
  if (figures.some((f) => f.sizes) && !fs.existsSync(sizeLog)) {
    fs.writeFileSync(
      sizeLog,
      '# Drop runs with a size run (appended by bench/drop.bench.ts; ADR 015)\n\n' +
        'One pool against the same edition cut 5/10/15/10/5/5 over XS–XXL (each shopper wants one random size), on the same server, rounds alternating which goes first. Sold out = the last order of the edition.\n\n' +
        '| date | machine | db | shoppers / pieces | rounds (first: pool ms / sizes ms) | median pool ms | median sizes ms | sizes / pool | oversold per size / overall | every size sold out | per size: ordered of pieces (all rounds) | 5xx | net errors | load avg |\n' +
        '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n',
    );
  }
  for (const f of figures) {
    const z = f.sizes;
    if (!z) continue;
    const rounds = z.rounds.map((r) => `${r.first}: ${r.poolMs} / ${r.sizedMs}`).join('; ');
    const perSize = z.perSize.map((c) => `${c.size} ${c.ordered}/${c.pieces}`).join(', ');
    console.log(
      `[${f.kind}] size run: rounds ${rounds}; median sold out: one pool ${z.poolMedianMs} ms, sizes ${z.sizedMedianMs} ms, ratio ${z.ratio}; ` +
        `oversold per size ${z.oversoldPerSize}, overall ${z.oversoldOverall}; every size sold out: ${z.everySizeSoldOut}; ${perSize}; ` +
        `5xx ${z.fiveXx}, network errors ${z.networkErrors}`,
    );
    for (const [i, r] of z.rounds.entries()) console.log(`[${f.kind}] size round ${i + 1} outcomes: ${JSON.stringify(r.sizedOutcomes)}`);
    fs.appendFileSync(
      sizeLog,
      `| ${new Date().toISOString()} | ${machine} | ${f.kind} | ${SHOPPERS} / ${PIECES} | ${rounds} | ${z.poolMedianMs} | ${z.sizedMedianMs} | ${z.ratio} | ${z.oversoldPerSize} / ${z.oversoldOverall} | ${z.everySizeSoldOut ? 'yes' : 'no'} | ${perSize} | ${z.fiveXx} | ${z.networkErrors} | ${os.loadavg()[0]!.toFixed(1)} |\n`,
    );
    const met =
      z.oversoldPerSize === 0 &&
      z.oversoldOverall === 0 &&
      z.everySizeSoldOut &&
      z.fiveXx === 0 &&
      z.networkErrors === 0 &&
      z.ratio !== null &&
      z.ratio <= SIZE_RATIO_GOAL;
    console.log(
      `[${f.kind}] size-run goal (0 oversold per size and overall, every size sold out, sell-out within ${Math.round((SIZE_RATIO_GOAL - 1) * 100)} % of one pool): ${met ? 'MET' : 'MISSED'}`,
    );
    ok &&= met;
  }
  console.log(`\nappended to ${path.relative(root, log)}${figures.some((f) => f.sizes) ? ` and ${path.relative(root, sizeLog)}` : ''}`);
  if (!ok) process.exitCode = 1;
}

await main();
