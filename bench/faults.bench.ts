// Fault bench (docs/operations.md): re-runs the failures of the fault tests against the real shop processes.
//   1. kill -9 of one of two instances mid-drop, then 500 abandoned checkouts on the other:
//      time until every paid intent has an order or a refund (target ≤ 90 s);
//   2. 2,000 malformed requests: how many 5xx (target 0);
//   3. a 20 s database outage: 503 + Retry-After for what needs the database, browsing still served,
//      time to recover after the database is back (target ≤ 2 s).
// SIGTERM under 100 keep-alive clients is a test (scripts/start.test.ts).
// Usage: npm run bench:faults   (env: FAULTS_ABANDONED=500, FAULTS_PAID=12, FAULTS_OUTAGE_S=20)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../server/db/embedded-postgres';
import { migrateDatabase } from '../server/db/migrate';
import { mapLimit } from '../server/lib/map-limit';
import { seedCatalogue } from '../server/db/seed/seed';
import { products } from '../server/modules/catalog/catalog.tables';
import { checkouts } from '../server/modules/checkout/checkout.tables';
import { orders } from '../server/modules/orders/orders.tables';
import { offlineIntents } from '../server/modules/payments/payments.tables';
import { HttpShopper, spawnShop, waitHealthy, type ShopProcess } from '../tests/support/shop-process';

const ABANDONED = Number(process.env.FAULTS_ABANDONED ?? 500);
const PAID = Number(process.env.FAULTS_PAID ?? 12);
const OUTAGE_S = Number(process.env.FAULTS_OUTAGE_S ?? 20);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CUSTOMER = {
  email: 'bench@example.com',
  firstName: 'Bench',
  lastName: 'Shopper',
  phone: null,
  shippingAddress: '1 Fault Lane',
  shippingCity: 'Springfield',
  shippingState: 'IL',
  shippingZip: '62701',
  shippingCountry: 'US',
};

/** fn(0) … fn(n - 1), at most `limit` at once. */
const pool = <T>(n: number, limit: number, fn: (i: number) => Promise<T>): Promise<T[]> =>
  mapLimit(Array.from({ length: n }, (_, i) => i), limit, fn);

/** Shopper i: their own e-mail and address (each within the per-shopper limit), and their own card by expiry. */
const customerOf = (i: number) => ({ ...CUSTOMER, email: `bench${i}@example.com`, shippingAddress: `${i + 1} Fault Lane` });
const cardOf = (i: number) => ({ cardNumber: '4242 4242 4242 4242', expiry: `${String((i % 12) + 1).padStart(2, '0')}/${40 + Math.floor(i / 12)}`, cvc: '123' });

