// A full disk under a production-like shop (docs/operations.md, ADR 007 amendment): DATA_DIR on a small
// tmpfs (DISK_FULL_MB, 384), the compiled server in production mode on the offline gateway, shoppers
// checking out and paying at a steady rate. A filler file takes every free byte for DISK_FULL_S (30) s;
// after DISK_FULL_PANIC_AFTER_S (10) s on the full disk, WAL is written (pg_logical_emit_message: WAL only, no data files) until PostgreSQL needs a new
// WAL segment it cannot create, which is a PANIC; then the filler goes. Measured: 5xx other than 503 (the
// target is 0: 503 + Retry-After instead), /healthz red while full and how fast, the time back to 200 on
// a write once space returns (no one steps in), confirmation mails lost (every order's .eml present,
// none 0-byte), paid intents without an order. Needs root (mount); the mount is always undone.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Scenario } from '../scenario-runner';
import { buildServer, serverEntryOut } from '../../scripts/build-server.mjs';
import { freePort, waitFor } from '../support/server-process';
import { benchEnv, migrateBenchDatabase } from '../support/shop-instances';

const DISK_MB = Number(process.env.DISK_FULL_MB ?? 384);
const FULL_MS = Number(process.env.DISK_FULL_S ?? 30) * 1000;
/** PostgreSQL runs on the full disk this long (orders that fit in existing pages, mails that cannot be written) before the WAL push. */
const PANIC_AFTER_MS = Number(process.env.DISK_FULL_PANIC_AFTER_S ?? 10) * 1000;
const WARM_MS = 10_000;
/** Buying goes on this long after the first write is back, then the shoppers stop. */
const AFTER_MS = 15_000;
/** Reconciliation (every 30 s, checkouts older than 30 s) and the mail retry (back-off up to 60 s) get this long. */
const SETTLE_MS = Number(process.env.DISK_FULL_SETTLE_S ?? 150) * 1000;
const SHOPPERS = 4;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Phase = 'before' | 'full' | 'after';
interface Answer {
  status: number; // 0: no answer (connection refused or reset)
  retryAfter: string | null;
  json: Record<string, unknown>;
}

