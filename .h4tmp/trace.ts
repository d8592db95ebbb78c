import { buildTestApp } from '../tests/support/build-test-app';
import { createProduct, customer, GOOD_CARD } from '../tests/support/shop-fixtures';
const t = await buildTestApp({ kind: 'pglite' });
const pg = t.database.pglite!;
const log: string[] = [];
const origQuery = pg.query.bind(pg);
(pg as unknown as { query: typeof pg.query }).query = ((q: string, p?: unknown[], o?: unknown) => { log.push(q.slice(0, 140)); return origQuery(q, p, o as never); }) as typeof pg.query;
const origExec = pg.exec.bind(pg);
(pg as unknown as { exec: typeof pg.exec }).exec = ((q: string, o?: unknown) => { log.push('EXEC ' + q.slice(0, 100)); return origExec(q, o as never); }) as typeof pg.exec;
const productId = await createProduct(t.database.db, { stock: 5, sizes: [] });
const s = t.client();
async function step(name: string, fn: () => Promise<{ statusCode: number; body: string }>) {
  log.length = 0;
  const r = await fn();
  console.log(`\n== ${name} ${r.statusCode} (${log.length} queries)`);
  for (const l of log) console.log('  ', l);
  return r;
}
await step('cart', () => s.post('/api/cart', { productId }));
await step('info', () => s.post('/api/customer-info', customer()));
const intent = (await step('intent', () => s.post('/api/create-payment-intent', {}))) as unknown as { json(): { clientSecret: string; paymentIntentId: string } };
const i = intent.json();
await step('confirm', () => s.post('/api/payments/offline/confirm', { clientSecret: i.clientSecret, ...GOOD_CARD }));
await step('success', () => s.post('/api/payment-success', { paymentIntentId: i.paymentIntentId }));
await t.services.fulfilment.drain();
await t.close();
