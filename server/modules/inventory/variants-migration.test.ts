import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { migrationsFolder } from '../../db/migrate';

/**
 * Migration 0021 (ADR 015) on a copy of a shop with orders: a database built at migration 0019 (before
 * money in minor units and size runs) gets products mid-drop — pieces on the shelf, held by open
 * checkouts, sold in orders, released and consumed holds — then every later migration runs. No piece
 * may be lost: each product gets one "one run" variant carrying exactly its stock, held and sold
 * counts, and every hold points at its product's variant.
 */
const BUILT_AT = 19;

let dir: string;
let admin: pg.Client;
let client: pg.Client;
let name: string;

async function migrateUpTo(db: pg.Client, lastIdx: number) {
  // The migrator applies what its journal lists: a copy of the folder whose journal stops at lastIdx.
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: Array<{ idx: number; tag: string }>;
  };
  const entries = journal.entries.filter((e) => e.idx <= lastIdx);
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries)
    fs.copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  await migrate(drizzle(db), { migrationsFolder: dir });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-variants-migration-'));
  name = `fifty_variants_mig_${crypto.randomBytes(5).toString('hex')}`;
  admin = new pg.Client({ connectionString: inject('testDatabaseUrl') });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(inject('testDatabaseUrl'));
  url.pathname = `/${name}`;
  client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await admin?.query(`drop database if exists ${name} with (force)`);
  await admin?.end();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Totals {
  id: string;
  stock: number;
  held_count: number;
  sold_count: number;
  edition_size: number;
}