/** Every answer the shop gave, by phase: the 5xx that are not a 503 with Retry-After are what counts. */
class Tally {
  phase: Phase = 'before';
  readonly counts = new Map<string, number>();
  readonly bad: string[] = [];
  add(method: string, url: string, a: Answer) {
    const key = `${this.phase} ${a.status}${a.status === 503 && !a.retryAfter ? ' (no Retry-After)' : ''}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if ((a.status >= 500 && a.status !== 503) || (a.status === 503 && !a.retryAfter)) {
      if (this.bad.length < 20) this.bad.push(`${this.phase} ${method} ${url.split('?')[0]} → ${a.status} ${JSON.stringify(a.json).slice(0, 160)}`);
    }
  }
  count(pred: (phase: string, status: string) => boolean): number {
    let n = 0;
    for (const [k, v] of this.counts) {
      const [phase, status] = k.split(' ');
      if (pred(phase!, status!)) n += v;
    }
    return n;
  }
  summary(): string {
    return [...this.counts].sort().map(([k, v]) => `${k}: ${v}`).join(', ');
  }
}

/** One shopper's cookie jar; every answer goes into the tally. */
class Shopper {
  private cookies = new Map<string, string>();
  constructor(
    private readonly base: string,
    private readonly tally: Tally,
  ) {}
  async call(method: string, url: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { origin: this.base };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let answer: Answer;
    try {
      const res = await fetch(this.base + url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair!.indexOf('=');
        this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
      }
      const text = await res.text();
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        json = { raw: text.slice(0, 200) };
      }
      answer = { status: res.status, retryAfter: res.headers.get('retry-after'), json };
    } catch (err) {
      answer = { status: 0, retryAfter: null, json: { error: String((err as Error).message) } };
    }
    this.tally.add(method, url, answer);
    return answer;
  }
  /** A polite client: on 503 (or no answer) it waits Retry-After (at most 5 s) and asks again, until `deadline`. */
  async politely(method: string, url: string, body: unknown, deadline: number): Promise<Answer> {
    for (;;) {
      const a = await this.call(method, url, body);
      if ((a.status !== 503 && a.status !== 0) || Date.now() > deadline) return a;
      await sleep(Math.min(Number(a.retryAfter ?? 1) || 1, 5) * 1000);
    }
  }
}

const customerOf = (i: number) => ({
  email: `full${i}@example.com`,
  firstName: 'Bench',
  lastName: 'Shopper',
  phone: null,
  shippingAddress: `${i + 1} Full Disk Road`,
  shippingCity: 'Springfield',
  shippingState: 'IL',
  shippingZip: '62701',
  shippingCountry: 'US',
});

interface Listed {
  id: string;
  stock: number;
  sizes?: string[] | null;
  colors?: Array<{ name: string }> | null;
}

/** One purchase by shopper i, each step asked again politely for up to 60 s: the order number, or null. */
async function buy(base: string, tally: Tally, i: number): Promise<string | null> {
  const s = new Shopper(base, tally);
  const deadline = Date.now() + 60_000;
  const list = await s.politely('GET', '/api/products', undefined, deadline);
  if (list.status !== 200 || !Array.isArray(list.json)) return null;
  const items = list.json as unknown as Listed[];
  const inStock = items.filter((p) => p.stock > 0);
  const p = inStock[i % Math.max(inStock.length, 1)];
  if (!p) return null;
  const cart = { productId: p.id, quantity: 1, selectedSize: p.sizes?.[0] ?? null, selectedColor: p.colors?.[0]?.name ?? null };
  if ((await s.politely('POST', '/api/cart', cart, deadline)).status !== 200) return null;
  if ((await s.politely('POST', '/api/customer-info', customerOf(i), deadline)).status !== 200) return null;
  const intent = await s.politely('POST', '/api/create-payment-intent', {}, deadline);
  if (intent.status !== 200) return null;
  const card = { cardNumber: '4242 4242 4242 4242', expiry: `${String((i % 12) + 1).padStart(2, '0')}/${40 + Math.floor(i / 12)}`, cvc: '123' };
  const paid = await s.politely('POST', '/api/payments/offline/confirm', { clientSecret: intent.json.clientSecret, ...card }, deadline);
  if (paid.status !== 200) return null;
  // Charged: the checkout page keeps asking for the order (reconciliation makes it if the shopper leaves).
  const done = await s.politely('POST', '/api/payment-success', { paymentIntentId: intent.json.paymentIntentId ?? paid.json.id }, deadline);
  return done.status === 200 ? String(done.json.orderNumber) : null;
}

function sh(cmd: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

function freeBytes(dir: string): number {
  const s = fs.statfsSync(dir);
  return s.bavail * s.bsize;
}

function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** The cluster's superuser, over its Unix socket (the password file sits beside the cluster). */
function superuser(dataDir: string): pg.Client {
  const dir = path.join(dataDir, 'postgres');
  const password = fs.readFileSync(path.join(dir, 'password'), 'utf8').trim();
  const client = new pg.Client({
    connectionString: `postgres://fifty:${encodeURIComponent(password)}@localhost/fifty?host=${encodeURIComponent(dir)}`,
    connectionTimeoutMillis: 5_000,
  });
  client.on('error', () => undefined);
  return client;
}

/** Time series of one probe: when it answered what. */
type Series = Array<{ at: number; status: number }>;

async function probeLoop(series: Series, everyMs: number, stopped: () => boolean, probe: () => Promise<number>) {
  while (!stopped()) {
    const at = Date.now();
    series.push({ at, status: await probe() });
    await sleep(Math.max(0, everyMs - (Date.now() - at)));
  }
}

