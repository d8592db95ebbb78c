// The page cache cannot be walked around (docs/security.md, "Pages anyone can mint"): `GET /` with a
// random Host header on every request, against the same requests with one Host (the baseline, measured in
// the same run), in the shop's CPU per request; then 2,050 made-up `/draws/<id>` pages and whether the home
// page is still the cached copy afterwards. A page carries the time it was rendered at, so an unchanged
// ETag means it was not rendered again (no timing involved). Pages are server-rendered when dist/client
// (with its -ssr bundle) is built: `npm run build` first for the figures of a real shop.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { stop } from '../support/server-process';
import { benchEnv, migrateBenchDatabase, startShopInstances } from '../support/shop-instances';
import { cpuSeconds } from '../support/turns';

const REQUESTS = 300;
const MADE_UP_DRAWS = 2_050;
const CONCURRENCY = 8;

/** Sends `count` requests (CONCURRENCY at a time); the shop's CPU microseconds per request. */
async function cpuPerRequest(pid: number, count: number, request: (i: number) => Promise<Response>): Promise<number> {
  const before = cpuSeconds(pid)!;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const res = await request(next++);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`answered ${res.status}`);
      }
    }),
  );
  return Math.round(((cpuSeconds(pid)! - before) * 1e6) / count);
}

// fetch() will not send a Host header of our choosing: node:http does.
function getWithHost(base: string, urlPath: string, host: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${urlPath}`, { headers: { host, 'accept-encoding': 'br' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode })));
    });
    req.on('error', reject);
  });
}

const scenario: Scenario = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-page-cache-'));
  const servers: ChildProcess[] = [];
  try {
    const env = benchEnv(dataDir, undefined, { RATE_LIMITS: 'off' });
    migrateBenchDatabase(env);
    const [base] = await startShopInstances(env, 1, servers);
    const pid = servers[0]!.pid!;
    const home = await (await fetch(`${base}/`)).text();
    const ssr = home.includes('<fieldset id="root"');

    await cpuPerRequest(pid, 50, () => getWithHost(base!, '/', 'shop.example'));
    const oneHost = await cpuPerRequest(pid, REQUESTS, () => getWithHost(base!, '/', 'shop.example'));
    const randomHost = await cpuPerRequest(pid, REQUESTS, () => getWithHost(base!, '/', `${Math.random().toString(36).slice(2)}.example`));

    const etag = (await fetch(`${base}/`)).headers.get('etag');
    const drawsCpu = await cpuPerRequest(pid, MADE_UP_DRAWS, (i) =>
      fetch(`${base}/draws/5b1c1d8e-3f0e-4a57-9a51-${i.toString(16).padStart(12, '0')}`),
    );
    const after = (await fetch(`${base}/`)).headers.get('etag');

    return {
      rows: [
        {
          what: `GET / ×${REQUESTS}, a random Host on each (pages ${ssr ? 'server-rendered' : 'NOT server-rendered: client not built'})`,
          target: 'CPU per request within 2× one Host’s',
          measured: `${randomHost} µs vs ${oneHost} µs with one Host`,
          ok: randomHost <= oneHost * 2 + 200,
        },
        {
          what: `${MADE_UP_DRAWS.toLocaleString('en')} made-up /draws/<id> pages (each rendered once: ${drawsCpu} µs CPU each)`,
          target: 'the home page is still the cached copy (same ETag)',
          measured: etag && etag === after ? `same ETag ${etag}` : `ETag ${etag} → ${after}`,
          ok: Boolean(etag) && etag === after,
        },
      ],
    };
  } finally {
    await Promise.all(servers.map((s) => stop(s, 15_000)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

export default scenario;
