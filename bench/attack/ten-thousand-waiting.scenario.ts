// Ten thousand waiting (docs/security.md, "Streams"): one drop, one box, the embedded database and default
// settings (POW_TRIES and RATE_LIMIT_ADDRESS_FACTOR lowered/raised only to make the crowd quickly, as
// bench/drop-bots.bench.ts does). WAITING shoppers, each from its own address, take a place after the
// release (first come, first served) while the drop is paused: the first HTTP_JOINS through the real join
// (proof of work, POST /queue), the rest written straight into the shop's database (a session and a
// place each, as the join writes them: the join is not what is measured here, and 10,000 proofs of work
// through one loaded box took 441 s). Every one then opens the waiting room's event stream, a real HTTP
// connection from this process, 1,000 at a time, the shop's RSS read after each 1,000. Then, for MEASURE_S
// seconds, admission runs at the default 300 a minute, the admitted shoppers buy (pass, cart, details,
// payment), and one address sends 100 status reads a second.
// Measured: the delay from a position change (the admission ahead of a shopper, its admitted_at in the
// database) to the event carrying the new position, on a sample of streams (every 50th); the admitted
// shoppers' buy flow; the shop's RSS.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import crypto from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client';
import { dropQueue } from '../../server/modules/drops/drops.tables';
import { sessions } from '../../server/modules/session/session.tables';
import { SESSION_COOKIE } from '../../server/lib/cookies';
import { createCookieSigners } from '../../server/plugins/session';
import { solvePow } from '../../tests/support/pow';
import type { Scenario } from '../scenario-runner';
import { rssMb, stop } from '../support/server-process';
import { percentile } from '../support/stats';
import { benchEnv, migrateBenchDatabase, startShopInstances } from '../support/shop-instances';

const WAITING = Number(process.env.TEN_K_WAITING ?? 10_000);
const MEASURE_S = Number(process.env.TEN_K_MEASURE_S ?? 60);
const JOIN_CONCURRENCY = 20;
const SAMPLE_EVERY = 50;
const BUYERS = 300;
/** Places taken through the real join; the rest are written into the database (see above). */
const HTTP_JOINS = Math.min(WAITING, BUYERS + 50);
const STREAM_BATCH = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const addressOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

interface Seen {
  at: number;
  position: number | null;
  status: string | null;
}

