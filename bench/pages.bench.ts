// Server-rendered pages with a 100-product catalogue: GET /, /product/:id and /category/tshirts from
// the shop next to a plain node:http server sending the same bytes, in one run.
//   npx tsx bench/pages.bench.ts                       (10 s x 50 connections per target, in 5 turns)
//   BENCH_DURATION=3 BENCH_ROUNDS=1 npx tsx bench/pages.bench.ts   (quick look)
//   BENCH_CLIENT_DIR=/path/to/built/client            (a built storefront; default dist/client, built when stale)
// The shop is started as `npm start` starts it (scripts/start.mjs: compiled server, embedded PostgreSQL in a
// temporary DATA_DIR, demo catalogue), grown to BENCH_PRODUCTS products through the admin API. Each
// server runs in its own process; autocannon runs here. Results are printed and appended to bench/pages-runs.md.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { growCatalogueOverApi } from '../tests/support/grow-catalogue-api';
import { freePort, rssMb, stop, waitFor } from './support/server-process';
import { measureInTurns, type Figures } from './support/turns';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const productCount = Number(process.env.BENCH_PRODUCTS ?? 100);
const ADMIN_PASSWORD = 'bench-admin-password';
const GOAL = 80;

// The same bytes for each path, with a content type and length: the ceiling of Node's HTTP stack.
const PLAIN_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const bodies = new Map(JSON.parse(fs.readFileSync(process.env.BODIES_FILE, 'utf8')).map(([p, f]) => [p, fs.readFileSync(f)]));
http.createServer((req, res) => {
  const body = bodies.get(req.url);
  if (!body) { res.writeHead(404); return res.end(); }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

/** Bytes on the wire for a browser's request (fetch would decode them). */
function brotliBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'br' } }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
      })
      .on('error', reject);
  });
}

