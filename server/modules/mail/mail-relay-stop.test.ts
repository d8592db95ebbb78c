// The shop as `npm start` runs it in production with an SMTP relay that
// accepts the connection and never answers: every order confirmation is on disk before the order's answer,
// SIGTERM still ends in exit 0 (not the forced exit 1 of a stop that waited on the relay), and after a restart
// with a working relay every confirmation arrives exactly once. A fault test (scripts/test.mjs FAULT_TESTS).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { customer } from '../../../tests/support/shop-fixtures';
import { freePort, HttpShopper, spawnShop, waitHealthy, type ShopProcess } from '../../../tests/support/shop-process';
import { smtpServer } from '../../../tests/support/smtp-server';

const ORDERS = 18;
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Listed {
  id: string;
  stock: number;
  sizes?: string[];
  colors?: Array<{ name: string }>;
}

async function buy(base: string, product: Listed, i: number): Promise<string> {
  const shopper = new HttpShopper(base);
  const call = async (method: string, url: string, body?: unknown) => {
    const r = await shopper.call(method, url, body);
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };
  await call('POST', '/api/cart', { productId: product.id, quantity: 1, selectedSize: product.sizes![0], selectedColor: product.colors?.[0]?.name ?? null });
  await call('POST', '/api/customer-info', customer({ email: `buyer${i}@example.com`, shippingAddress: `${i + 1} Relay Lane` }));
  const intent = await call('POST', '/api/create-payment-intent', {});
  await call('POST', '/api/payments/offline/confirm', {
    clientSecret: intent.clientSecret,
    cardNumber: '4242 4242 4242 4242',
    expiry: `${String((i % 12) + 1).padStart(2, '0')}/${40 + Math.floor(i / 12)}`,
    cvc: '123',
  });
  return String((await call('POST', '/api/payment-success', { paymentIntentId: intent.paymentIntentId })).orderNumber);
}

test(`a relay that hangs: ${ORDERS} confirmations kept through SIGTERM (exit 0), all sent exactly once after a restart`, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-mail-relay-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const smtpPort = await freePort();
  const hung = await smtpServer(smtpPort, { hang: true });
  cleanups.push(() => hung.close());
  const port = await freePort();
  const env = {
    NODE_ENV: 'production',
    PAYMENTS: 'offline',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    DEMO_DATA: 'true',
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'info',
  };
  const start = async (): Promise<ShopProcess> => {
    const shop = await spawnShop({ dataDir, port, env });
    cleanups.push(() => void (shop.child.exitCode === null && shop.child.kill('SIGKILL')));
    await waitHealthy(shop);
    return shop;
  };

  const first = await start();
  // The demo catalogue (DEMO_DATA=true: production seeds none by default); the product with the most pieces.
  const products = (await (await fetch(`${first.base}/api/products`)).json()) as Listed[];
  const product = products.filter((p) => (p.sizes ?? []).length > 0).sort((a, b) => b.stock - a.stock)[0]!;
  expect(product.stock).toBeGreaterThanOrEqual(ORDERS);
  const orderNumbers = await Promise.all(Array.from({ length: ORDERS }, (_, i) => buy(first.base, product, i)));

  // Every confirmation is in the spool once its order was answered.
  const spool = path.join(dataDir, 'mail-queue');
  const spooled = () => (fs.existsSync(spool) ? fs.readdirSync(spool).filter((f) => f.endsWith('.json')) : []);
  expect(spooled()).toHaveLength(ORDERS);

  first.child.kill('SIGTERM');
  const exit = await first.exited;
  // Exit 0 is the ordered stop; the forced stop (FORCE_MS, server/main.ts) exits 1.
  expect(exit, first.output()).toEqual({ code: 0, signal: null });
  expect(spooled()).toHaveLength(ORDERS);
  expect(first.output()).not.toContain('@example.com');

  await hung.close();
  const smtp = await smtpServer(smtpPort);
  cleanups.push(() => smtp.close());
  const second = await start();
  await expect.poll(() => smtp.received.length, { timeout: 30_000 }).toBe(ORDERS);
  await expect.poll(() => spooled().length, { timeout: 10_000 }).toBe(0);
  second.child.kill('SIGTERM');
  expect((await second.exited).code, second.output()).toBe(0);
  const subjects = smtp.received.map((m) => /^Subject: (.*)$/m.exec(m)?.[1] ?? '?');
  for (const n of orderNumbers) expect(subjects.filter((s) => s.includes(`order ${n} confirmed`)), n).toHaveLength(1);
  expect(smtp.received).toHaveLength(ORDERS);
  expect(second.output()).not.toContain('@example.com');
});
