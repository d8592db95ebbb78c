// Slow clients cannot hold the box (docs/operations.md, "In front of the shop"): 1,000 POSTs that send their
// headers and 10 bytes of the body, then stall. Three ways: the body declared at 1,000,000 bytes (over the
// 16 KB a shopper's route takes), declared within the limit from four addresses (250 each, under the
// per-address cap: only the body deadline ends them), and all from one address (the cap). Measured: how
// many are still open once the deadline has passed, and a normal shopper's request latency meanwhile
// (from another address), against the same requests before the attack.
// The shop runs with TRUST_PROXY set to a documentation address, so loopback connections are counted.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { stop } from '../support/server-process';
import { benchEnv, migrateBenchDatabase, startShopInstances } from '../support/shop-instances';

const STALLED = 1_000;
/** The shop's body deadline (plugins/http-limits.ts) and Node's check interval, with a margin. */
const DEADLINE_MS = 10_000 + 1_000 + 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Stalled {
  socket: net.Socket;
  open: boolean;
  answer: string;
}

function stall(port: number, localAddress: string, declared: number): Promise<Stalled> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    const s: Stalled = { socket, open: true, answer: '' };
    socket.on('error', () => undefined);
    socket.on('data', (d) => (s.answer ||= d.toString().split('\r\n')[0]!));
    socket.on('close', () => (s.open = false));
    socket.on('connect', () => {
      socket.write(
        `POST /api/cart HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n{"productI`,
      );
      resolve(s);
    });
    socket.on('close', () => resolve(s));
  });
}

/** A normal shopper's request, from its own address: milliseconds to the answer. */
async function shopperMs(base: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/api/products`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`shopper got ${res.status}`);
  return performance.now() - started;
}

async function latencies(base: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await shopperMs(base));
  return out.sort((a, b) => a - b);
}
const p50 = (xs: number[]) => xs[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `p50 ${p50(xs).toFixed(1)} ms, max ${xs[xs.length - 1]!.toFixed(1)} ms`;

async function attack(port: number, addresses: string[], declared: number): Promise<Stalled[]> {
  const all: Stalled[] = [];
  for (let i = 0; i < STALLED; i += 50) {
    all.push(...(await Promise.all(Array.from({ length: Math.min(50, STALLED - i) }, (_, j) => stall(port, addresses[(i + j) % addresses.length]!, declared)))));
  }
  return all;
}

const scenario: Scenario = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-slow-clients-'));
  const servers: ChildProcess[] = [];
  const sockets: Stalled[] = [];
  try {
    const env = benchEnv(dataDir, undefined, { TRUST_PROXY: '192.0.2.1', RATE_LIMITS: 'off' });
    migrateBenchDatabase(env);
    const [base] = await startShopInstances(env, 1, servers);
    const port = Number(new URL(base!).port);
    await latencies(base!, 10); // warm-up
    const idle = await latencies(base!, 30);

    // 1. Declared far over the limit: refused at once (413) and closed.
    const over = await attack(port, ['127.0.0.10'], 1_000_000);
    sockets.push(...over);
    const overSent = Date.now();
    while (Date.now() - overSent < 5_000 && over.some((s) => s.open)) await sleep(100);
    const overOpen = over.filter((s) => s.open).length;
    const overSecs = ((Date.now() - overSent) / 1000).toFixed(1);
    const overAnswers = new Set(over.map((s) => s.answer || '(closed unanswered)'));

    // 2. Within the limit, from four addresses; 3. within the limit, all from one address. At the same time.
    const [spread, single] = await Promise.all([
      attack(port, ['127.0.0.20', '127.0.0.21', '127.0.0.22', '127.0.0.23'], 10_000),
      attack(port, ['127.0.0.30'], 10_000),
    ]);
    // The deadline runs from each request's headers: wait from the last one sent.
    const sent = Date.now();
    sockets.push(...spread, ...single);
    // Time for the shop to accept and answer them all (well inside the 10 s deadline).
    await sleep(3_000);
    const singleHeld = single.filter((s) => s.open && !s.answer).length;
    const singleRefused = single.filter((s) => s.answer.includes('429')).length;
    const singleDropped = single.filter((s) => !s.open && !s.answer).length;
    const spreadAt = spread.filter((s) => s.open).length;
    const during = await latencies(base!, 30);
    while (Date.now() - sent < DEADLINE_MS && [...spread, ...single].some((s) => s.open)) await sleep(250);
    const spreadOpen = spread.filter((s) => s.open).length;
    const singleOpen = single.filter((s) => s.open).length;
    const after = await latencies(base!, 30);

    return {
      rows: [
        {
          what: `${STALLED.toLocaleString('en')} stalled POSTs declaring 1,000,000 bytes (limit 16 KB)`,
          target: '0 open within 5 s (refused at once, before any body is read)',
          measured: `${overOpen} open ${overSecs} s after the last was sent; answers: ${[...overAnswers].join(', ')}`,
          ok: overOpen === 0,
        },
        {
          what: `${STALLED.toLocaleString('en')} stalled POSTs within the limit, 4 addresses`,
          target: `0 open within ${DEADLINE_MS / 1000} s of the last one sent (body deadline 10 s)`,
          measured: `${spreadAt} open once sent; ${spreadOpen} open ${((Date.now() - sent) / 1000).toFixed(1)} s later`,
          ok: spreadOpen === 0,
        },
        {
          what: `${STALLED.toLocaleString('en')} stalled POSTs within the limit, 1 address (cap 256)`,
          target: '≤ 256 held, the rest refused 429 or closed; 0 open after the deadline',
          measured: `${singleHeld} held, ${singleRefused} answered 429, ${singleDropped} closed unread; ${singleOpen} open at the end`,
          ok: singleHeld <= 256 && singleOpen === 0,
        },
        {
          what: 'a shopper (another address): GET /api/products, 30 in a row',
          target: 'served throughout',
          measured: `idle ${fmt(idle)}; during ${fmt(during)}; after ${fmt(after)}`,
          ok: true,
        },
      ],
    };
  } finally {
    for (const s of sockets) s.socket.destroy();
    await Promise.all(servers.map((s) => stop(s, 15_000)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

export default scenario;