const row = (f: Figures) => ({
  'req/s': f.rps,
  'median turn req/s': f.rpsMedian,
  'p50 ms': f.p50,
  'p99 ms': f.p99,
  'MB/s': f.mbps,
  'CPU µs/req': f.cpuUsPerReq ?? 'n/a',
  non2xx: f.non2xx,
  errors: f.errors,
});

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-bench-pages-'));
  const children: ChildProcess[] = [];
  try {
    const [shopPort, plainPort] = [await freePort(), await freePort()];
    const shopBase = `http://127.0.0.1:${shopPort}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(shopPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      // Production refuses test payments and a missing PUBLIC_URL unless told: the bench uses both on purpose.
      PAYMENTS: 'offline',
      PUBLIC_URL: shopBase,
      DEMO_DATA: 'true',
      ADMIN_PASSWORD,
    };
    delete env.DATABASE_URL;
    // start.mjs rebuilds the storefront there (and the server) when their sources are newer.
    if (process.env.BENCH_CLIENT_DIR) env.CLIENT_DIR = path.resolve(process.env.BENCH_CLIENT_DIR);
    const shop = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(shop);
    await waitFor(`${shopBase}/healthz`, shop, 300_000);
    const products = await growCatalogueOverApi(shopBase, ADMIN_PASSWORD, productCount);
    const list = (await (await fetch(`${shopBase}/api/products`)).json()) as Array<{ id: string }>;
    const paths = ['/', `/product/${list[0]!.id}`, '/category/tshirts'];

    // What the shop sends a client that asks for no compression, fetched once per path.
    const bodies: Array<[string, string]> = [];
    const sizes: Record<string, { html: number; br: number }> = {};
    for (const [i, p] of paths.entries()) {
      const res = await fetch(`${shopBase}${p}`, { headers: { 'accept-encoding': 'identity' } });
      if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
      const body = Buffer.from(await res.arrayBuffer());
      if (!body.includes('<fieldset id="root"'))
        throw new Error(`${p} is not server-rendered: is the client built?`);
      const file = path.join(dataDir, `page-${i}.html`);
      fs.writeFileSync(file, body);
      bodies.push([p, file]);
      const br = await brotliBytes(`${shopBase}${p}`);
      sizes[p] = { html: body.length, br };
    }
    const bodiesFile = path.join(dataDir, 'bodies.json');
    fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
    const plain = spawn(process.execPath, ['-e', PLAIN_SERVER], {
      env: { ...process.env, PORT: String(plainPort), BODIES_FILE: bodiesFile },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(plain);
    const plainBase = `http://127.0.0.1:${plainPort}`;
    await waitFor(`${plainBase}/`, plain);
    for (const [p, file] of bodies) {
      const got = Buffer.from(await (await fetch(`${plainBase}${p}`)).arrayBuffer());
      if (!got.equals(fs.readFileSync(file)))
        throw new Error(`the plain server does not send the same bytes for ${p}`);
    }

    const rssIdle = rssMb(shop.pid!);
    // Per path: the shop, the plain server, and the shop as browsers ask for it (brotli).
    const targets = paths.flatMap((p) => [
      { name: `shop ${p}`, url: `${shopBase}${p}`, pid: shop.pid! },
      { name: `plain ${p}`, url: `${plainBase}${p}`, pid: plain.pid! },
      {
        name: `shop br ${p}`,
        url: `${shopBase}${p}`,
        pid: shop.pid!,
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      },
    ]);
    const figures = await measureInTurns(targets, { seconds: duration, rounds, connections });
    const rssAfter = rssMb(shop.pid!);

    const cpus = os.cpus();
    const machine = `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, ${os.platform()}`;
    console.log(
      `\n${products} products, ${connections} connections, ${duration} s per target in ${rounds} turn(s); ${machine}`,
    );
    console.table(Object.fromEntries(targets.map((t, i) => [t.name, row(figures[i]!)])));
    const lines: string[] = [];
    let ok = true;
    for (const [i, p] of paths.entries()) {
      const [shopF, plainF, brF] = [figures[i * 3]!, figures[i * 3 + 1]!, figures[i * 3 + 2]!];
      const ratio = Math.round((shopF.rpsMedian / plainF.rpsMedian) * 1000) / 10;
      const label = p.startsWith('/product/') ? '/product/:id' : p;
      if (ratio < GOAL || shopF.non2xx || shopF.errors || brF.non2xx || brF.errors) ok = false;
      console.log(
        `${label}: shop ${shopF.rpsMedian} req/s vs plain ${plainF.rpsMedian} → ${ratio} % (goal ${GOAL} %); br ${brF.rpsMedian} req/s; ${sizes[p]!.html} B HTML, ${sizes[p]!.br} B brotli`,
      );
      lines.push(
        `| ${new Date().toISOString()} | ${machine} | ${products} | ${label} | ${sizes[p]!.html} / ${sizes[p]!.br} | ${connections} x ${duration} | ${shopF.rpsMedian} | ${shopF.p50} / ${shopF.p99} | ${plainF.rpsMedian} | ${plainF.p50} / ${plainF.p99} | ${ratio} % | ${shopF.cpuUsPerReq ?? 'n/a'} / ${plainF.cpuUsPerReq ?? 'n/a'} | ${brF.rpsMedian} | ${rssIdle} / ${rssAfter} |`,
      );
    }
    console.log(`shop RSS: ${rssIdle} MB before load, ${rssAfter} MB after`);

    const log = path.join(root, 'bench', 'pages-runs.md');
    if (!fs.existsSync(log)) {
      fs.writeFileSync(
        log,
        '# Page runs (appended by bench/pages.bench.ts)\n\n' +
          '| date | machine | products | path | HTML / brotli bytes | conns x s | shop req/s | shop p50 / p99 ms | plain req/s | plain p50 / p99 ms | shop / plain | CPU µs/req shop / plain | shop br req/s | shop RSS MB (idle / after) |\n' +
          '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n',
      );
    }
    fs.appendFileSync(log, `${lines.join('\n')}\n`);
    console.log(`appended to ${path.relative(root, log)}`);
    if (!ok) process.exitCode = 1;
  } finally {
    await Promise.all(children.map((child) => stop(child, 10_000)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
