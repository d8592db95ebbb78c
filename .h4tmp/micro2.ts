import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/client';
import { migrateDatabase } from '../server/db/migrate';
import { products } from '../server/modules/catalog/catalog.tables';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglm-'));
const d = await openDatabase({ dataDir: dir });
await migrateDatabase(d);
await d.db.execute(sql`insert into categories (slug, name) values ('tshirts','T')`);
const [p] = await d.db.insert(products).values({ name: 'x', price: '1.00', category: 'tshirts', stock: 100000 }).returning();
const pg = d.pglite!;
async function time(label: string, n: number, fn: () => Promise<unknown>) {
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(label, ((performance.now() - t) / n).toFixed(3));
}
for (let round = 0; round < 2; round++) {
  await time('raw select 1', 500, () => pg.query('select 1'));
  await time('raw select id where id=$1', 500, () => pg.query('select id from products where id = $1', [p!.id]));
  await time('raw select * where id=$1', 500, () => pg.query('select * from products where id = $1', [p!.id]));
  await time('raw exec select * literal', 500, () => pg.exec(`select * from products where id = '${p!.id}'`));
  await time('drizzle select *', 500, () => d.db.select().from(products).where(eq(products.id, p!.id)));
  await time('drizzle select id', 500, () => d.db.select({ id: products.id }).from(products).where(eq(products.id, p!.id)));
  await time('raw update', 500, () => pg.query('update products set stock = stock - 1 where id = $1', [p!.id]));
}
await d.close();
fs.rmSync(dir, { recursive: true, force: true });
