// Streams that cannot be exhausted (docs/security.md, "Streams"): 20,000 waiting-room stream requests
// (GET /api/drops/:id/events) and 2,000 live-stock ones, each sent and hung up at once or within a few ms,
// every one from its own address (so each reaches the route and takes a slot; one address would mostly
// be refused by its rate limit first). Then a new stream of each kind must be 200, one address is held
// to its per-address cap, and the shop's RSS must come back to within 10 % of idle.
// Live stock runs with LIVE_STOCK_MAX_STREAMS=20 (one leaked slot in 1,000 would show).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { rssMb, stop } from '../support/server-process';
import { benchEnv, migrateBenchDatabase, startShopInstances } from '../support/shop-instances';

const DROPPED = Number(process.env.STREAMS_DROPPED ?? 20_000);
const DROPPED_STOCK = Number(process.env.STREAMS_DROPPED_STOCK ?? 2_000);
const CONCURRENCY = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const addressOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** Sends the request and hangs up: at once (as soon as it is written) or after `afterMs`. */
function openAndDrop(url: string, ip: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get(url, { headers: { 'x-forwarded-for': ip }, agent: false });
    req.on('error', () => undefined);
    req.on('close', () => resolve());
    if (afterMs === 0) req.on('finish', () => req.destroy());
    else setTimeout(() => req.destroy(), afterMs);
  });
}

/** Opens a stream; resolves with its status (and a way to close it) once the head arrives. */
function openStream(url: string, ip: string): Promise<{ status: number; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { 'x-forwarded-for': ip }, agent: false }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

async function attack(url: string, total: number, firstAddress: number): Promise<number> {
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const n = next++;
        await openAndDrop(url, addressOf(firstAddress + n), n % 3 === 0 ? 0 : n % 11);
      }
    }),
  );
  return Date.now() - started;
}

const scenario: Scenario = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-streams-'));
  const servers: ChildProcess[] = [];
  try {
    const env = benchEnv(dataDir, undefined, { LIVE_STOCK_MAX_STREAMS: '20' });
    migrateBenchDatabase(env);
    const [base] = await startShopInstances(env, 1, servers);
    const pid = servers[0]!.pid!;
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': '127.0.0.1' };
    const login = await fetch(`${base}/api/admin/login`, { method: 'POST', headers, body: JSON.stringify({ password: env.ADMIN_PASSWORD }) });
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const created = await fetch(`${base}/api/admin/products`, {
      method: 'POST',
      headers: { ...headers, cookie },
      body: JSON.stringify({
        name: 'Drop 003 Jacket',
        description: 'A numbered jacket.',
        price: '120.00',
        category: 'hoodies',
        materials: 'Waxed cotton',
        sustainabilityInfo: 'Made to order.',
        stock: 50,
        images: [],
        sizes: [],
        colors: [],
        releaseAt: new Date(Date.now() + 5 * 60_000).toISOString(),
      }),
    });
    if (created.status !== 201) throw new Error(`create product ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    const events = `${base}/api/drops/${id}/events`;
    const stockEvents = `${base}/api/products/${id}/stock/events`;

    // Idle: a few status reads and streams, then settle.
    for (let i = 0; i < 20; i++) (await openStream(events, addressOf(900_000 + i))).close();
    await sleep(5000);
    const idle = rssMb(pid);

    const dropMs = await attack(events, DROPPED, 0);
    const stockMs = await attack(stockEvents, DROPPED_STOCK, 100_000);
    const peak = rssMb(pid);

    const fresh = await openStream(events, addressOf(950_000));
    // The live-stock cap is 20: if even 20 of the 2,000 dropped requests had kept their slot, this is 503.
    const freshStock = await Promise.all(Array.from({ length: 20 }, (_, i) => openStream(stockEvents, addressOf(960_000 + i))));
    fresh.close();
    for (const s of freshStock) s.close();

    // One client, one address: the 51st stream is refused.
    const held = [];
    for (let i = 0; i < 60; i++) held.push(await openStream(events, '198.51.100.200'));
    const heldOk = held.filter((h) => h.status === 200).length;
    const heldRefused = held.filter((h) => h.status === 429).length;
    const other = await openStream(events, '198.51.100.201');
    for (const h of [...held, other]) h.close();

    // Settle: RSS back near idle.
    let after = rssMb(pid);
    for (let i = 0; i < 12 && after > idle * 1.1; i++) {
      await sleep(5000);
      after = rssMb(pid);
    }
    return {
      rows: [
        { what: `${DROPPED.toLocaleString('en')} dropped waiting-room stream requests`, target: 'a new stream is 200', measured: `${fresh.status} (attack took ${(dropMs / 1000).toFixed(1)} s)`, ok: fresh.status === 200 },
        {
          what: `${DROPPED_STOCK.toLocaleString('en')} dropped live-stock stream requests (cap 20)`,
          target: '20 new streams are 200',
          measured: `${freshStock.filter((s) => s.status === 200).length} of 20 (attack took ${(stockMs / 1000).toFixed(1)} s)`,
          ok: freshStock.every((s) => s.status === 200),
        },
        { what: '60 streams from one address', target: '50 open, 10 refused 429; another address 200', measured: `${heldOk} open, ${heldRefused} refused; other ${other.status}`, ok: heldOk === 50 && heldRefused === 10 && other.status === 200 },
        { what: 'RSS: idle → peak → after', target: 'after ≤ idle + 10 %', measured: `${idle} → ${peak} → ${after} MB`, ok: after <= idle * 1.1 },
      ],
    };
  } finally {
    await Promise.all(servers.map((s) => stop(s, 15_000)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

export default scenario;
