// GET /api/products: the shop next to a plain node:http server sending the same bytes, in one run.
//   npx tsx bench/products.bench.ts                     (10 s x 50 connections per server, in 5 turns)
//   BENCH_ROUNDS=1 npx tsx bench/products.bench.ts      (one uninterrupted 10 s run per server)
//   BENCH_DURATION=3 npx tsx bench/products.bench.ts    (quick look)
//   BENCH_PRODUCTS=100 npx tsx bench/products.bench.ts  (the catalogue grown to 100 products over the admin API)
// Each server runs in its own process; autocannon runs here, so the load generator does not share
// an event loop with either server. Results are printed and appended to bench/products-runs.md.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, serverEntryOut } from '../scripts/build-server.mjs';
import { growCatalogueOverApi } from '../tests/support/grow-catalogue-api';
import { measureInTurns, type Figures } from './support/turns';
import { freePort, rssMb, stop, waitFor } from './support/server-process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const warmupSeconds = 2;
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
/** Products in the catalogue: the demo catalogue (18) unless more are asked for. */
const productTarget = Number(process.env.BENCH_PRODUCTS ?? 0);
/** Goal: the shop answers at 80 % or more of the plain server's requests per second (median of the turns). */
const GOAL = 80;

const row = (f: Figures) => ({
  'req/s (avg)': f.rps,
  'median turn req/s': f.rpsMedian,
  'p50 ms': f.p50,
  'p99 ms': f.p99,
  'MB/s': f.mbps,
  'server CPU µs/req': f.cpuUsPerReq ?? 'n/a',
  non2xx: f.non2xx,
  errors: f.errors,
});

const PLAIN_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const body = fs.readFileSync(process.env.BODY_FILE);
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-bench-'));
  const children: ChildProcess[] = [];
  try {
    const [shopPort, plainPort] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      // Production refuses test payments and a missing PUBLIC_URL unless told: the bench uses both on purpose.
      PAYMENTS: 'offline',
      PUBLIC_URL: `http://127.0.0.1:${shopPort}`,
      DEMO_DATA: 'true',
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: 'bench-admin-password',
    };
    delete env.DATABASE_URL;

    // The compiled server as `npm start` runs it: it starts its embedded PostgreSQL, migrates and seeds.
    console.log(`Starting the shop on a fresh embedded database in ${dataDir}…`);
    await buildServer();
    const shop = spawn(process.execPath, [serverEntryOut], {
      cwd: root,
      env: { ...env, PORT: String(shopPort) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(shop);
    const shopUrl = `http://127.0.0.1:${shopPort}/api/products`;
    await waitFor(`http://127.0.0.1:${shopPort}/healthz`, shop);
    if (productTarget > 0) await growCatalogueOverApi(`http://127.0.0.1:${shopPort}`, env.ADMIN_PASSWORD!, productTarget);

    const bodyRes = await fetch(shopUrl, { headers: { 'accept-encoding': 'identity' } });
    const body = Buffer.from(await bodyRes.arrayBuffer());
    const bodyFile = path.join(dataDir, 'products.json');
    fs.writeFileSync(bodyFile, body);
    const products = (JSON.parse(body.toString()) as unknown[]).length;

    const plain = spawn(process.execPath, ['-e', PLAIN_SERVER], {
      env: { ...process.env, PORT: String(plainPort), BODY_FILE: bodyFile },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(plain);
    const plainUrl = `http://127.0.0.1:${plainPort}/api/products`;
    await waitFor(plainUrl, plain);
    const plainBody = Buffer.from(await (await fetch(plainUrl)).arrayBuffer());
    if (!plainBody.equals(body)) throw new Error('the plain server does not send the same bytes');

    const rssIdle = rssMb(shop.pid!);
    // The third target is what browsers get: they always ask for compression (the shop serves
    // brotli bytes made once per catalogue change).
    const [shopFigures, plainFigures, brFigures] = await measureInTurns(
      [
        { name: 'shop', url: shopUrl, pid: shop.pid! },
        { name: 'plain', url: plainUrl, pid: plain.pid! },
        {
          name: 'shop (br)',
          url: shopUrl,
          pid: shop.pid!,
          headers: { 'accept-encoding': 'gzip, deflate, br' },
        },
      ],
      { seconds: duration, rounds, connections, warmupSeconds },
    );
    const rssAfter = rssMb(shop.pid!);
    const ratio = Math.round((shopFigures.rps / plainFigures.rps) * 1000) / 10;
    const medianRatio = Math.round((shopFigures.rpsMedian / plainFigures.rpsMedian) * 1000) / 10;
    const cpuRatio =
      shopFigures.cpuUsPerReq && plainFigures.cpuUsPerReq
        ? Math.round((plainFigures.cpuUsPerReq / shopFigures.cpuUsPerReq) * 1000) / 10
        : null;

    const cpus = os.cpus();
    const machine = `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, ${os.platform()}`;
    console.log(
      `\nGET /api/products: ${products} products, ${body.length} bytes, ${connections} connections, ${duration} s each in ${rounds} turn(s)`,
    );
    console.log(`machine: ${machine}`);
    console.table({ shop: row(shopFigures), plain: row(plainFigures), 'shop (br)': row(brFigures) });
    console.log(`shop / plain: ${ratio} % of the plain server's req/s; median turn ${medianRatio} % (goal: ${GOAL} % or better)`);
    if (cpuRatio !== null)
      console.log(`by server CPU per request (less sensitive to other load on the machine): ${cpuRatio} %`);
    console.log(`shop RSS: ${rssIdle} MB before load, ${rssAfter} MB after`);

    const log = path.join(root, 'bench', 'products-runs.md');
    if (!fs.existsSync(log)) {
      fs.writeFileSync(
        log,
        '# GET /api/products runs (appended by bench/products.bench.ts)\n\n' +
          '| date | machine | products / bytes | conns x s | shop req/s | shop p50 / p99 ms | plain req/s | plain p50 / p99 ms | shop / plain | CPU µs/req shop / plain | shop br req/s | shop RSS MB (idle / after) | median turn req/s shop / plain (ratio) |\n' +
          '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n',
      );
    }
    fs.appendFileSync(
      log,
      `| ${new Date().toISOString()} | ${machine} | ${products} / ${body.length} | ${connections} x ${duration} | ${shopFigures.rps} | ${shopFigures.p50} / ${shopFigures.p99} | ${plainFigures.rps} | ${plainFigures.p50} / ${plainFigures.p99} | ${ratio} % | ${shopFigures.cpuUsPerReq ?? 'n/a'} / ${plainFigures.cpuUsPerReq ?? 'n/a'} | ${brFigures.rps} | ${rssIdle} / ${rssAfter} | ${shopFigures.rpsMedian} / ${plainFigures.rpsMedian} (${medianRatio} %) |\n`,
    );
    console.log(`appended to ${path.relative(root, log)}`);
    if (shopFigures.non2xx || shopFigures.errors || brFigures.non2xx || brFigures.errors)
      process.exitCode = 1;
    if (medianRatio < GOAL) process.exitCode = 1;
  } finally {
    await Promise.all(children.map((child) => stop(child, 10_000)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