async function openCheckout(base: string, productId: string, i: number): Promise<{ shopper: HttpShopper; clientSecret: string; intentId: string } | null> {
  const shopper = new HttpShopper(base);
  const add = await shopper.call('POST', '/api/cart', { productId, quantity: 1, selectedSize: 'M', selectedColor: 'White' });
  if (add.status !== 200) return null;
  if ((await shopper.call('POST', '/api/customer-info', customerOf(i))).status !== 200) return null;
  const intent = await shopper.call('POST', '/api/create-payment-intent', {});
  if (intent.status !== 200) return null;
  return { shopper, clientSecret: String(intent.json.clientSecret), intentId: String(intent.json.paymentIntentId) };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-faults-'));
  let server: EmbeddedPostgres = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), durable: false });
  const database = await openDatabase({ databaseUrl: server.url, poolSize: 4 });
  await migrateDatabase(database);
  await seedCatalogue(database.db, dir, { art: false });
  const { db } = database;
  const newProduct = async (name: string, stock: number, editionSize: number) => {
    const [row] = await db
      .insert(products)
      .values({ name, priceCents: 4500, category: 'tshirts', stock, editionSize, sizes: ['M'], colors: [{ name: 'White', value: '#FFFFFF' }], images: [] })
      .returning({ id: products.id });
    return row!.id;
  };
  const dropId = await newProduct('Fault Drop Tee', 50, 50);
  const floodId = await newProduct('Flood Tee', 1000, 1000);

  // Every bench shopper comes from 127.0.0.1: per-address rate limits × 100 (per-session limits unchanged).
  const env = { DATABASE_URL: server.url, LOG_LEVEL: 'error', RATE_LIMIT_ADDRESS_FACTOR: '100' };
  const shops: ShopProcess[] = [];
  const start = async () => {
    const shop = await spawnShop({ dataDir: fs.mkdtempSync(path.join(dir, 'app-')), env });
    shops.push(shop);
    await waitHealthy(shop);
    return shop;
  };
  const [a, b] = await Promise.all([start(), start()]);
  const results: Record<string, unknown> = { abandoned: ABANDONED, paid: PAID };

  try {
    // ---- 1. kill -9 mid-drop ---------------------------------------------------------------------
    const opened = (await pool(PAID, 12, (i) => openCheckout(a!.base, dropId, i))).filter((x) => x !== null);
    // The cards go through while A is being killed: some confirms land, some never hear back.
    const confirms = opened.map((o, i) =>
      o.shopper
        .call('POST', '/api/payments/offline/confirm', { clientSecret: o.clientSecret, ...cardOf(i) })
        .catch(() => null),
    );
    await sleep(15);
    a!.child.kill('SIGKILL');
    const killedAt = Date.now();
    await Promise.all(confirms);
    // The provider charged every card (a real gateway keeps charging while the shop is down).
    for (const o of opened) await db.update(offlineIntents).set({ status: 'succeeded' }).where(eq(offlineIntents.id, o.intentId));
    const [{ n: ordersAtKill }] = await db.select({ n: sql<number>`count(*)::int` }).from(orders);
    // Within 2 s, ABANDONED shoppers open a checkout on B and walk away.
    const floodStarted = Date.now();
    const abandoned = (await pool(ABANDONED, 25, (i) => openCheckout(b!.base, floodId, PAID + i))).filter(Boolean).length;
    results.killMidDrop = { paidIntents: opened.length, ordersAtKill, abandonedOpened: abandoned, floodSeconds: (Date.now() - floodStarted) / 1000 };

    let settledAfterS: number | null = null;
    const ids = opened.map((o) => o.intentId);
    while (Date.now() - killedAt < 180_000) {
      const rows = await db.execute<{ id: string; order: string | null; refunded: number }>(sql`
        select i.id, o.order_number as order, i.refunded_amount as refunded
        from offline_payment_intents i left join orders o on o.stripe_payment_intent_id = i.id
        where i.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
      if (rows.rows.every((r) => r.order || r.refunded > 0)) {
        settledAfterS = (Date.now() - killedAt) / 1000;
        break;
      }
      await sleep(1000);
    }
    const [drop] = await db.select({ stock: products.stock, held: products.heldCount, sold: products.soldCount }).from(products).where(eq(products.id, dropId));
    const refunded = (await db.select().from(offlineIntents).where(sql`${offlineIntents.refundedAmount} > 0`)).length;
    const [{ n: ordersNow }] = await db.select({ n: sql<number>`count(*)::int` }).from(orders);
    results.killMidDrop = {
      ...(results.killMidDrop as object),
      everyPaidSettledAfterS: settledAfterS,
      orders: ordersNow,
      refunds: refunded,
      dropProduct: { ...drop, total: drop!.stock + drop!.held + drop!.sold },
      abandonedCheckoutsInDb: (await db.select({ n: sql<number>`count(*)::int` }).from(checkouts).where(eq(checkouts.status, 'open')))[0]!.n,
    };
    console.log('kill -9 mid-drop:', JSON.stringify(results.killMidDrop));

    // ---- 2. 2,000 malformed requests -------------------------------------------------------------
    const base = b!.base;
    const NUL = '\u0000';
    const shopper = new HttpShopper(base);
    await shopper.call('POST', '/api/customer-info', CUSTOMER);
    const raw = (method: string, url: string, body?: string | Uint8Array, type = 'application/json') =>
      fetch(base + url, { method, headers: { origin: base, 'content-type': type }, body: body as BodyInit | undefined }).then((r) => r.status, () => -1);
    const shapes: Array<(i: number) => Promise<number>> = [
      () => raw('GET', `/api/categories/%00`),
      (i) => raw('GET', `/api/products/${i}%00`),
      () => raw('GET', `/api/products?q=%00`),
      () => raw('GET', `/api/products/%`),
      () => raw('GET', `/category/%ED%A0%80`),
      (i) => raw('POST', '/api/customer-info', JSON.stringify({ ...CUSTOMER, shippingAddress: `x${NUL}${i}` })),
      () => raw('POST', '/api/customer-info', JSON.stringify({ ...CUSTOMER, email: '\uD800@x.org' })),
      () => raw('POST', '/api/validate-discount', JSON.stringify({ code: `A${NUL}` })),
      () => raw('POST', '/api/calculate-shipping', JSON.stringify({ discountCode: NUL, shippingMethod: 'teleport' })),
      () => raw('POST', '/api/payment-success', JSON.stringify({ paymentIntentId: `pi_${NUL}` })),
      () => raw('POST', '/api/payments/offline/confirm', JSON.stringify({ clientSecret: NUL, cardNumber: '4242', expiry: '1', cvc: NUL })),
      () => raw('POST', '/api/cart', '{"productId": '),
      () => raw('POST', '/api/cart', '{"__proto__": {"x": 1}}'),
      () => raw('POST', '/api/cart', JSON.stringify({ productId: 'not-a-uuid', quantity: 1e308 })),
      () => raw('POST', '/api/cart', JSON.stringify([1, 2, 3])),
      () => raw('POST', '/api/cart', new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
      () => raw('POST', '/api/cart', 'productId=1', 'application/x-www-form-urlencoded'),
      () => raw('PUT', `/api/cart/${NUL}`, JSON.stringify({ quantity: -1 })),
      () => raw('POST', '/api/newsletter', JSON.stringify({ email: 'x'.repeat(100_000) })),
      () => raw('POST', '/api/admin/login', JSON.stringify({ password: NUL })),
    ];
    const statuses = await pool(2000, 20, (i) => shapes[i % shapes.length]!(i));
    const byStatus: Record<string, number> = {};
    for (const s of statuses) byStatus[s] = (byStatus[s] ?? 0) + 1;
    results.malformed = { requests: statuses.length, fiveXX: statuses.filter((s) => s >= 500 || s < 0).length, byStatus };
    console.log('2,000 malformed requests:', JSON.stringify(results.malformed));

    // ---- 3. database outage --------------------------------------------------------------------
    await new HttpShopper(base).call('GET', '/api/products');
    await database.close(); // the bench's own connection (it stops the server below)
    const outage = { browse: {} as Record<string, number>, write: {} as Record<string, number>, withRetryAfter: 0, health: {} as Record<string, number>, maxBrowseMs: 0, maxWriteMs: 0, maxHealthMs: 0 };
    const count = (m: Record<string, number>, k: number) => (m[k] = (m[k] ?? 0) + 1);
    await server.stop();
    const outageStart = Date.now();
    while (Date.now() - outageStart < OUTAGE_S * 1000) {
      const t0 = Date.now();
      const browse = await fetch(`${base}/api/products`).then((r) => r.status, () => -1);
      outage.maxBrowseMs = Math.max(outage.maxBrowseMs, Date.now() - t0);
      count(outage.browse, browse);
      const t1 = Date.now();
      // Saving shipping details needs the database (it creates the session and writes the row).
      const write = await fetch(`${base}/api/customer-info`, { method: 'POST', headers: { origin: base, 'content-type': 'application/json' }, body: JSON.stringify(CUSTOMER) }).then(async (r) => {
        if (r.headers.get('retry-after')) outage.withRetryAfter++;
        await r.text();
        return r.status;
      }, () => -1);
      outage.maxWriteMs = Math.max(outage.maxWriteMs, Date.now() - t1);
      count(outage.write, write);
      const t2 = Date.now();
      count(outage.health, await fetch(`${base}/healthz`).then((r) => r.status, () => -1));
      outage.maxHealthMs = Math.max(outage.maxHealthMs, Date.now() - t2);
      await sleep(200);
    }
    server = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), durable: false });
    const back = Date.now();
    let recoveredMs: number | null = null;
    while (Date.now() - back < 30_000) {
      const s = await fetch(`${base}/api/customer-info`, { method: 'POST', headers: { origin: base, 'content-type': 'application/json' }, body: JSON.stringify(CUSTOMER) }).then((r) => r.status, () => -1);
      if (s === 200) {
        recoveredMs = Date.now() - back;
        break;
      }
      await sleep(50);
    }
    results.outage = { seconds: OUTAGE_S, ...outage, recoveredMs };
    console.log('database outage:', JSON.stringify(results.outage));
  } finally {
    for (const s of shops) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all(shops.map((s) => s.exited));
    await server.stop().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(results, null, 2));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