test('0021 on a shop with orders and open holds: one "one run" per product, no piece lost, every hold has its variant', async () => {
  await migrateUpTo(client, BUILT_AT);
  const q = <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    client.query<T>(text, values).then((r) => r.rows);

  await q(
    `insert into categories (slug, name) values ('tshirts', 'T-Shirts'), ('accessories', 'Accessories')`,
  );
  // Mid-drop tee: 23 on the shelf, 3 held by two open checkouts, 24 sold (two of them in the orders below).
  // Deck: sold out (48 sold, 2 held). Socks: untouched, 50 on the shelf. Cap: edition room left (stock 10 of 50).
  const ids: string[] = [];
  for (const [pname, category, stock, held, sold, sizes] of [
    ['Concrete Bloom Tee', 'tshirts', 23, 3, 24, '["XS","S","M","L","XL","XXL"]'],
    ['Kerb Deck', 'accessories', 0, 2, 48, '["7.5\\"","8.0\\""]'],
    ['Ground Control Socks', 'accessories', 50, 0, 0, '["One Size"]'],
    ['Offcut Cap', 'accessories', 10, 0, 5, '["One Size"]'],
  ] as const) {
    const [row] = await q<{ id: string }>(
      `insert into products (name, price, category, stock, held_count, sold_count, sizes, sold_out_at)
       values ($1, '45.00', $2, $3, $4, $5, $6::jsonb, case when $5::int = 50 then now() end) returning id`,
      [pname, category, stock, held, sold, sizes],
    );
    ids.push(row!.id);
  }
  const [tee, deck, socks, cap] = ids;

  const checkout = async (status: string) => {
    const [row] = await q<{ id: string }>(
      `insert into checkouts (session_id, status, lines, customer, shipping_method, subtotal, total, amount_cents, hold_expires_at)
       values ($1, $2, '[]', '{}', 'standard', '45.00', '45.00', 4500, now() + interval '10 minutes') returning id`,
      [crypto.randomUUID(), status],
    );
    return row!.id;
  };
  const open1 = await checkout('open');
  const open2 = await checkout('open');
  const paid = await checkout('fulfilled');
  const gone = await checkout('expired');
  const holds: Array<[string, string, number, string]> = [
    [open1, tee!, 2, 'held'],
    [open2, tee!, 1, 'held'],
    [open2, deck!, 2, 'held'],
    [paid, tee!, 2, 'consumed'],
    [gone, socks!, 1, 'released'],
  ];
  for (const [checkoutId, productId, quantity, status] of holds)
    await q(`insert into stock_holds (checkout_id, product_id, quantity, status) values ($1, $2, $3, $4)`, [
      checkoutId,
      productId,
      quantity,
      status,
    ]);

  const [order] = await q<{ id: string }>(
    `insert into orders (order_number, session_id, checkout_id, stripe_payment_intent_id, customer_email, customer_first_name,
       customer_last_name, shipping_address, shipping_city, shipping_state, shipping_zip, subtotal, total, status)
     values ('FIF-0001', 's', $1, 'pi_1', 'a@example.com', 'Ada', 'L', '1 Main St', 'Town', 'CA', '90001', '90.00', '98.99', 'confirmed')
     returning id`,
    [paid],
  );
  await q(
    `insert into order_items (order_id, product_id, product_name, product_price, quantity, selected_size, selected_color, edition_numbers)
     values ($1, $2, 'Concrete Bloom Tee', '45.00', 2, 'M', 'Black', '[23, 24]')`,
    [order!.id, tee],
  );

  const before = await q<Totals>(
    `select id, stock, held_count, sold_count, edition_size from products order by id`,
  );
  const ordersBefore = await q(`select count(*)::int as n from order_items`);

  // Everything after 0019, 0021 included, as a shop upgrading would run it.
  await migrate(drizzle(client), { migrationsFolder });

  const after = await q<Totals>(
    `select id, stock, held_count, sold_count, edition_size from products order by id`,
  );
  expect(after).toEqual(before);
  expect(await q(`select count(*)::int as n from order_items`)).toEqual(ordersBefore);

  const variants = await q<{ product_id: string; size: string | null; colour: string | null } & Totals>(
    `select id, product_id, size, colour, stock, held_count, sold_count from product_variants`,
  );
  // One "one run" (size and colour null) per product, carrying exactly the product's pieces.
  expect(variants).toHaveLength(before.length);
  for (const p of before) {
    const mine = variants.filter((v) => v.product_id === p.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      size: null,
      colour: null,
      stock: p.stock,
      held_count: p.held_count,
      sold_count: p.sold_count,
    });
  }
  const sums = await q<{ id: string; stock: number; held: number; sold: number }>(
    `select p.id, sum(v.stock)::int as stock, sum(v.held_count)::int as held, sum(v.sold_count)::int as sold
       from products p join product_variants v on v.product_id = p.id group by p.id order by p.id`,
  );
  expect(sums).toEqual(
    before.map((p) => ({ id: p.id, stock: p.stock, held: p.held_count, sold: p.sold_count })),
  );
  expect(sums.find((s) => s.id === cap)).toEqual({ id: cap, stock: 10, held: 0, sold: 5 });

  // Every hold, open or finished, points at its own product's variant; held units per variant = its held_count.
  const unlinked = await q(
    `select h.id from stock_holds h left join product_variants v on v.id = h.variant_id
      where v.id is null or v.product_id <> h.product_id`,
  );
  expect(unlinked).toEqual([]);
  const heldPerVariant = await q<{ variant_id: string; n: number; held_count: number }>(
    `select h.variant_id, sum(h.quantity)::int as n, v.held_count from stock_holds h join product_variants v on v.id = h.variant_id
      where h.status = 'held' group by h.variant_id, v.held_count`,
  );
  expect(heldPerVariant).toHaveLength(2);
  for (const row of heldPerVariant) expect(row.n).toBe(row.held_count);

  // The new table's rules hold from the start: one row per size however spelt, never below zero.
  await q(`insert into product_variants (product_id, size, stock) values ($1, 'M', 0)`, [socks]);
  await expect(
    q(`insert into product_variants (product_id, size, stock) values ($1, 'm', 0)`, [socks]),
  ).rejects.toThrow(/product_variants_label_once/);
  await expect(
    q(`update product_variants set stock = -1 where product_id = $1 and size is null`, [socks]),
  ).rejects.toThrow(/product_variants_stock_non_negative/);
  await expect(q(`insert into product_variants (product_id, size) values ($1, '')`, [socks])).rejects.toThrow(
    /product_variants_size_length/,
  );
});
