import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { formatMoney } from '../../common/domain/money';
import { openDatabase, type Database } from './client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { migrationsFolder } from './migrate';

/**
 * Migration 0020 turns every numeric(10,2) dollar column into bigint cents (docs/decisions/016-money-minor-units.md).
 * A database migrated to 0019 and filled with products, checkouts, orders and a discount code is migrated on
 * to 0020: every amount and every total reads the same afterwards, to the cent, on the wire as in SQL.
 */
let dir: string;
let server: EmbeddedPostgres;
let database: Database;

/** A copy of the migrations folder whose journal stops at `lastIdx`. */
function migrationsUpTo(lastIdx: number): string {
  const folder = path.join(dir, `migrations-${lastIdx}`);
  fs.cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((e) => e.idx <= lastIdx);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

const migrateTo = (lastIdx: number) => migrate(drizzle(database.pool), { migrationsFolder: migrationsUpTo(lastIdx) });
const query = async <T>(text: string, values: unknown[] = []) => (await database.pool.query(text, values)).rows as T[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-money-migration-'));
  server = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), durable: false });
  database = await openDatabase({ databaseUrl: server.url, poolSize: 2 });
}, 60_000);

afterAll(async () => {
  await database?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// Amounts chosen to catch float or rounding slips: a cent, 0.10, x.95/x.99 and the largest the admin takes.
const PRICES: Array<[string, string | null]> = [
  ['0.01', null],
  ['19.99', '14.95'],
  ['45.00', null],
  ['0.10', '0.07'],
  ['99999999.99', '12345678.91'],
];
const TOTALS: Array<{ subtotal: string; discount: string; shipping: string; tax: string; total: string }> = [
  { subtotal: '90.00', discount: '13.50', shipping: '0.00', tax: '0.00', total: '76.50' },
  { subtotal: '19.99', discount: '0.00', shipping: '8.99', tax: '1.65', total: '30.63' },
  { subtotal: '0.01', discount: '0.00', shipping: '0.00', tax: '0.00', total: '0.01' },
  { subtotal: '33.33', discount: '5.00', shipping: '15.99', tax: '2.34', total: '46.66' },
  { subtotal: '21474836.47', discount: '0.00', shipping: '0.00', tax: '0.00', total: '21474836.47' },
];

test('0019 → 0020: every price, line price and total is the same amount in cents', async () => {
  await migrateTo(19);

  await query(`insert into categories (slug, name) values ('tshirts', 'T-Shirts')`);
  await query(`insert into discount_codes (code, discount_percent, max_usage) values ('FALL15', 15, null)`);
  for (const [i, [price, sale]] of PRICES.entries()) {
    await query(`insert into products (name, price, sale_price, category, stock) values ($1, $2, $3, 'tshirts', 1)`, [
      `Money Tee ${i}`,
      price,
      sale,
    ]);
  }
  const customer = { email: 'a@example.com', firstName: 'A', lastName: 'B', phone: null, shippingAddress: '1 Road',
    shippingCity: 'C', shippingState: 'IL', shippingZip: '60601', shippingCountry: 'US' };
  for (const [i, t] of TOTALS.entries()) {
    const [co] = await query<{ id: string }>(
      `insert into checkouts (session_id, payment_intent_id, status, lines, customer, shipping_method, subtotal, discount_code,
         discount_amount, shipping, tax, total, amount_cents, hold_expires_at)
       values ($1, $2, 'fulfilled', '[]', $3, 'standard', $4, $5, $6, $7, $8, $9, $10, now()) returning id`,
      [`s${i}`, `pi_money_${i}`, customer, t.subtotal, t.discount === '0.00' ? null : 'FALL15', t.discount, t.shipping, t.tax, t.total,
        Math.round(Number(t.total) * 100)],
    );
    const [order] = await query<{ id: string }>(
      `insert into orders (order_number, session_id, checkout_id, stripe_payment_intent_id, customer_email, customer_first_name,
         customer_last_name, shipping_address, shipping_city, shipping_state, shipping_zip, subtotal, discount_code,
         discount_amount, tax, shipping, total)
       values ($1, $2, $3, $4, 'a@example.com', 'A', 'B', '1 Road', 'C', 'IL', '60601', $5, $6, $7, $8, $9, $10) returning id`,
      [`FIFTY-MONEY${i}`, `s${i}`, co!.id, `pi_money_${i}`, t.subtotal, t.discount === '0.00' ? null : 'FALL15', t.discount, t.tax,
        t.shipping, t.total],
    );
    await query(`insert into order_items (order_id, product_name, product_price, quantity) values ($1, 'Money Tee', $2, 2)`, [
      order!.id,
      PRICES[i]![0],
    ]);
  }
  // An order written with the columns' defaults (discount, tax and shipping 0).
  await query(
    `insert into orders (order_number, session_id, stripe_payment_intent_id, customer_email, customer_first_name, customer_last_name,
       shipping_address, shipping_city, shipping_state, shipping_zip, subtotal, total)
     values ('FIFTY-DEFAULTS', 'sd', 'pi_money_defaults', 'a@example.com', 'A', 'B', '1 Road', 'C', 'IL', '60601', '45.00', '45.00')`,
  );

  // Before: every amount as PostgreSQL prints it, and the sums the admin and reconciliation would see.
  const productsBefore = await query<{ name: string; price: string; sale_price: string | null }>(
    `select name, price::text, sale_price::text from products order by name`,
  );
  const ordersBefore = await query<Record<string, string>>(
    `select order_number, subtotal::text, discount_amount::text, tax::text, shipping::text, total::text from orders order by order_number`,
  );
  const checkoutsBefore = await query<Record<string, string>>(
    `select payment_intent_id, subtotal::text, discount_amount::text, shipping::text, tax::text, total::text, amount_cents
       from checkouts order by payment_intent_id`,
  );
  const itemsBefore = await query<{ product_price: string }>(`select product_price::text from order_items order by product_price`);
  const [sumsBefore] = await query<Record<string, string>>(
    `select (select sum(total)::text from orders) as orders, (select sum(total)::text from checkouts) as checkouts,
            (select sum(product_price * quantity)::text from order_items) as items`,
  );

  await migrateTo(20);

  const productsAfter = await query<{ name: string; price_cents: string; sale_price_cents: string | null }>(
    `select name, price_cents, sale_price_cents from products order by name`,
  );
  expect(productsAfter.map((p) => [p.name, formatMoney(Number(p.price_cents)), p.sale_price_cents === null ? null : formatMoney(Number(p.sale_price_cents))]))
    .toEqual(productsBefore.map((p) => [p.name, p.price, p.sale_price]));
  expect(productsAfter.find((p) => p.name === 'Money Tee 4')!.price_cents).toBe('9999999999');

  const ordersAfter = await query<Record<string, string>>(
    `select order_number, subtotal_cents, discount_amount_cents, tax_cents, shipping_cents, total_cents from orders order by order_number`,
  );
  expect(
    ordersAfter.map((o) => ({
      order_number: o.order_number,
      subtotal: formatMoney(Number(o.subtotal_cents)),
      discount_amount: formatMoney(Number(o.discount_amount_cents)),
      tax: formatMoney(Number(o.tax_cents)),
      shipping: formatMoney(Number(o.shipping_cents)),
      total: formatMoney(Number(o.total_cents)),
    })),
  ).toEqual(ordersBefore);

  const checkoutsAfter = await query<Record<string, string>>(
    `select payment_intent_id, subtotal_cents, discount_amount_cents, shipping_cents, tax_cents, total_cents, amount_cents
       from checkouts order by payment_intent_id`,
  );
  expect(
    checkoutsAfter.map((c) => ({
      payment_intent_id: c.payment_intent_id,
      subtotal: formatMoney(Number(c.subtotal_cents)),
      discount_amount: formatMoney(Number(c.discount_amount_cents)),
      shipping: formatMoney(Number(c.shipping_cents)),
      tax: formatMoney(Number(c.tax_cents)),
      total: formatMoney(Number(c.total_cents)),
      amount_cents: Number(c.amount_cents),
    })),
  ).toEqual(checkoutsBefore);
  // The charged amount and the recorded total are one number now.
  for (const c of checkoutsAfter) expect(c.amount_cents).toBe(c.total_cents);

  const itemsAfter = await query<{ product_price_cents: string }>(`select product_price_cents from order_items order by product_price_cents`);
  expect(itemsAfter.map((i) => formatMoney(Number(i.product_price_cents)))).toEqual(itemsBefore.map((i) => i.product_price));

  const [sumsAfter] = await query<Record<string, string>>(
    `select (select sum(total_cents) from orders) as orders, (select sum(total_cents) from checkouts) as checkouts,
            (select sum(product_price_cents * quantity) from order_items) as items`,
  );
  expect({
    orders: formatMoney(Number(sumsAfter!.orders)),
    checkouts: formatMoney(Number(sumsAfter!.checkouts)),
    items: formatMoney(Number(sumsAfter!.items)),
  }).toEqual(sumsBefore);

  // The columns are bigint cents, defaults kept (0), and a negative amount is refused.
  const types = await query<{ table_name: string; column_name: string; data_type: string; column_default: string | null }>(
    `select table_name, column_name, data_type, column_default from information_schema.columns
      where table_schema = 'public' and column_name like '%\\_cents' order by table_name, column_name`,
  );
  expect(types.every((c) => c.data_type === 'bigint')).toBe(true);
  expect(types.map((c) => `${c.table_name}.${c.column_name}`)).toEqual([
    'checkouts.amount_cents',
    'checkouts.discount_amount_cents',
    'checkouts.shipping_cents',
    'checkouts.subtotal_cents',
    'checkouts.tax_cents',
    'checkouts.total_cents',
    'order_items.product_price_cents',
    'orders.discount_amount_cents',
    'orders.shipping_cents',
    'orders.subtotal_cents',
    'orders.tax_cents',
    'orders.total_cents',
    'products.price_cents',
    'products.sale_price_cents',
  ]);
  expect(types.find((c) => c.table_name === 'orders' && c.column_name === 'tax_cents')!.column_default).toBe('0');
  const [defaults] = await query<Record<string, string>>(
    `select discount_amount_cents, tax_cents, shipping_cents from orders where order_number = 'FIFTY-DEFAULTS'`,
  );
  expect(defaults).toEqual({ discount_amount_cents: '0', tax_cents: '0', shipping_cents: '0' });
  await expect(query(`update products set price_cents = -1 where name = 'Money Tee 0'`)).rejects.toMatchObject({
    constraint: 'products_price_cents_non_negative',
  });
  await expect(query(`update orders set total_cents = -1 where order_number = 'FIFTY-DEFAULTS'`)).rejects.toMatchObject({
    constraint: 'orders_total_cents_non_negative',
  });
}, 120_000);
