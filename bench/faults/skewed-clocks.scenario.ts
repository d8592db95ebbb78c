// Skewed clocks through a waiting-room drop (ADR 010 amendment, "One clock"): three shop instances on one
// PostgreSQL whose own clocks run 60 s behind, right and 60 s ahead (TEST_CLOCK_OFFSET_MS, refused in
// production). Every shopper joins in the raffle, is let in, and takes each later step on another
// instance: the pass, the cart add, the payment intent, the payment. Half pay; the other half leave their
// hold (HOLD_MINUTES 0.5: 30 s), which an instance trusting its own clock 60 s ahead would release at once.
// Counted: admitted shoppers refused at the pass, the cart add or the payment intent (target 0), and holds
// released before their deadline (target 0); also how long after its deadline each lapsed hold came back.
// TEST_CLOCK_OFFSET_MS skews the instance's drop-day clock (server/lib/db-clock.ts), not the process's
// whole clock: a decision made on Date.now() directly would not be caught here.
// Usage: npx tsx bench/faults-more.bench.ts skewed
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Scenario } from '../scenario-runner';
import { openDatabase, type Database } from '../../server/db/client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../server/db/embedded-postgres';
import { migrateDatabase } from '../../server/db/migrate';
import { seedCatalogue } from '../../server/db/seed/seed';
import { CATALOG_CHANNEL } from '../../server/modules/catalog/catalog-changes';
import { Browser } from '../support/shop-scenario';
import { spawnShop, waitHealthy, type ShopProcess } from '../../tests/support/shop-process';

const SHOPPERS = Number(process.env.SKEW_SHOPPERS ?? 45);
const PIECES = 60;
const OFFSETS_MS = [-60_000, 0, 60_000];
const HOLD_MINUTES = 0.5;
const RELEASE_IN_S = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The browser lives in bench/support/shop-scenario.ts; over-admission.scenario.ts imports it from here.
export { Browser };

/** Shipping details of shopper `n` (their own e-mail and address: each within the per-shopper limit). */
export const infoOf = (n: number) => ({
  email: `shopper-${n}@example.com`,
  firstName: 'Bench',
  lastName: `Shopper ${n}`,
  phone: '+1 555 0100',
  shippingAddress: `${n + 1} Clock Street`,
  shippingCity: 'Springfield',
  shippingState: 'IL',
  shippingZip: '62701',
  shippingCountry: 'US',
});

/** A succeeding offline test card of shopper `n`'s own (the expiry and CVC differ). */
export const cardOf = (n: number) => ({
  cardNumber: '4242 4242 4242 4242',
  expiry: `${String((n % 12) + 1).padStart(2, '0')}/${40 + (Math.floor(n / 12) % 50)}`,
  cvc: String(100 + (n % 900)),
});

