// Stream opens and the rate limits (docs/security.md, "Streams"): 3,000 waiting-room stream opens from ONE
// address (no cookie, no proof of work), each closed once its first status arrives, against a spawned shop in
// production mode. Then a shopper in the line behind that address (a carrier NAT, an office) reads its status,
// opens its stream and sends its heartbeat at once, and again after the Retry-After it was given, then
// leaves the line. Before: a stream's reply is hijacked, so the limiter never gave its place in flight back,
// and everyone on the address got 429 on all of these until a restart. Meanwhile a shopper on another
// address browses 130 product pages in one session (live stock opened and closed on each, one page every
// 0.6 s): before, the 121st page and every later one lost live stock (429) for good.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { solvePow } from '../../tests/support/pow';
import type { Scenario } from '../scenario-runner';
import { stop } from '../support/server-process';
import { benchEnv, migrateBenchDatabase, startShopInstances } from '../support/shop-instances';

const OPENS = Number(process.env.STREAMS_INFLIGHT_OPENS ?? 3_000);
/** Below the 50 streams one address may hold at once. */
const CONCURRENCY = 40;
const PAGES = 130;
const PAGE_EVERY_MS = 600;
const ATTACKER = '203.0.113.70';
const BROWSER = '198.51.100.71';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens an event stream, waits for its first frame (or its refusal), then hangs up. */
function openAndClose(url: string, ip: string, cookie = ''): Promise<{ status: number; retryAfter: number }> {
  return new Promise((resolve) => {
    const req = http.get(url, { headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) }, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      const retryAfter = Number(res.headers['retry-after'] ?? 0);
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (status === 200 && body.includes('\n\n')) {
          req.destroy();
          resolve({ status, retryAfter });
        }
      });
      res.on('end', () => resolve({ status, retryAfter }));
      res.on('error', () => undefined);
    });
    req.on('error', () => resolve({ status: 0, retryAfter: 0 }));
  });
}

