// After the sale (docs/product.md §2.14, ADR 021), against a spawned shop on the offline gateway:
// 1. a double-click storm: each of 10 orders cancelled by 10 requests at once (half with one request key, half
//    with none) while a "shipped" for it races them — each order ends either shipped and never refunded, or
//    cancelled with exactly one refund at the gateway and its piece back on the shelf once;
// 2. 200 refunds above what is left on an order, 20 at a time: every one a 400 `{ message }`, nothing refunded;
// 3. what a cancel costs (the storm's wall time, for reference).
import type { Scenario } from '../scenario-runner';
import { ShopBrowser as Browser, withSpawnedShop } from '../support/shop-scenario';
import { sql } from 'drizzle-orm';

const ORDERS = 10;
const STORM = 10;

async function buy(b: Browser, productId: string, colour: string | null, n: number): Promise<string> {
  const step = async (what: string, method: string, url: string, body?: unknown) => {
    const r = await b.call(method, url, body);
    if (r.status !== 200) throw new Error(`buying failed at ${what}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };
  await step('cart', 'POST', '/api/cart', { productId, quantity: 1, selectedSize: 'M', selectedColor: colour });
  await step('details', 'POST', '/api/customer-info', {
    email: `storm${n}@example.com`,
    firstName: 'Storm',
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
  return ((await step('latest', 'GET', '/api/orders/latest')) as { id: string }).id;
}

const scenario: Scenario = () =>
  withSpawnedShop('cancel-refund', {}, async ({ base, q }) => {
    const owner = new Browser(base, '127.0.0.1');
    const login = await owner.call('POST', '/api/admin/login', { password: 'process-test-password' });
    if (login.status !== 200) throw new Error(`admin login ${login.status}`);
    // A tee of its own, no colours, a limit high enough for one card to buy every order.
    const made = await owner.call('POST', '/api/admin/products', {
      name: 'Storm Tee',
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
    const tee = { id: String(made.json.id), colors: [] as Array<{ name: string }> };
    const orderIds: string[] = [];
    for (let i = 0; i < ORDERS + 1; i++) orderIds.push(await buy(new Browser(base, `203.0.113.${10 + i}`), tee.id, tee.colors[0]?.name ?? null, i));
    const stockBefore = Number((await q<{ stock: number }>(sql`select stock from products where id = ${tee.id}`))[0]!.stock);

    // 1. The storm.
    const started = performance.now();
    const shippedCodes: number[] = [];
    const cancelCodes = new Map<number, number>();
    await Promise.all(
      orderIds.slice(0, ORDERS).map(async (id, i) => {
        const cancels = Array.from({ length: STORM }, (_, k) =>
          owner
            .call('POST', `/api/admin/orders/${id}/cancel`, k % 2 ? { requestKey: `storm-${i}-key` } : {})
            .then((r) => cancelCodes.set(r.status, (cancelCodes.get(r.status) ?? 0) + 1)),
        );
        const ship = owner.call('PUT', `/api/admin/orders/${id}/status`, { status: 'shipped' }).then((r) => shippedCodes.push(r.status));
        await Promise.all([...cancels, ship]);
      }),
    );
    const stormMs = Math.round(performance.now() - started);
    const rows = await q<{ id: string; status: string; refunds: number; gateway: number }>(sql`
      select o.id, o.status,
        (select count(*)::int from order_refunds r where r.order_id = o.id) as refunds,
        (select count(*)::int from offline_refunds g where g.intent_id = o.stripe_payment_intent_id) as gateway
      from orders o where o.id::text = any(string_to_array(${orderIds.slice(0, ORDERS).join(',')}, ','))`);
    const cancelled = rows.filter((r) => r.status === 'cancelled');
    const shipped = rows.filter((r) => r.status === 'shipped');
    const stockAfter = Number((await q<{ stock: number }>(sql`select stock from products where id = ${tee.id}`))[0]!.stock);

    // 2. Over-refunds on the last order.
    const last = orderIds[ORDERS]!;
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < 200) {
          next++;
          const r = await owner.call('POST', `/api/admin/orders/${last}/refund`, { amount: `${1000 + next}.00` });
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }
      }),
    );
    const overRefunded = Number((await q<{ n: number }>(sql`select count(*)::int as n from order_refunds where order_id = ${last}`))[0]!.n);

    return {
      rows: [
        {
          what: `${ORDERS} orders, each cancelled by ${STORM} requests at once with a "shipped" racing them`,
          target: 'each shipped with 0 refunds or cancelled with exactly 1',
          measured: `${cancelled.length} cancelled (refund records ${cancelled.map((r) => r.refunds).join('/')}, gateway refunds ${cancelled.map((r) => r.gateway).join('/')}), ${shipped.length} shipped (refunds ${shipped.map((r) => r.refunds + r.gateway).join('/') || '–'})`,
          ok:
            cancelled.length + shipped.length === ORDERS &&
            cancelled.every((r) => r.refunds === 1 && r.gateway === 1) &&
            shipped.every((r) => r.refunds === 0 && r.gateway === 0),
        },
        {
          what: 'pieces back on the shelf',
          target: 'one per cancelled order',
          measured: String(stockAfter - stockBefore),
          ok: stockAfter - stockBefore === cancelled.length,
        },
        { what: 'cancel answers', target: '200 (a retry answers the order), or 409 after a "shipped" won', measured: [...cancelCodes].map(([c, n]) => `${n}× ${c}`).join(', '), ok: [...cancelCodes.keys()].every((c) => c === 200 || c === 409) },
        { what: '"shipped" answers', target: 'info', measured: `${shippedCodes.filter((c) => c === 200).length}× 200, ${shippedCodes.filter((c) => c === 409).length}× 409`, ok: true },
        {
          what: '200 refunds above what is left, 20 at a time',
          target: 'all 400, 0 recorded',
          measured: `${[...statuses].map(([s, n]) => `${n}× ${s}`).join(', ')}; ${overRefunded} recorded`,
          ok: (statuses.get(400) ?? 0) === 200 && overRefunded === 0,
        },
        { what: 'the storm (110 requests)', target: 'info', measured: `${stormMs} ms`, ok: true },
      ],
    };
  });

export default scenario;
