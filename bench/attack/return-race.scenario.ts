// Returns (docs/product.md "Returns"), against a spawned shop on the offline gateway: 5 delivered orders, each
// 1 piece. For each, the buyer's return request is sent 10 times at once (a double-tap storm), then the owner's
// approval and "received: accept" 10 times at once each. Every order ends with exactly one return, accepted, one
// store-credit grant of the piece's price (shipping not), and its piece back on the shelf once.
import type { Scenario } from '../scenario-runner';
import { ShopBrowser as Browser, withSpawnedShop } from '../support/shop-scenario';
import { sql } from 'drizzle-orm';

const ORDERS = 5;
const STORM = 10;

async function buy(b: Browser, productId: string, n: number): Promise<{ id: string; number: string; key: string }> {
  const step = async (what: string, method: string, url: string, body?: unknown) => {
    const r = await b.call(method, url, body);
    if (r.status !== 200) throw new Error(`buying failed at ${what}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };
  await step('cart', 'POST', '/api/cart', { productId, quantity: 1, selectedSize: 'M', selectedColor: null });
  await step('details', 'POST', '/api/customer-info', {
    email: `returner${n}@example.com`,
    firstName: 'Return',
    lastName: 'Buyer',
    phone: null,
    shippingAddress: `${n} Main St`,
    shippingCity: 'Springfield',
    shippingState: 'IL',
    shippingZip: '62701',
    shippingCountry: 'US',
  });
  const intent = (await step('intent', 'POST', '/api/create-payment-intent', {})) as { clientSecret: string; paymentIntentId: string };
  await step('card', 'POST', '/api/payments/offline/confirm', { clientSecret: intent.clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' });
  await step('order', 'POST', '/api/payment-success', { paymentIntentId: intent.paymentIntentId });
  const latest = (await step('latest', 'GET', '/api/orders/latest')) as { id: string; orderNumber: string; orderPath: string };
  return { id: latest.id, number: latest.orderNumber, key: latest.orderPath.split('key=')[1]! };
}

const scenario: Scenario = () =>
  withSpawnedShop('return-race', {}, async ({ base, q }) => {
    const owner = new Browser(base, '127.0.0.1');
    const login = await owner.call('POST', '/api/admin/login', { password: 'process-test-password' });
    if (login.status !== 200) throw new Error(`admin login ${login.status}`);
    const made = await owner.call('POST', '/api/admin/products', {
      name: 'Return Race Tee',
      description: 'A numbered tee.',
      price: '45.00',
      category: 'tshirts',
      materials: 'Cotton',
      sustainabilityInfo: 'Made to order.',
      stock: 20,
      editionSize: 20,
      maxPerShopper: 50,
      images: [],
      sizes: ['M'],
      colors: [],
    });
    if (made.status !== 201) throw new Error(`create product ${made.status}: ${JSON.stringify(made.json)}`);
    const productId = String(made.json.id);
    const orders: Array<{ id: string; number: string; key: string; b: Browser }> = [];
    for (let i = 0; i < ORDERS; i++) {
      const b = new Browser(base, `203.0.113.${40 + i}`);
      orders.push({ ...(await buy(b, productId, i)), b });
    }
    for (const o of orders) {
      const d = await owner.call('PUT', `/api/admin/orders/${o.id}/status`, { status: 'delivered' });
      if (d.status !== 200) throw new Error(`deliver ${d.status}`);
    }
    const stockBefore = Number((await q<{ stock: number }>(sql`select stock from products where id = ${productId}`))[0]!.stock);

    const codes = new Map<string, number>();
    const count = (what: string, status: number) => codes.set(`${what} ${status}`, (codes.get(`${what} ${status}`) ?? 0) + 1);
    const started = performance.now();
    await Promise.all(
      orders.map(async (o) => {
        const view = (await o.b.call('GET', `/api/orders/${o.number}/returns?key=${o.key}`)).json as { lines: Array<{ itemId: string }> };
        const body = { lines: [{ itemId: view.lines[0]!.itemId, quantity: 1 }], reason: 'Too big' };
        await Promise.all(
          Array.from({ length: STORM }, () => o.b.call('POST', `/api/orders/${o.number}/returns?key=${o.key}`, body).then((r) => count('request', r.status))),
        );
        const list = (await owner.call('GET', `/api/admin/orders/${o.id}/returns`)).json as unknown as Array<{ id: string }>;
        for (const action of ['approve', 'receive-accept']) {
          await Promise.all(
            Array.from({ length: STORM }, () =>
              owner.call('POST', `/api/admin/orders/${o.id}/returns/${list[0]!.id}/${action}`, {}).then((r) => count(action, r.status)),
            ),
          );
        }
      }),
    );
    const stormMs = Math.round(performance.now() - started);
    const rows = await q<{ returns: number; accepted: number; grants: number; granted: number }>(sql`
      select
        (select count(*)::int from order_returns) as returns,
        (select count(*)::int from order_returns where status = 'accepted') as accepted,
        (select count(*)::int from store_credit_entries where kind = 'grant' and source = 'return') as grants,
        (select coalesce(sum(amount_cents), 0)::int from store_credit_entries where kind = 'grant' and source = 'return') as granted`);
    const r = rows[0]!;
    const stockAfter = Number((await q<{ stock: number }>(sql`select stock from products where id = ${productId}`))[0]!.stock);
    const answers = [...codes.entries()].sort().map(([k, v]) => `${k}×${v}`).join(', ');
    return {
      rows: [
        {
          what: `${ORDERS} orders × ${STORM} return requests at once`,
          target: `${ORDERS} returns`,
          measured: `${r.returns} returns`,
          ok: r.returns === ORDERS,
        },
        {
          what: `then ${STORM} approvals and ${STORM} "received: accept" at once per return`,
          target: `${ORDERS} accepted, ${ORDERS} grants of $45.00, stock +${ORDERS}`,
          measured: `${r.accepted} accepted, ${r.grants} grants totalling $${(r.granted / 100).toFixed(2)}, stock ${stockBefore} → ${stockAfter}`,
          ok: r.accepted === ORDERS && r.grants === ORDERS && r.granted === ORDERS * 4500 && stockAfter - stockBefore === ORDERS,
        },
        { what: 'answers', target: 'no 5xx', measured: answers, ok: ![...codes.keys()].some((k) => / 5\d\d$/.test(k)) },
        { what: 'the storm (all orders)', target: 'info', measured: `${stormMs} ms`, ok: true },
      ],
    };
  });

export default scenario;