export interface DropShops {
  shops: ShopProcess[];
  db: Database;
  q: <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => Promise<T[]>;
  /** A drop of `pieces` pieces (no sizes, 1 per shopper), released `releaseInS` s from now by the database's clock. */
  createDrop(pieces: number, releaseInS: number, name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A throwaway embedded PostgreSQL, migrated and seeded, and one shop process (the compiled server, offline
 * gateway) per entry of `envs`, all on it with one session secret (any instance reads any cookie).
 */
export async function startDropShops(label: string, envs: Array<Record<string, string>>): Promise<DropShops> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fifty-${label}-`));
  const server: EmbeddedPostgres = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), durable: false });
  const shops: ShopProcess[] = [];
  let database: Database | null = null;
  const close = async () => {
    for (const s of shops) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all(shops.map((s) => s.exited));
    await database?.close().catch(() => undefined);
    await server.stop().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    database = await openDatabase({ databaseUrl: server.url, poolSize: 4 });
    await migrateDatabase(database);
    await seedCatalogue(database.db, dir, { art: false });
    const secret = crypto.randomBytes(32).toString('hex');
    for (const [i, extra] of envs.entries()) {
      const shop = await spawnShop({
        dataDir: fs.mkdtempSync(path.join(dir, `app-${i}-`)),
        env: { DATABASE_URL: server.url, SESSION_SECRET: secret, RATE_LIMIT_ADDRESS_FACTOR: '100', POW_TRIES: '20', LOG_LEVEL: 'warn', ...extra },
      });
      shops.push(shop);
    }
    await Promise.all(shops.map((s) => waitHealthy(s, 180_000)));
  } catch (err) {
    await close();
    throw err;
  }
  const db = database;
  const q = async <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => (await db.db.execute<T>(query)).rows as T[];
  return {
    shops,
    db,
    q,
    async createDrop(pieces, releaseInS, name) {
      const [row] = await q<{ id: string }>(sql`
        insert into products (name, price, category, stock, edition_size, sizes, colors, images, release_at, max_per_shopper)
        values (${name}, '50.00', 'tshirts', ${pieces}, ${pieces}, '[]', '[]', '[]', now() + ${`${releaseInS} seconds`}::interval, 1)
        returning id`);
      // Every instance hears of the new product (as when the owner creates it).
      await q(sql`select pg_notify(${CATALOG_CHANNEL}, 'bench')`);
      await sleep(500);
      return row!.id;
    },
    close,
  };
}

const scenario: Scenario = async () => {
  const env = await startDropShops(
    'skewed-clocks',
    OFFSETS_MS.map((ms) => ({ TEST_CLOCK_OFFSET_MS: String(ms), HOLD_MINUTES: String(HOLD_MINUTES) })),
  );
  try {
    const bases = env.shops.map((s) => s.base);
    const on = (n: number) => bases[((n % 3) + 3) % 3]!;
    const id = await env.createDrop(PIECES, RELEASE_IN_S, 'Skewed Clock Tee');

    const statuses = new Map<number, number>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    const refused: Record<string, number> = { pass: 0, cart: 0, intent: 0 };
    const refusals: string[] = [];
    const outcome: Record<string, number> = {};
    const tally = (r: string) => (outcome[r] = (outcome[r] ?? 0) + 1);

    async function shopper(n: number): Promise<void> {
      // Every shopper joins in the raffle (through the instance n % 3), a little spread out.
      await sleep(Math.random() * 5000);
      const b = new Browser(`198.51.${100 + Math.floor(n / 250)}.${(n % 250) + 1}`, count);
      const joined = await b.join(on(n), id);
      if (joined.status !== 201) return void tally(`join ${joined.status}`);
      const last = await b.follow(on(n + 1), id, (st) => {
        const t = st.ticket as { status?: string } | null;
        return t?.status === 'admitted' || t?.status === 'sold_out' || st.phase === 'ended';
      });
      const ticket = (last?.ticket as { status?: string } | null)?.status;
      if (ticket !== 'admitted') return void tally(last ? `not admitted: ${String(last.phase)}/${ticket}` : 'no answer');
      // Each step on another instance than the one before.
      const pass = await b.call(on(n + 2), 'POST', `/api/drops/${id}/pass`);
      if (pass.status !== 200) {
        refused.pass!++;
        refusals.push(`pass ${pass.status} on ${OFFSETS_MS[(n + 2) % 3]} ms: ${JSON.stringify(pass.json)}`);
        return void tally('refused');
      }
      const add = await b.call(on(n), 'POST', '/api/cart', { productId: id, quantity: 1 });
      if (add.status !== 200) {
        refused.cart!++;
        refusals.push(`cart ${add.status} on ${OFFSETS_MS[n % 3]} ms: ${JSON.stringify(add.json)}`);
        return void tally('refused');
      }
      const info = await b.call(on(n + 1), 'POST', '/api/customer-info', infoOf(n));
      if (info.status !== 200) return void tally(`info ${info.status}`);
      const intent = await b.call(on(n + 2), 'POST', '/api/create-payment-intent', {});
      if (intent.status !== 200) {
        refused.intent!++;
        refusals.push(`intent ${intent.status} on ${OFFSETS_MS[(n + 2) % 3]} ms: ${JSON.stringify(intent.json)}`);
        return void tally('refused');
      }
      // The odd ones walk away holding their piece (its hold lapses in 30 s by the database's clock).
      if (n % 2 === 1) return void tally('left a hold');
      const confirm = await b.call(on(n), 'POST', '/api/payments/offline/confirm', { clientSecret: intent.json.clientSecret, ...cardOf(n) });
      if (confirm.status !== 200) return void tally(`confirm ${confirm.status}`);
      const done = await b.call(on(n + 1), 'POST', '/api/payment-success', { paymentIntentId: intent.json.paymentIntentId });
      tally(done.status === 200 ? 'order' : `payment-success ${done.status}`);
    }

    const started = Date.now();
    await Promise.all(Array.from({ length: SHOPPERS }, (_, n) => shopper(n)));
    const shoppingS = (Date.now() - started) / 1000;

    // The left holds lapse 30 s after they were taken; each instance's expiry job runs every 15 s.
    type Hold = { id: string; status: string; expires: Date; updated: Date; now: Date };
    const holds = () =>
      env.q<Hold>(sql`
        select id, status, hold_expires_at as expires, updated_at as updated, now() as now from checkouts
        where lines @> ${JSON.stringify([{ productId: id }])}::jsonb and status <> 'fulfilled'`);
    const seenEarly = new Set<string>();
    const deadline = Date.now() + HOLD_MINUTES * 60_000 + 45_000;
    let rows = await holds();
    while (Date.now() < deadline) {
      rows = await holds();
      // Released (expired) while the database's clock is still before its deadline: released early.
      for (const r of rows) if (r.status !== 'open' && new Date(r.now) < new Date(r.expires)) seenEarly.add(r.id);
      if (rows.every((r) => r.status !== 'open')) break;
      await sleep(250);
    }
    // The shop stamps updated_at with its own clock when it releases; on this one machine that is the database's.
    const released = rows.filter((r) => r.status === 'expired');
    const early = released.filter((r) => new Date(r.updated) < new Date(r.expires) || seenEarly.has(r.id)).length;
    const lateS = released.map((r) => (new Date(r.updated).getTime() - new Date(r.expires).getTime()) / 1000);
    const [state] = await env.q<{ stock: number; held: number; sold: number }>(
      sql`select stock, held_count as held, sold_count as sold from products where id = ${id}`,
    );
    const fiveXx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    const admitted = SHOPPERS - Object.entries(outcome).filter(([k]) => /^(join|not admitted|no answer)/.test(k)).reduce((n, [, c]) => n + c, 0);
    console.log('outcomes:', outcome, 'statuses:', Object.fromEntries(statuses), `shopping ${shoppingS.toFixed(1)} s`);
    if (refusals.length) console.log('refusals:', refusals.slice(0, 10));
    if (outcome['no answer']) for (const s of env.shops) console.log(s.output().slice(-2000));
    const refusedTotal = refused.pass! + refused.cart! + refused.intent!;
    return {
      rows: [
        {
          what: `shoppers let in (${SHOPPERS} joined through instances at ${OFFSETS_MS.map((o) => `${o / 1000} s`).join(' / ')})`,
          target: `all ${SHOPPERS}`,
          measured: `${admitted}`,
          ok: admitted === SHOPPERS,
        },
        {
          what: 'admitted shoppers refused at the pass / cart add / payment intent (each step on another instance)',
          target: '0',
          measured: `${refusedTotal} (${refused.pass} / ${refused.cart} / ${refused.intent})`,
          ok: refusedTotal === 0,
        },
        { what: 'orders (every even shopper pays)', target: `${Math.ceil(SHOPPERS / 2)}`, measured: `${outcome.order ?? 0}`, ok: (outcome.order ?? 0) === Math.ceil(SHOPPERS / 2) },
        {
          what: `holds released before their deadline (${outcome['left a hold'] ?? 0} left, ${HOLD_MINUTES * 60} s each)`,
          target: '0',
          measured: `${early}`,
          ok: early === 0,
        },
        {
          what: 'left holds released after their deadline (expiry job every 15 s on each instance)',
          target: `all ${outcome['left a hold'] ?? 0}, within 20 s`,
          measured: `${released.length}, ${lateS.length ? `${Math.min(...lateS).toFixed(1)}–${Math.max(...lateS).toFixed(1)} s late` : '—'}; stock ${state!.stock} + held ${state!.held} + sold ${state!.sold}`,
          ok: released.length === (outcome['left a hold'] ?? 0) && lateS.every((s) => s >= 0 && s <= 20),
        },
        { what: '5xx answers', target: '0', measured: `${fiveXx}`, ok: fiveXx === 0 },
      ],
    };
  } finally {
    await env.close();
  }
};

export default scenario;