const scenario: Scenario = async () => {
  if (process.getuid?.() !== 0) throw new Error('disk-full needs root: it mounts a tmpfs for DATA_DIR');
  const mountDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-bench-diskfull-'));
  const logFile = path.join(os.tmpdir(), `fifty-bench-diskfull-${process.pid}.log`);
  let mounted = false;
  let shop: ChildProcess | null = null;
  let su: pg.Client | null = null;
  try {
    const m = sh('mount', ['-t', 'tmpfs', '-o', `size=${DISK_MB}m,mode=0700`, 'tmpfs', mountDir]);
    if (!m.ok) throw new Error(`mount -t tmpfs failed: ${m.out}`);
    mounted = true;
    const dataDir = mountDir;
    const env = benchEnv(dataDir, undefined, { RATE_LIMITS: 'off', LOG_LEVEL: 'warn' });
    migrateBenchDatabase(env);
    await buildServer();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const log = fs.openSync(logFile, 'w');
    shop = spawn(process.execPath, [serverEntryOut], {
      cwd: path.resolve(path.dirname(serverEntryOut), '..', '..'),
      env: { ...env, PORT: String(port), PUBLIC_URL: base },
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    const exited = new Promise<number | null>((resolve) => shop!.once('exit', (code) => resolve(code)));
    await waitFor(`${base}/healthz`, shop, 120_000);
    console.log(`shop up on a ${DISK_MB} MB tmpfs: ${Math.round(freeBytes(dataDir) / 2 ** 20)} MB free; its log: ${logFile}`);

    const tally = new Tally();
    let stopBuying = false;
    let stopProbes = false;
    const told: string[] = [];
    let n = 0;
    const buyers = Array.from({ length: SHOPPERS }, async () => {
      while (!stopBuying) {
        const order = await buy(base, tally, n++);
        if (order) told.push(order);
        await sleep(500);
      }
    });
    const health: Series = [];
    const writes: Series = [];
    const writer = new Shopper(base, tally);
    const probes = [
      probeLoop(health, 250, () => stopProbes, async () =>
        fetch(`${base}/healthz`, { signal: AbortSignal.timeout(3_000) }).then((r) => r.status, () => 0),
      ),
      probeLoop(writes, 200, () => stopProbes, async () => (await writer.call('POST', '/api/customer-info', customerOf(100_000))).status),
    ];

    await sleep(WARM_MS);
    const ordersBefore = told.length;
    su = superuser(dataDir);
    await su.connect();
    const pidBefore = postmasterPid(dataDir);

    // Fill: one preallocated file of nearly everything free, then the last pages with dd until ENOSPC.
    tally.phase = 'full';
    const filledAt = Date.now();
    const fill = sh('fallocate', ['-l', String(Math.max(freeBytes(dataDir) - 2 ** 20, 4096)), path.join(dataDir, 'filler')]);
    sh('dd', ['if=/dev/zero', `of=${path.join(dataDir, 'filler-rest')}`, 'bs=4096']);
    const leftAfterFill = freeBytes(dataDir);
    console.log(`filled in ${Date.now() - filledAt} ms (fallocate ${fill.ok ? 'ok' : fill.out}); ${leftAfterFill} bytes left`);

    await sleep(Math.max(0, filledAt + PANIC_AFTER_MS - Date.now()));
    // WAL only (no data file grows) until PostgreSQL needs a segment it cannot create: the PANIC.
    let walMb = 0;
    let walEnd = 'no error after 512 MB';
    for (; walMb < 512; walMb++) {
      try {
        await su.query(`select pg_logical_emit_message(false, 'bench-disk-full', repeat('x', 1048576))`);
      } catch (err) {
        walEnd = `${(err as { code?: string }).code ?? ''} ${(err as Error).message}`.trim();
        break;
      }
    }
    const walEndedAt = Date.now();
    await su.end().catch(() => undefined);
    su = null;
    await sleep(1_000);
    const pidAfterPanic = postmasterPid(dataDir);
    console.log(`WAL written from +${PANIC_AFTER_MS} ms: ${walMb} MB, then "${walEnd}" at +${walEndedAt - filledAt} ms; postmaster ${pidBefore} → ${pidAfterPanic ?? 'gone'}`);

    await sleep(Math.max(0, filledAt + FULL_MS - Date.now()));
    fs.rmSync(path.join(dataDir, 'filler'), { force: true });
    fs.rmSync(path.join(dataDir, 'filler-rest'), { force: true });
    const freedAt = Date.now();
    tally.phase = 'after';
    console.log(`space back after ${freedAt - filledAt} ms: ${Math.round(freeBytes(dataDir) / 2 ** 20)} MB free`);

    // Back to 200 on a write: the first 200 after the space came back, with nothing failing after it.
    const recoverDeadline = freedAt + 60_000;
    let writeBackAt: number | null = null;
    while (Date.now() < recoverDeadline) {
      const lastBad = writes.findLast((w) => w.status !== 200);
      const firstGood = writes.find((w) => w.at >= freedAt && w.status === 200 && (!lastBad || w.at > lastBad.at));
      if (firstGood && Date.now() - firstGood.at > 3_000) {
        writeBackAt = firstGood.at;
        break;
      }
      await sleep(250);
    }
    await sleep(AFTER_MS);
    stopBuying = true;
    await Promise.all(buyers);
    const healthyAgainAt = health.find((h) => h.at >= freedAt && h.status === 200)?.at ?? null;
    stopProbes = true;
    await Promise.all(probes);

    // /healthz while full: the first red answer after the fill, and how much of the full window was red.
    const fullWindow = health.filter((h) => h.at >= filledAt && h.at < freedAt);
    const firstRed = fullWindow.find((h) => h.status !== 200);
    const redShare = fullWindow.filter((h) => h.status !== 200).length / Math.max(fullWindow.length, 1);
    const writesFailedFrom = writes.find((w) => w.at >= filledAt && w.status !== 200)?.at ?? null;

    // Settle: every paid intent has its order (or refund), every order its confirmation mail.
    const outbox = path.join(dataDir, 'outbox');
    let orphans = -1;
    let missingMail: string[] = [];
    let emptyEml = 0;
    let orders = 0;
    let settledAt: number | null = null;
    const settleDeadline = Date.now() + SETTLE_MS;
    while (Date.now() < settleDeadline) {
      const c = superuser(dataDir);
      try {
        await c.connect();
        orphans = (
          await c.query<{ n: number }>(
            `select count(*)::int as n from offline_payment_intents i
              where i.status = 'succeeded' and i.refunded_amount = 0
                and not exists (select 1 from orders o where o.stripe_payment_intent_id = i.id)`,
          )
        ).rows[0]!.n;
        const numbers = (await c.query<{ order_number: string }>('select order_number from orders')).rows.map((r) => r.order_number);
        orders = numbers.length;
        const emls = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
        const texts = emls.map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'));
        emptyEml = texts.filter((t) => t.length === 0).length;
        const all = texts.join('\n');
        missingMail = numbers.filter((num) => !all.includes(`order ${num} confirmed`));
      } catch {
        // the database still coming back: asked again
      } finally {
        await c.end().catch(() => undefined);
      }
      if (orphans === 0 && missingMail.length === 0 && orders > 0) {
        settledAt = Date.now();
        break;
      }
      await sleep(2_000);
    }
    const queued = fs.existsSync(path.join(dataDir, 'mail-queue')) ? fs.readdirSync(path.join(dataDir, 'mail-queue')).filter((f) => f.endsWith('.json')).length : 0;
    const c = superuser(dataDir);
    await c.connect();
    const found = (await c.query<{ n: number }>('select count(*)::int as n from orders where order_number = any($1)', [told])).rows[0]!.n;
    await c.end();

    const running = shop.exitCode === null;
    const pidAfter = postmasterPid(dataDir);
    // What PostgreSQL said (what it could still write of it) and what the shop kept, for the record.
    const pgLog = fs.readFileSync(path.join(dataDir, 'postgres', 'postgres.log'), 'utf8').split('\n');
    const panics = pgLog.filter((l) => / PANIC: /.test(l));
    const noSpace = pgLog.filter((l) => /No space left/.test(l) && !/ PANIC: /.test(l));
    const firstOf = (re: RegExp) => noSpace.find((l) => re.test(l));
    console.log(
      `postgres.log: ${panics.length} PANIC, ${noSpace.length} other "No space left" lines:\n  ` +
        [...panics.slice(0, 4), firstOf(/ ERROR: /), firstOf(/ FATAL: /)].filter(Boolean).join('\n  '),
    );
    const shopLog = fs.readFileSync(logFile, 'utf8');
    const mailsKept = shopLog.split('mail not sent now: kept for a retry').length - 1;
    shop.kill('SIGTERM');
    const exitCode = await Promise.race([exited, sleep(30_000).then(() => 'timeout' as const)]);

    const served500 = tally.count((_, s) => s.startsWith('5') && s !== '503');
    const no503RetryAfter = [...tally.counts].filter(([k]) => k.includes('no Retry-After')).reduce((a, [, v]) => a + v, 0);
    const recoveryMs = writeBackAt === null ? null : writeBackAt - freedAt;
    console.log(`answers: ${tally.summary()}`);
    if (tally.bad.length) console.log(`bad answers (first ${tally.bad.length}):\n  ${tally.bad.join('\n  ')}`);
    console.log(
      `orders: ${orders} in all (${ordersBefore} before the fill, ${told.length} told to shoppers, ${told.length - found} of those missing); ` +
        `writes failing from +${writesFailedFrom === null ? '-' : writesFailedFrom - filledAt} ms; /healthz 200 again +${healthyAgainAt === null ? '-' : healthyAgainAt - freedAt} ms after the space; ` +
        `mails kept for a retry ${mailsKept}; settled ${settledAt === null ? 'NOT within the wait' : `${Math.round((settledAt - freedAt) / 1000)} s after the space`}; mail queue left ${queued}; ` +
        `shop ${running ? 'kept running' : 'EXITED'}, SIGTERM → ${String(exitCode)}`,
    );
    return {
      rows: [
        { what: '5xx other than 503 (all phases)', target: '0', measured: String(served500), ok: served500 === 0 },
        { what: '503 without Retry-After', target: '0', measured: String(no503RetryAfter), ok: no503RetryAfter === 0 },
        {
          what: '/healthz red while full (first red after the fill; share of probes red)',
          target: 'yes',
          measured: firstRed ? `yes, +${firstRed.at - filledAt} ms; ${Math.round(redShare * 100)} % of ${fullWindow.length}` : 'NO',
          ok: !!firstRed && redShare >= 0.9,
        },
        { what: 'PostgreSQL needed a WAL segment on the full disk (PANIC expected)', target: 'crashed, restarted by the shop', measured: `${walMb} MB of WAL, then "${walEnd.slice(0, 80)}"; ${panics.length} PANIC lines in postgres.log (it is on the full disk); postmaster ${pidBefore} → ${pidAfterPanic ?? 'gone'} → ${pidAfter ?? 'gone'}`, ok: pidAfter !== null && pidAfter !== pidBefore },
        { what: 'space back → first 200 on a write (no one steps in)', target: '≤ 10 s', measured: recoveryMs === null ? 'not within 60 s' : `${recoveryMs} ms`, ok: recoveryMs !== null && recoveryMs <= 10_000 },
        { what: 'orders without their confirmation .eml / 0-byte .eml', target: '0 / 0', measured: `${missingMail.length} of ${orders} (${mailsKept} kept for a retry) / ${emptyEml}`, ok: missingMail.length === 0 && emptyEml === 0 && orders > 0 },
        { what: 'paid intents without an order (after reconciliation)', target: '0', measured: String(orphans), ok: orphans === 0 },
        { what: 'orders told to shoppers missing from the database', target: '0', measured: `${told.length - found} of ${told.length}`, ok: told.length === found },
      ],
    };
  } finally {
    await su?.end().catch(() => undefined);
    if (shop && shop.exitCode === null) {
      shop.kill('SIGTERM');
      for (let i = 0; i < 100 && shop.exitCode === null; i++) await sleep(200);
      if (shop.exitCode === null) shop.kill('SIGKILL');
    }
    // A postmaster left behind (the shop killed) would keep the mount busy.
    const pid = postmasterPid(mountDir);
    if (pid) {
      process.kill(pid, 'SIGQUIT');
      for (let i = 0; i < 50 && postmasterPid(mountDir); i++) await sleep(200);
      if (postmasterPid(mountDir)) process.kill(pid, 'SIGKILL');
    }
    if (mounted) {
      let u = sh('umount', [mountDir]);
      for (let i = 0; !u.ok && i < 10; i++) {
        await sleep(500);
        u = sh('umount', [mountDir]);
      }
      if (!u.ok) u = sh('umount', ['-l', mountDir]);
      if (!u.ok) console.error(`could not unmount ${mountDir}: ${u.out}`);
    }
    try {
      fs.rmSync(mountDir, { recursive: true, force: true });
    } catch (err) {
      console.error(`could not remove ${mountDir}: ${(err as Error).message}`);
    }
  }
};
export default scenario;
