// Runs the real shop as an operating-system process (as `npm start` does) for start-up, signal and
// crash tests, and walks a shopper through a purchase over real HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { projectRoot } from '../../server/lib/project-root';
import { compiledServerEntry } from './compiled-server';
import { customer } from './shop-fixtures';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ShopProcess {
  child: ChildProcess;
  port: number;
  base: string;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartShopOptions {
  dataDir: string;
  env?: Record<string, string>;
  /**
   * 'compiled' (the default) runs the compiled server as `npm start` does, built once per state of the sources
   * (tests/support/compiled-server.ts); 'npm' runs `npm start` itself (scripts/start.mjs).
   */
  via?: 'compiled' | 'npm';
  port?: number;
}

export async function spawnShop(opts: StartShopOptions): Promise<ShopProcess> {
  const port = opts.port ?? (await freePort());
  const [cmd, args] =
    (opts.via ?? 'compiled') === 'compiled'
      ? [
          process.execPath,
          [
            // SHOP_CPU_PROF_DIR: the shop writes a CPU profile there when it exits (where a bench's time goes).
            ...(process.env.SHOP_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SHOP_CPU_PROF_DIR}`] : []),
            await compiledServerEntry(),
          ],
        ]
      : ['npm', ['start', '--silent']];
  const child = spawn(cmd, args, {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      ADMIN_PASSWORD: 'process-test-password',
      LOG_LEVEL: 'warn',
      FIFTY_SKIP_BUILD: '1',
      CLIENT_DIR: path.join(opts.dataDir, 'no-client'),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, port, base: `http://127.0.0.1:${port}`, output: () => out, exited };
}

/** Waits until /healthz answers 200; fails early when the process exits. */
export async function waitHealthy(shop: ShopProcess, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  let exit: { code: number | null } | null = null;
  void shop.exited.then((e) => (exit = e));
  while (Date.now() - started < timeoutMs) {
    if (exit) throw new Error(`shop exited (${JSON.stringify(exit)}) before it was healthy:\n${shop.output()}`);
    const ok = await fetch(`${shop.base}/healthz`, { signal: AbortSignal.timeout(1000) })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`shop not healthy after ${timeoutMs} ms:\n${shop.output()}`);
}

/** fetch with one shopper's cookie jar. */
export class HttpShopper {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async call(method: string, url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const headers: Record<string, string> = { origin: this.base };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = { raw: text };
    }
    return { status: res.status, json };
  }
}

interface ListedProduct {
  id: string;
  stock: number;
  inStock: boolean;
  sizes?: string[] | null;
  colors?: Array<{ name: string }> | null;
}

/** Buys one piece of the first product in stock with the offline test card; returns the order number. */
export async function buyOnePiece(base: string): Promise<string> {
  const shopper = new HttpShopper(base);
  const list = await shopper.call('GET', '/api/products');
  const items = (Array.isArray(list.json) ? list.json : (list.json.products as ListedProduct[])) as ListedProduct[];
  const product = items.find((p) => p.inStock && p.stock > 0);
  if (!product) throw new Error('no product in stock');
  const add = await shopper.call('POST', '/api/cart', {
    productId: product.id,
    quantity: 1,
    selectedSize: product.sizes?.[0] ?? null,
    selectedColor: product.colors?.[0]?.name ?? null,
  });
  if (add.status !== 200) throw new Error(`cart: ${add.status} ${JSON.stringify(add.json)}`);
  const info = await shopper.call('POST', '/api/customer-info', customer());
  if (info.status !== 200) throw new Error(`customer-info: ${info.status} ${JSON.stringify(info.json)}`);
  const intent = await shopper.call('POST', '/api/create-payment-intent', {});
  if (intent.status !== 200) throw new Error(`intent: ${intent.status} ${JSON.stringify(intent.json)}`);
  const paid = await shopper.call('POST', '/api/payments/offline/confirm', {
    clientSecret: intent.json.clientSecret,
    cardNumber: '4242 4242 4242 4242',
    expiry: '12/39',
    cvc: '123',
  });
  if (paid.status !== 200) throw new Error(`confirm: ${paid.status} ${JSON.stringify(paid.json)}`);
  const done = await shopper.call('POST', '/api/payment-success', { paymentIntentId: intent.json.paymentIntentId ?? paid.json.id });
  if (done.status !== 200) throw new Error(`payment-success: ${done.status} ${JSON.stringify(done.json)}`);
  return String(done.json.orderNumber);
}
