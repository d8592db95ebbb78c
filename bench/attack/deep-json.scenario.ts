// Deep JSON cannot stall the event loop (docs/security.md, "Request bodies"): 1 MB of nested arrays to
// `POST /api/cart` (over the 16 KB limit: refused from its Content-Length, unread), 15 KB of them (under the
// limit: refused by the nesting check before it is parsed): the time to each answer and the shop's CPU per
// request, against a normal cart add and against parsing that megabyte (what the shop did before).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import secureJson from 'secure-json-parse';
import type { Scenario } from '../scenario-runner';
import { stop } from '../support/server-process';
import { benchEnv, migrateBenchDatabase, startShopInstances } from '../support/shop-instances';
import { cpuSeconds } from '../support/turns';

const EACH = 60;
const nested = (bytes: number) => `${'['.repeat(bytes / 2)}${']'.repeat(bytes / 2)}`;

async function timed(count: number, pid: number, send: () => Promise<Response>, expect: number) {
  const ms: number[] = [];
  const before = cpuSeconds(pid)!;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await send();
    await res.clone().arrayBuffer();
    ms.push(performance.now() - started);
    if (res.status !== expect) throw new Error(`expected ${expect}, got ${res.status}: ${await res.clone().text()}`);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(count / 2)]!, max: ms[count - 1]!, cpuUs: Math.round(((cpuSeconds(pid)! - before) * 1e6) / count) };
}
const fmt = (r: { p50: number; max: number; cpuUs: number }) => `p50 ${r.p50.toFixed(1)} ms, max ${r.max.toFixed(1)} ms, ${r.cpuUs} µs CPU`;

const scenario: Scenario = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-deep-json-'));
  const servers: ChildProcess[] = [];
  try {
    // Rate limits off: the cost measured is what comes before them.
    const env = benchEnv(dataDir, undefined, { RATE_LIMITS: 'off' });
    migrateBenchDatabase(env);
    const [base] = await startShopInstances(env, 1, servers);
    const pid = servers[0]!.pid!;
    type Listed = { id: string; stock: number; sizes: string[]; colors: Array<{ name: string }>; releaseAt: string | null; maxPerShopper?: number | null };
    const products = (await (await fetch(`${base}/api/products`)).json()) as Listed[];
    const product = products.find((p) => p.stock > 0 && !p.releaseAt && !p.maxPerShopper) ?? products.find((p) => p.stock > 0)!;
    const headers = { 'content-type': 'application/json' };
    const cartAdd = () =>
      fetch(`${base}/api/cart`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ productId: product.id, quantity: 1, selectedSize: product.sizes[0] ?? null, selectedColor: product.colors?.[0]?.name ?? null }),
      });
    const bigNested = nested(1024 * 1024);
    const smallNested = nested(15 * 1024);

    await timed(10, pid, cartAdd, 200); // warm-up
    const alone = await timed(EACH, pid, cartAdd, 200);
    const big = await timed(EACH, pid, () => fetch(`${base}/api/cart`, { method: 'POST', headers, body: bigNested }), 413);
    const small = await timed(EACH, pid, () => fetch(`${base}/api/cart`, { method: 'POST', headers, body: smallNested }), 400);
    // What the shop did before the limits: parse the megabyte on its one thread (measured here, in-process).
    const parseMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      try {
        secureJson.parse(bigNested, null, { protoAction: 'error', constructorAction: 'error' });
      } catch {
        // a parser may give up on the depth: the time until then is the cost
      }
      parseMs.push(performance.now() - started);
    }
    parseMs.sort((x, y) => x - y);

    return {
      rows: [
        { what: 'a normal cart add, alone (baseline)', target: '—', measured: fmt(alone), ok: true },
        { what: '1 MB of nested arrays to POST /api/cart', target: '413 before it is read, no slower than a cart add', measured: fmt(big), ok: big.p50 <= alone.p50 * 2 + 5 },
        { what: '15 KB of nested arrays (under the size limit)', target: '400 before it is parsed, no slower than a cart add', measured: fmt(small), ok: small.p50 <= alone.p50 * 2 + 5 },
        { what: 'baseline: secure-json-parse of the same 1 MB (what each such request cost the event loop before)', target: '—', measured: `median ${parseMs[1]!.toFixed(0)} ms`, ok: true },
      ],
    };
  } finally {
    await Promise.all(servers.map((s) => stop(s, 15_000)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

export default scenario;