const scenario: Scenario = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-ten-k-'));
  const servers: ChildProcess[] = [];
  const sockets: http.ClientRequest[] = [];
  try {
    const env = benchEnv(dataDir, undefined, { POW_TRIES: '20', RATE_LIMIT_ADDRESS_FACTOR: '100' });
    migrateBenchDatabase(env);
    // TEN_K_HEAP_SNAPSHOT=<dir>: the shop writes a heap snapshot there once the streams are open (where the memory goes).
    const snapshotDir = process.env.TEN_K_HEAP_SNAPSHOT;
    const [base] = await startShopInstances(env, 1, servers, snapshotDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshotDir}`] : []);
    const pid = servers[0]!.pid!;
    const host = new URL(base!);

    const call = async (method: string, pathname: string, ip: string, cookie: string, body?: unknown) => {
      const res = await fetch(base + pathname, {
        method,
        headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
      const text = await res.text();
      return { status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown>, set };
    };

    const owner = await call('POST', '/api/admin/login', '127.0.0.1', '', { password: env.ADMIN_PASSWORD });
    const ownerCookie = owner.set.join('; ');
    const created = await call('POST', '/api/admin/products', '127.0.0.1', ownerCookie, {
      name: 'Drop 004 Coat',
      description: 'A numbered coat.',
      price: '150.00',
      category: 'hoodies',
      materials: 'Wool',
      sustainabilityInfo: 'Made to order.',
      stock: BUYERS,
      editionSize: BUYERS,
      images: [],
      sizes: [],
      colors: [],
      releaseAt: new Date(Date.now() + 3000).toISOString(),
    });
    if (created.status !== 201) throw new Error(`create product ${created.status}: ${JSON.stringify(created.json)}`);
    const id = created.json.id as string;
    // Paused while the crowd gathers (nobody let in yet), resumed when the measurement starts.
    const pause = (paused: boolean) => call('PATCH', `/api/admin/drops/${id}`, '127.0.0.1', ownerCookie, { paused });
    if ((await pause(true)).status !== 200) throw new Error('pause the drop');
    await sleep(3500);

    // The crowd: join (proof of work), then keep the stream open.
    const seen = new Map<number, Seen[]>();
    const ticketOf = new Map<number, string>();
    const cookies = new Map<number, string>();
    const admittedAt = new Map<number, number>();
    const onAdmitted: Array<(n: number) => void> = [];
    const streamStatus: Record<string, number> = {};
    const follow = (n: number, cookie: string) =>
      new Promise<void>((started) => {
      const parse = n < BUYERS + 50 || n % SAMPLE_EVERY === 0;
      const req = http.get(
        { host: host.hostname, port: host.port, path: `/api/drops/${id}/events`, headers: { cookie, 'x-forwarded-for': addressOf(n) }, agent: false },
        (res) => {
          streamStatus[res.statusCode ?? 0] = (streamStatus[res.statusCode ?? 0] ?? 0) + 1;
          started();
          if (!parse) return void res.resume();
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const data = block.split('\n').find((l) => l.startsWith('data: '));
              if (!data) continue;
              const s = JSON.parse(data.slice(6)) as { ticket: { position: number | null; status: string } | null };
              const list = seen.get(n) ?? [];
              list.push({ at: Date.now(), position: s.ticket?.position ?? null, status: s.ticket?.status ?? null });
              seen.set(n, list);
              if (s.ticket?.status === 'admitted' && !admittedAt.has(n)) {
                admittedAt.set(n, Date.now());
                for (const f of onAdmitted) f(n);
              }
            }
          });
          res.on('error', () => undefined);
        },
      );
      req.on('error', () => {
        streamStatus.error = (streamStatus.error ?? 0) + 1;
        started();
      });
      sockets.push(req);
      });

    let joined = 0;
    let refused = 0;
    const joinStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: JOIN_CONCURRENCY }, async () => {
        while (next < HTTP_JOINS) {
          const n = next++;
          const ip = addressOf(n);
          const challenge = await call('GET', '/api/pow-challenge', ip, '');
          const altcha = await solvePow(challenge.json as never);
          const res = await call('POST', `/api/drops/${id}/queue`, ip, '', { altcha });
          if (res.status !== 201) {
            refused++;
            continue;
          }
          joined++;
          const cookie = res.set.join('; ');
          cookies.set(n, cookie);
          ticketOf.set(n, (res.json.ticket as { id: string }).id);
        }
      }),
    );
    // The rest of the crowd, in arrival order, written as the join writes it: a session (its signed
    // cookie made with the shop's secret) and a first-come place.
    const signers = createCookieSigners(env.SESSION_SECRET!);
    const seed = await openDatabase({ dataDir, poolSize: 2, embeddedMode: 'shared' });
    try {
      for (let from = HTTP_JOINS; from < WAITING; from += STREAM_BATCH) {
        const batch = Array.from({ length: Math.min(STREAM_BATCH, WAITING - from) }, (_, i) => ({ n: from + i, sid: crypto.randomBytes(24).toString('base64url') }));
        await seed.db.insert(sessions).values(batch.map((b) => ({ sid: b.sid, sess: {}, expire: new Date(Date.now() + 86_400_000) })));
        const rows = await seed.db
          .insert(dropQueue)
          .values(batch.map((b) => ({ productId: id, sessionId: b.sid, addressKey: `bench-${b.n}`, raffle: false, lotteryKey: Math.random() })))
          .returning({ id: dropQueue.id, sessionId: dropQueue.sessionId });
        const ticketBySid = new Map(rows.map((r) => [r.sessionId, r.id]));
        for (const b of batch) {
          cookies.set(b.n, `${SESSION_COOKIE}=${encodeURIComponent(signers.sign(SESSION_COOKIE, b.sid))}`);
          ticketOf.set(b.n, ticketBySid.get(b.sid)!);
          joined++;
        }
      }
    } finally {
      await seed.close();
    }
    const joinS = (performance.now() - joinStarted) / 1000;
    const rssJoined = rssMb(pid);

    // The streams, 1,000 at a time: the shop's RSS after each 1,000 (settled a moment).
    const streamsStarted = performance.now();
    const rssSteps: number[] = [];
    const order = [...cookies.keys()].sort((a, b) => a - b);
    for (let from = 0; from < order.length; from += STREAM_BATCH) {
      await Promise.all(order.slice(from, from + STREAM_BATCH).map((n) => follow(n, cookies.get(n)!)));
      await sleep(1500);
      rssSteps.push(rssMb(pid));
    }
    const streamS = (performance.now() - streamsStarted) / 1000;
    if (snapshotDir) {
      const before = new Set(fs.readdirSync(snapshotDir));
      process.kill(pid, 'SIGUSR2');
      // Written when its size stops changing.
      let size = -1;
      for (;;) {
        await sleep(2000);
        const file = fs.readdirSync(snapshotDir).find((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
        const now = file ? fs.statSync(path.join(snapshotDir, file)).size : -1;
        if (file && now === size && now > 0) break;
        size = now;
      }
    }
    const perThousand = rssSteps.length > 1 ? (rssSteps.at(-1)! - rssSteps[0]!) / (rssSteps.length - 1) : 0;

    // Measure: buyers buy when let in; one address reads the status 100 times a second; RSS sampled.
    const buyMs: number[] = [];
    const buyFailures: Record<string, number> = {};
    const buying: Array<Promise<void>> = [];
    const measureFrom = Date.now();
    if ((await pause(false)).status !== 200) throw new Error('resume the drop');
    onAdmitted.push((n) => {
      if (Date.now() < measureFrom) return;
      buying.push(
        (async () => {
          const ip = addressOf(n);
          let cookie = cookies.get(n)!;
          const started = performance.now();
          const steps: Array<[string, string, unknown]> = [
            ['POST', `/api/drops/${id}/pass`, undefined],
            ['POST', '/api/cart', { productId: id, quantity: 1 }],
            ['POST', '/api/customer-info', { email: `w${n}@example.com`, firstName: 'Wait', lastName: `N${n}`, shippingAddress: `${n} Queue Street`, shippingCity: 'Springfield', shippingState: 'IL', shippingZip: '62701', shippingCountry: 'US' }],
            ['POST', '/api/create-payment-intent', {}],
          ];
          let intent: Record<string, unknown> = {};
          for (const [method, p, body] of steps) {
            const r = await call(method, p, ip, cookie, body);
            if (r.set.length) cookie = [...new Map([...cookie.split('; '), ...r.set].map((c) => [c.split('=')[0], c])).values()].join('; ');
            if (r.status !== 200) {
              buyFailures[`${p} ${r.status}`] = (buyFailures[`${p} ${r.status}`] ?? 0) + 1;
              return;
            }
            intent = r.json;
          }
          const confirm = await call('POST', '/api/payments/offline/confirm', ip, cookie, { clientSecret: intent.clientSecret, cardNumber: ['4242 4242 4242 4242', '5555 5555 5555 4444', '4000 0566 5566 5556', '6011 1111 1111 1117'][n % 4], expiry: `${String((n % 12) + 1).padStart(2, '0')}/${40 + (Math.floor(n / 12) % 50)}`, cvc: String(100 + (Math.floor(n / 600) % 900)) });
          const done = await call('POST', '/api/payment-success', ip, cookie, { paymentIntentId: intent.paymentIntentId });
          if (confirm.status !== 200 || done.status !== 200) {
            buyFailures[`pay ${confirm.status}/${done.status}`] = (buyFailures[`pay ${confirm.status}/${done.status}`] ?? 0) + 1;
            return;
          }
          buyMs.push(performance.now() - started);
        })().catch((err: unknown) => {
          buyFailures[(err as Error).message] = (buyFailures[(err as Error).message] ?? 0) + 1;
        }),
      );
    });
    const reads: Record<number, number> = {};
    const rss: number[] = [];
    const until = Date.now() + MEASURE_S * 1000;
    const reader = (async () => {
      while (Date.now() < until) {
        const tickStart = Date.now();
        await Promise.all(
          Array.from({ length: 10 }, async () => {
            const r = await fetch(`${base}/api/drops/${id}`, { headers: { 'x-forwarded-for': '203.0.113.50' } });
            await r.arrayBuffer();
            reads[r.status] = (reads[r.status] ?? 0) + 1;
          }),
        );
        await sleep(Math.max(0, 100 - (Date.now() - tickStart)));
      }
    })();
    while (Date.now() < until) {
      rss.push(rssMb(pid));
      await sleep(1000);
    }
    await reader;
    await Promise.all(buying);
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => stop(s, 15_000)));
    servers.length = 0;

    // Position delays: a waiting shopper of place R seeing position q has seen the (R − q)-th admission;
    // it happened at the (R − q)-th smallest admitted_at.
    const check = await openDatabase({ dataDir, poolSize: 2, embeddedMode: 'shared' });
    const rows = await check.db
      .select({ id: dropQueue.id, seq: dropQueue.seq, admittedAt: dropQueue.admittedAt })
      .from(dropQueue)
      .where(eq(dropQueue.productId, id))
      .orderBy(asc(dropQueue.seq));
    await check.close();
    const placeOf = new Map(rows.map((r, i) => [r.id, i + 1]));
    const admissions = rows
      .filter((r) => r.admittedAt)
      .map((r) => r.admittedAt!.getTime())
      .sort((a, b) => a - b);
    const delays: number[] = [];
    for (const [n, list] of seen) {
      if (n % SAMPLE_EVERY !== 0) continue;
      const place = placeOf.get(ticketOf.get(n)!);
      if (!place) continue;
      let last: number | null = null;
      for (const e of list) {
        if (e.position === null || e.position === last) continue;
        const k = place - e.position;
        if (last !== null && k >= 1 && k <= admissions.length && admissions[k - 1]! >= measureFrom) delays.push(e.at - admissions[k - 1]!);
        last = e.position;
      }
    }
    delays.sort((a, b) => a - b);
    buyMs.sort((a, b) => a - b);
    const maxRss = Math.max(...rss);
    const p99Delay = percentile(delays, 99);
    const p99Buy = percentile(buyMs, 99);
    return {
      rows: [
        { what: `shoppers waiting (${HTTP_JOINS} joined through HTTP, the rest written, in ${joinS.toFixed(0)} s; refused ${refused})`, target: `${WAITING.toLocaleString('en')}`, measured: `${joined.toLocaleString('en')}`, ok: joined >= WAITING * 0.99 },
        { what: `event streams opened (in ${streamS.toFixed(0)} s)`, target: `${WAITING.toLocaleString('en')} × 200`, measured: JSON.stringify(streamStatus), ok: (streamStatus['200'] ?? 0) >= WAITING * 0.99 },
        { what: `shop RSS: crowd in the database ${rssJoined} MB; after each ${STREAM_BATCH.toLocaleString('en')} streams`, target: 'grows little per stream', measured: `${rssSteps.join(' → ')} MB (${perThousand.toFixed(0)} MB per 1,000 streams)`, ok: true },
        { what: `position change → event, sample of ${[...seen.keys()].filter((n) => n % SAMPLE_EVERY === 0).length} streams (${delays.length} changes)`, target: 'p99 ≤ 1,000 ms', measured: `p50 ${percentile(delays, 50)} / p99 ${p99Delay} / max ${delays.at(-1) ?? 0} ms`, ok: delays.length > 0 && p99Delay <= 1000 },
        { what: `admitted shoppers' buy flow (${buyMs.length} orders; failures ${JSON.stringify(buyFailures)})`, target: 'p99 ≤ 500 ms', measured: `p50 ${percentile(buyMs, 50)} / p99 ${p99Buy} ms`, ok: buyMs.length > 0 && p99Buy <= 500 },
        { what: '100 status reads/s from one address', target: 'answered (200 or 429)', measured: JSON.stringify(reads), ok: Object.keys(reads).every((s) => s === '200' || s === '429') },
        { what: 'shop RSS while 10,000 wait', target: '≤ 400 MB', measured: `max ${maxRss} MB`, ok: maxRss <= 400 },
      ],
    };
  } finally {
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => stop(s, 15_000)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

export default scenario;
