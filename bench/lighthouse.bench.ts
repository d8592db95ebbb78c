// Lighthouse (mobile preset, simulated throttling) on `/`, a product page and a category page of the
// built shop, plus the gzip size of the JS the home page loads up front.
// Usage: npx tsx bench/lighthouse.bench.ts   (builds the client, serves it on a temp DATA_DIR)
// LH_LIVE_DROP=1: one product's waiting room is open (its release a few minutes ahead, inside
// DROP_RAFFLE_MINUTES, set through the admin API), so home shows the 'Live now' hero; that drop's
// product page is measured too.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { loadClientAssets } from '../server/plugins/client-assets';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const port = Number(process.env.BENCH_PORT ?? 3377);
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-lh-'));
const clientDir = path.join(dataDir, 'client');
const runs = Number(process.env.LH_RUNS ?? 3);
const liveDrop = process.env.LH_LIVE_DROP === '1';
// LH_SAVE_DIR=<dir>: keep each run's full report (JSON) there, to find the LCP element, CLS source, etc.
const saveDir = process.env.LH_SAVE_DIR;
const adminPassword = 'bench-admin-password';
const raffleMinutes = Number(process.env.DROP_RAFFLE_MINUTES ?? 10);
const LIVE_HERO_TEXT = 'Live now: join the line';

async function waitFor(url: string, ms = 240_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not answer ${url}`);
}

/** Logs in as the owner; the session cookie for the admin API. */
async function adminCookie(): Promise<string> {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: adminPassword }),
  });
  if (!res.ok) throw new Error(`admin login: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/**
 * Opens the product's waiting room: its release half the raffle ahead (inside DROP_RAFFLE_MINUTES), then
 * checks that home's server-rendered HTML carries the live hero. Called again before each run of a page
 * so a long run never crosses the release.
 */
async function openWaitingRoom(cookie: string, productId: string): Promise<void> {
  const releaseAt = new Date(Date.now() + (raffleMinutes * 60_000) / 2).toISOString();
  const res = await fetch(`${base}/api/admin/products/${productId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ releaseAt }),
  });
  if (!res.ok) throw new Error(`setting the release: ${res.status} ${await res.text()}`);
  const html = await (await fetch(`${base}/`)).text();
  if (!html.includes(LIVE_HERO_TEXT)) throw new Error(`home's HTML has no '${LIVE_HERO_TEXT}' hero`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * gzip bytes of the JavaScript a page loads up front: the entry script in the HTML and the files the
 * server lists for the page (`#fifty-scripts`, server/plugins/client-assets.ts), nothing loaded later.
 */
function initialJsGzip(pathname: string): { file: string; bytes: number }[] {
  const html = fs.readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const inHtml = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const files = [...new Set([...inHtml, ...loadClientAssets(clientDir).scriptsFor(pathname)])];
  return files.map((file) => ({
    file,
    bytes: zlib.gzipSync(fs.readFileSync(path.join(clientDir, file)), { level: 9 }).length,
  }));
}

const server = spawn(process.execPath, ['scripts/start.mjs'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CLIENT_DIR: clientDir,
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: adminPassword,
  },
  stdio: 'inherit',
});
try {
  await waitFor(`${base}/healthz`);
  const products = (await (await fetch(`${base}/api/products`)).json()) as { id: string; name: string }[];
  const pages: Record<string, string> = { home: '/', product: `/product/${products[0].id}`, category: '/category/hoodies' };
  // The live drop is the last seeded product, so `product` stays an ordinary product page.
  const drop = liveDrop ? products[products.length - 1] : null;
  const cookie = drop ? await adminCookie() : '';
  if (drop) {
    await openWaitingRoom(cookie, drop.id);
    pages.drop = `/product/${drop.id}`;
    console.log(`live drop: ${drop.name}; home shows '${LIVE_HERO_TEXT}'`);
  }
  // LH_PAGES=home,drop: only these pages (e.g. a quick comparison with and without the live drop).
  const only = process.env.LH_PAGES?.split(',');
  if (only) for (const name of Object.keys(pages)) if (!only.includes(name)) delete pages[name];
  const label = (name: string, p: string) => (name === 'product' || name === 'drop' ? '/product/{id}' : p);
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const rows: string[] = [];
  console.log(
    `load average at start: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  try {
    for (const [name, p] of Object.entries(pages)) {
      const scores: Record<string, number[]> = {
        performance: [],
        accessibility: [],
        'best-practices': [],
        seo: [],
      };
      const lcp: number[] = [];
      const cls: number[] = [];
      const tbt: number[] = [];
      const fcp: number[] = [];
      const script: number[] = [];
      for (let i = 0; i < runs; i++) {
        if (drop) await openWaitingRoom(cookie, drop.id);
        const result = await lighthouse(`${base}${p}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
        });
        const lhr = result!.lhr;
        if (saveDir) {
          fs.mkdirSync(saveDir, { recursive: true });
          fs.writeFileSync(path.join(saveDir, `${name}-${i + 1}.json`), JSON.stringify(lhr));
        }
        // A failed run scores 0: say why instead of hiding it in the median.
        if (lhr.runtimeError)
          console.log(`  ${name} run ${i + 1}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
        for (const k of Object.keys(scores))
          scores[k].push(Math.round((lhr.categories[k]?.score ?? 0) * 100));
        lcp.push(lhr.audits['largest-contentful-paint'].numericValue ?? 0);
        cls.push(lhr.audits['cumulative-layout-shift'].numericValue ?? 0);
        tbt.push(lhr.audits['total-blocking-time'].numericValue ?? 0);
        fcp.push(lhr.audits['first-contentful-paint'].numericValue ?? 0);
        const requests =
          (
            lhr.audits['network-requests'].details as {
              items?: { resourceType?: string; transferSize?: number }[];
            }
          )?.items ?? [];
        script.push(
          requests.filter((r) => r.resourceType === 'Script').reduce((n, r) => n + (r.transferSize ?? 0), 0),
        );
      }
      const row = `| ${name} (\`${label(name, p)}\`) | ${median(scores.performance)} | ${median(scores.accessibility)} | ${median(scores['best-practices'])} | ${median(scores.seo)} | ${(median(fcp) / 1000).toFixed(2)} s | ${(median(lcp) / 1000).toFixed(2)} s | ${Math.round(median(tbt))} ms | ${median(cls).toFixed(3)} |`;
      console.log(
        row,
        ' runs:',
        JSON.stringify(scores.performance),
        'LCP',
        JSON.stringify(lcp.map(Math.round)),
        `script transferred ${(median(script) / 1024).toFixed(1)} KB`,
      );
      rows.push(row);
    }
  } finally {
    await chrome.kill();
  }
  console.log(
    '\n| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS |\n|---|---|---|---|---|---|---|---|---|',
  );
  console.log(rows.join('\n'));
  console.log(
    `\nload average at end: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  for (const [name, p] of Object.entries(pages)) {
    const js = initialJsGzip(p);
    const total = js.reduce((n, f) => n + f.bytes, 0);
    console.log(
      `\nInitial JS for ${name} (entry + what #fifty-scripts lists), gzip: ${(total / 1024).toFixed(1)} KB`,
    );
    for (const f of js) console.log(`  ${f.file}: ${(f.bytes / 1024).toFixed(1)} KB`);
  }
} finally {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
