// What the attack and fault scenarios share: a browser driven over HTTP (its own cookies and network
// address), the waiting room's event stream read until a status, and one spawned shop on its own data
// directory with a database handle, cleaned up afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/db/client';
import { solvePow } from '../../tests/support/pow';
import { spawnShop, waitHealthy, type ShopProcess } from '../../tests/support/shop-process';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Reads a waiting room's event stream (text/event-stream) until `done` accepts a status: that status, or
 * null when the stream ends first. Leaving early cancels the body.
 */
export async function readUntilStatus(
  body: ReadableStream<Uint8Array>,
  done: (status: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown> | null> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n');
      buffer = buffer.slice(end + 2);
      if (!data) continue;
      const status = JSON.parse(data) as Record<string, unknown>;
      if (done(status)) return status;
    }
  }
  return null;
}

/** One browser: its own cookies and network address (the bench stands in for the trusted proxy). */
export class Browser {
  cookies = new Map<string, string>();
  constructor(
    readonly ip: string,
    private readonly onStatus: (status: number) => void = () => undefined,
    /** Times a 503 (the shop shedding load, with Retry-After) is tried again after the wait it names. */
    private readonly retries503 = 0,
  ) {}

  /** fetch, trying a 503 again after its Retry-After (at most 5 s) up to `retries503` times; each answer counted. */
  private async send(url: string, init: RequestInit): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(url, init);
      this.onStatus(res.status);
      if (res.status !== 503 || attempt >= this.retries503) return res;
      await res.text().catch(() => undefined);
      await sleep(Math.min(5, Number(res.headers.get('retry-after')) || 1) * 1000);
    }
  }

  private headers(json: boolean): Record<string, string> {
    return {
      'x-forwarded-for': this.ip,
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
    };
  }

  private keep(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }

  /** One request to the instance at `base` (any instance: the session and the pass live in the database). */
  async call(
    base: string,
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await this.send(`${base}${url}`, {
      method,
      headers: this.headers(body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    this.keep(res);
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = { text };
    }
    return { status: res.status, json };
  }

  /** A solved proof of work (the `altcha` field of a join or a Notify-me signup) from the instance at `base`. */
  async altcha(base: string): Promise<string> {
    const challenge = await this.call(base, 'GET', '/api/pow-challenge');
    return solvePow(challenge.json as never);
  }

  async join(base: string, productId: string): Promise<{ status: number; json: Record<string, unknown> }> {
    return this.call(base, 'POST', `/api/drops/${productId}/queue`, { altcha: await this.altcha(base) });
  }

  /** Follows the waiting room's event stream until `done` says so; the last status, or null if it ended first. */
  async follow(
    base: string,
    productId: string,
    done: (status: Record<string, unknown>) => boolean,
    timeoutMs = 10 * 60_000,
  ): Promise<Record<string, unknown> | null> {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    const res = await this.send(`${base}/api/drops/${productId}/events`, {
      headers: { ...this.headers(false), accept: 'text/event-stream' },
      signal: ac.signal,
    });
    if (res.status !== 200 || !res.body) {
      clearTimeout(timer);
      await res.text().catch(() => undefined);
      return null;
    }
    try {
      return await readUntilStatus(res.body, done);
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
      return null;
    } finally {
      clearTimeout(timer);
      ac.abort();
    }
  }
}

/** A browser bound to one shop: `call` and `altcha` without naming the shop each time. */
export class ShopBrowser {
  private readonly browser: Browser;
  constructor(
    private readonly base: string,
    readonly ip: string,
  ) {
    this.browser = new Browser(ip);
  }
  call(
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    return this.browser.call(this.base, method, url, body);
  }
  altcha(): Promise<string> {
    return this.browser.altcha(this.base);
  }
}

export type Query = <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => Promise<T[]>;

export interface SpawnedShop {
  shop: ShopProcess;
  base: string;
  dataDir: string;
  db: Database;
  /** Raw SQL on the shop's database (rows). */
  q: Query;
}

/**
 * One shop process (the compiled server, as tests/support/shop-process.ts starts it) on
 * a fresh data directory named after `label`, with `env` on top, and a database handle on its embedded
 * PostgreSQL; `run` gets both. Afterwards the handle is closed, the shop stopped (SIGKILL after 15 s) and
 * the directory removed.
 */
export async function withSpawnedShop<T>(
  label: string,
  env: Record<string, string>,
  run: (s: SpawnedShop) => Promise<T>,
): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fifty-${label}-`));
  let shop: ShopProcess | null = null;
  let db: Database | null = null;
  try {
    shop = await spawnShop({ dataDir, env });
    await waitHealthy(shop, 120_000);
    db = await openDatabase({ dataDir, poolSize: 2, embeddedMode: 'shared' });
    const handle = db;
    const q: Query = async <R extends Record<string, unknown>>(query: ReturnType<typeof sql>) =>
      (await handle.db.execute<R>(query)).rows as R[];
    return await run({ shop, base: shop.base, dataDir, db, q });
  } finally {
    await db?.close().catch(() => undefined);
    if (shop) {
      shop.child.kill('SIGTERM');
      await Promise.race([shop.exited, sleep(15_000)]);
      if (shop.child.exitCode === null) shop.child.kill('SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