const scenario: Scenario = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-streams-inflight-'));
  const servers: ChildProcess[] = [];
  try {
    const env = benchEnv(dataDir, undefined);
    migrateBenchDatabase(env);
    const [base] = await startShopInstances(env, 1, servers);
    const json = { 'content-type': 'application/json' };
    const login = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { ...json, 'x-forwarded-for': '127.0.0.1' },
      body: JSON.stringify({ password: env.ADMIN_PASSWORD }),
    });
    const admin = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const created = await fetch(`${base}/api/admin/products`, {
      method: 'POST',
      headers: { ...json, 'x-forwarded-for': '127.0.0.1', cookie: admin },
      body: JSON.stringify({
        name: 'Drop 004 Coat',
        description: 'A numbered coat.',
        price: '180.00',
        category: 'hoodies',
        materials: 'Wool',
        sustainabilityInfo: 'Made to order.',
        stock: 50,
        images: [],
        sizes: [],
        colors: [],
        releaseAt: new Date(Date.now() + 8 * 60_000).toISOString(),
      }),
    });
    if (created.status !== 201) throw new Error(`create product ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    const events = `${base}/api/drops/${id}/events`;

    // The shopper behind the attacker's address takes a place in the line first (proof of work solved).
    const challenge = await (await fetch(`${base}/api/pow-challenge`, { headers: { 'x-forwarded-for': ATTACKER } })).json();
    const joined = await fetch(`${base}/api/drops/${id}/queue`, {
      method: 'POST',
      headers: { ...json, 'x-forwarded-for': ATTACKER },
      body: JSON.stringify({ altcha: await solvePow(challenge as never) }),
    });
    if (joined.status !== 201) throw new Error(`join ${joined.status}: ${await joined.text()}`);
    const shopper = joined.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

    // The attack.
    const opened: Record<number, number> = {};
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < OPENS) {
          next++;
          const { status } = await openAndClose(events, ATTACKER);
          opened[status] = (opened[status] ?? 0) + 1;
        }
      }),
    );
    const attackMs = Date.now() - started;

    // Meanwhile, from another address: one session browsing product pages, each page's live stock opened and closed.
    const products = (await (await fetch(`${base}/api/products`, { headers: { 'x-forwarded-for': BROWSER } })).json()) as Array<{
      id: string;
      sizes: string[];
      colors: Array<{ name: string }>;
    }>;
    const browsing = (async () => {
      const first = products[0]!;
      const cart = await fetch(`${base}/api/cart`, {
        method: 'POST',
        headers: { ...json, 'x-forwarded-for': BROWSER },
        body: JSON.stringify({ productId: first.id, selectedSize: first.sizes[0], selectedColor: first.colors[0]?.name }),
      });
      const cookie = cart.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      if (!cookie) throw new Error(`no session cookie from the cart (${cart.status} ${await cart.text()})`);
      const refusedPages: number[] = [];
      for (let page = 0; page < PAGES; page++) {
        const at = Date.now();
        const { status } = await openAndClose(`${base}/api/products/${products[page % products.length]!.id}/stock/events`, BROWSER, cookie);
        if (status !== 200) refusedPages.push(page + 1);
        await sleep(Math.max(0, PAGE_EVERY_MS - (Date.now() - at)));
      }
      return refusedPages;
    })();

    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { ...(body ? json : {}), 'x-forwarded-for': ATTACKER, cookie: shopper },
        body: body ? JSON.stringify(body) : undefined,
      });
      await res.arrayBuffer();
      return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0) };
    };
    const shopperRound = async (leave: boolean) => {
      const results = [
        await call('GET', `/api/drops/${id}`),
        await openAndClose(events, ATTACKER, shopper),
        await call('POST', `/api/drops/${id}/ticket/heartbeat`, { visible: true }),
        ...(leave ? [await call('DELETE', `/api/drops/${id}/queue`)] : []),
      ];
      return results;
    };
    const atOnce = await shopperRound(false);
    const wait = Math.max(0, ...atOnce.filter((r) => r.status === 429).map((r) => r.retryAfter));
    await sleep(wait * 1000 + 1000);
    const after = await shopperRound(true);
    const refusedPages = await browsing;

    const count429 = (rs: Array<{ status: number }>) => rs.filter((r) => r.status === 429).length;
    return {
      rows: [
        {
          what: `${OPENS.toLocaleString('en')} waiting-room stream opens from one address, each closed`,
          target: 'all answered (the address budget is 3,000 a minute)',
          measured: `${Object.entries(opened).map(([s, n]) => `${n} × ${s}`).join(', ')} in ${(attackMs / 1000).toFixed(1)} s`,
          ok: (opened[200] ?? 0) > 0,
        },
        {
          what: 'the shopper in line on that address at once: status, stream, heartbeat',
          target: 'refused at most for the rest of the minute (Retry-After ≤ 60 s)',
          measured: `${count429(atOnce)} of 3 got 429 (${atOnce.map((r) => r.status).join(', ')}; Retry-After ${wait} s)`,
          ok: wait <= 60,
        },
        {
          what: 'the same shopper after that Retry-After: status, stream, heartbeat, leave',
          target: '0 of 4 got 429',
          measured: `${count429(after)} of 4 got 429 (${after.map((r) => r.status).join(', ')})`,
          ok: count429(after) === 0 && after.every((r) => r.status === 200),
        },
        {
          what: `one session browsing ${PAGES} product pages (live stock opened and closed on each, every ${PAGE_EVERY_MS / 1000} s)`,
          target: 'live stock on every page',
          measured: refusedPages.length === 0 ? `${PAGES} of ${PAGES}` : `${PAGES - refusedPages.length} of ${PAGES} (refused from page ${refusedPages[0]})`,
          ok: refusedPages.length === 0,
        },
      ],
    };
  } finally {
    await Promise.all(servers.map((s) => stop(s, 15_000)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

export default scenario;
