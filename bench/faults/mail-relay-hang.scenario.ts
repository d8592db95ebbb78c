// Mail through a bad SMTP relay, the shop compiled and in production:
//   1. a relay that accepts the connection and never answers: 18 orders, then SIGTERM. Measured: the
//      confirmations kept on disk (DATA_DIR/mail-queue), the exit code and the time from the signal to the
//      exit; then a restart with a working relay: how many of the 18 arrive, and how many more than once;
//   2. the relay gone while 10 orders are taken, then back refusing the first buyer for good (550): how many
//      of the 9 queued behind that one arrive (within MAIL_BENCH_WAIT_S, default 60 s), and the dead letters.
// Usage: npx tsx bench/faults-more.bench.ts mail-relay   (also part of npm run bench:faults)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { customer } from '../../tests/support/shop-fixtures';
import { freePort, HttpShopper, spawnShop, waitHealthy, type ShopProcess } from '../../tests/support/shop-process';
import { smtpServer } from '../../tests/support/smtp-server';

const ORDERS = 18;
const BEHIND = 9;
const WAIT_MS = Number(process.env.MAIL_BENCH_WAIT_S ?? 60) * 1000;
const REFUSED = 'refused@example.com';

interface Listed {
  id: string;
  stock: number;
  sizes?: string[];
  colors?: Array<{ name: string }>;
}

async function buy(base: string, product: Listed, i: number, email = `buyer${i}@example.com`): Promise<string> {
  const shopper = new HttpShopper(base);
  const call = async (method: string, url: string, body?: unknown) => {
    const r = await shopper.call(method, url, body);
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };
  await call('POST', '/api/cart', { productId: product.id, quantity: 1, selectedSize: product.sizes![0], selectedColor: product.colors?.[0]?.name ?? null });
  await call('POST', '/api/customer-info', customer({ email, shippingAddress: `${i + 1} Relay Lane` }));
  const intent = await call('POST', '/api/create-payment-intent', {});
  await call('POST', '/api/payments/offline/confirm', {
    clientSecret: intent.clientSecret,
    cardNumber: '4242 4242 4242 4242',
    expiry: `${String((i % 12) + 1).padStart(2, '0')}/${40 + Math.floor(i / 12)}`,
    cvc: '123',
  });
  return String((await call('POST', '/api/payment-success', { paymentIntentId: intent.paymentIntentId })).orderNumber);
}

const jsonFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).length : 0);

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
}

const scenario: Scenario = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-bench-mail-relay-'));
  const smtpPort = await freePort();
  const port = await freePort();
  const env = {
    NODE_ENV: 'production',
    PAYMENTS: 'offline',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    DEMO_DATA: 'true',
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
  };
  const shops: ShopProcess[] = [];
  const start = async () => {
    const shop = await spawnShop({ dataDir, port, env });
    shops.push(shop);
    await waitHealthy(shop);
    return shop;
  };
  const spool = path.join(dataDir, 'mail-queue');
  let relay = await smtpServer(smtpPort, { hang: true });
  try {
    const first = await start();
    const products = (await (await fetch(`${first.base}/api/products`)).json()) as Listed[];
    const product = products.filter((p) => (p.sizes ?? []).length > 0).sort((a, b) => b.stock - a.stock)[0]!;
    const orderNumbers = await Promise.all(Array.from({ length: ORDERS }, (_, i) => buy(first.base, product, i)));
    const signalled = Date.now();
    first.child.kill('SIGTERM');
    const exit = await first.exited;
    const stopMs = Date.now() - signalled;
    const kept = jsonFiles(spool);
    console.log(`hanging relay: ${ORDERS} orders, SIGTERM → exit ${exit.code} in ${stopMs} ms, ${kept} confirmations in the spool`);

    await relay.close();
    relay = await smtpServer(smtpPort, { refuse: (to) => (to === REFUSED ? '550 5.1.1 no such user' : null) });
    const second = await start();
    const received = relay.received;
    const confirmations = () => received.filter((m) => orderNumbers.some((n) => m.includes(`order ${n} confirmed`)));
    await waitFor(() => confirmations().length >= ORDERS, WAIT_MS);
    const arrived = new Set(orderNumbers.filter((n) => received.some((m) => m.includes(`order ${n} confirmed`)))).size;
    const extra = confirmations().length - arrived;
    console.log(`after the restart: ${arrived} of ${ORDERS} arrived, ${extra} more than once`);

    // The relay goes away; 10 orders are taken meanwhile, the refused buyer's first; then it is back.
    await relay.close();
    const behind: string[] = [];
    await buy(second.base, product, ORDERS, REFUSED);
    for (let i = 0; i < BEHIND; i++) behind.push(await buy(second.base, product, ORDERS + 1 + i));
    relay = await smtpServer(smtpPort, { refuse: (to) => (to === REFUSED ? '550 5.1.1 no such user' : null) });
    const queuedAt = Date.now();
    const sentBehind = () => behind.filter((n) => relay.received.some((m) => m.includes(`order ${n} confirmed`))).length;
    await waitFor(() => sentBehind() >= BEHIND && jsonFiles(path.join(spool, 'dead')) >= 1, WAIT_MS);
    const behindMs = Date.now() - queuedAt;
    const dead = jsonFiles(path.join(spool, 'dead'));
    console.log(`550 for one buyer: ${sentBehind()} of ${BEHIND} queued behind it sent, ${behindMs} ms after the relay was back; ${dead} in the dead letters`);
    second.child.kill('SIGTERM');
    const secondExit = await second.exited;
    const leaked = [first.output(), second.output()].some((o) => o.includes('@example.com'));
    return {
      rows: [
        { what: `confirmations kept on disk through SIGTERM (hanging relay)`, target: `${ORDERS}/${ORDERS}`, measured: `${kept}/${ORDERS}`, ok: kept === ORDERS },
        { what: 'SIGTERM with the relay hanging: exit code, signal → exit', target: 'exit 0, < 10 s', measured: `exit ${exit.code}, ${stopMs} ms`, ok: exit.code === 0 && stopMs < 10_000 },
        { what: 'sent after the restart (working relay)', target: `${ORDERS}/${ORDERS}, none twice`, measured: `${arrived}/${ORDERS}, ${extra} twice`, ok: arrived === ORDERS && extra === 0 },
        { what: `sent of those queued behind a recipient refused with 550 (within ${WAIT_MS / 1000} s)`, target: `${BEHIND}/${BEHIND}`, measured: `${sentBehind()}/${BEHIND}, ${behindMs} ms after the relay was back`, ok: sentBehind() === BEHIND },
        { what: 'dead letters (the refused one)', target: '1', measured: String(dead), ok: dead === 1 },
        { what: 'second stop: exit code; addresses in the logs', target: 'exit 0; none', measured: `exit ${secondExit.code}; ${leaked ? 'FOUND' : 'none'}`, ok: secondExit.code === 0 && !leaked },
      ],
    };
  } finally {
    for (const shop of shops) if (shop.child.exitCode === null && shop.child.signalCode === null) shop.child.kill('SIGKILL');
    await relay.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};
export default scenario;
