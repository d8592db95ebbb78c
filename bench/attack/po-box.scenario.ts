// "No P.O. Box for limited editions" (docs/product.md §9, Fulfilment promises), against a spawned shop:
// 1. a limited edition in the cart and a P.O. box spelt every way a buyer (or a bot) would try — dotted,
//    spaced, hyphenated, "Post Office Box", "POB", a bare "Box 12" line, full-width, look-alike Cyrillic
//    letters, an invisible space between the letters: every one refused at the customer-info step, nothing saved;
// 2. around it: a P.O. box saved while the cart was empty, the limited piece added after — the payment step
//    refuses it (409) and holds nothing;
// 3. the baseline in the same run: a plain piece ships to a P.O. box (an order is made), and street names
//    with "Box" in them pass for the limited piece;
// 4. what a refusal costs (answers a second from 20 concurrent sessions).
import { sql } from 'drizzle-orm';
import type { Scenario } from '../scenario-runner';
import { CATALOG_CHANNEL } from '../../server/modules/catalog/catalog-changes';
import { PO_BOX_MESSAGE } from '../../common/domain/fulfilment-promises';
import { ShopBrowser as Browser, withSpawnedShop } from '../support/shop-scenario';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const COST_CALLS = 400;

const PO_BOXES = [
  'PO Box 12',
  'P.O. Box 12',
  'p.o. box 12',
  'P. O. Box 12',
  'P O Box 12',
  'P-O-Box 12',
  'POBox 12',
  'P.O.Box 12',
  'Post Office Box 12',
  'POB 12',
  'P.O.B. 12',
  'Box 12',
  '9 Elm St, Box 4',
  'ＰＯ Ｂｏｘ 12',
  '\u0420\u041E Box 12',
  'P\u200B.O. Box 12',
  'P.Ó. Bóx 12',
];
const STREETS = ['12 Boxwood Lane', '1 Box Elder Street', '77 Post Office Road', '5 Post Box Lane'];

const details = (shippingAddress: string) => ({
  email: 'buyer@example.com',
  firstName: 'Box',
  lastName: 'Tester',
  phone: null,
  shippingAddress,
  shippingCity: 'Springfield',
  shippingState: 'IL',
  shippingZip: '62701',
  shippingCountry: 'US',
});

const scenario: Scenario = () =>
  withSpawnedShop('po-box', {}, async ({ base, q }) => {
    const [plain] = await q<{ id: string }>(sql`
      insert into products (name, price_cents, category, stock, edition_size, sizes, colors, images, max_per_shopper)
      values ('Plain Box Tee', 5000, 'tshirts', 50, 50, '[]', '[]', '[]', 50) returning id`);
    // Released on a schedule three days ago: its drop window is over, it is bought as usual, and limited.
    const [drop] = await q<{ id: string }>(sql`
      insert into products (name, price_cents, category, stock, edition_size, sizes, colors, images, release_at, max_per_shopper)
      values ('Limited Box Tee', 5000, 'tshirts', 50, 50, '[]', '[]', '[]', now() - interval '3 days', 50) returning id`);
    await q(sql`select pg_notify(${CATALOG_CHANNEL}, 'bench')`);
    await sleep(300);

    let ip = 10;
    const shopperWith = async (productId: string | null) => {
      const b = new Browser(base, `203.0.113.${ip++}`);
      if (productId) {
        const add = await b.call('POST', '/api/cart', { productId, quantity: 1 });
        if (add.status !== 200) throw new Error(`cart add failed: ${add.status} ${JSON.stringify(add.json)}`);
      }
      return b;
    };

    // 1. Every spelling, each from its own shopper with the limited piece in the cart.
    const spellings: string[] = [];
    let saved = 0;
    for (const address of PO_BOXES) {
      const b = await shopperWith(drop!.id);
      const r = await b.call('POST', '/api/customer-info', details(address));
      if (r.status !== 400 || r.json.message !== PO_BOX_MESSAGE) spellings.push(`${JSON.stringify(address)} → ${r.status}`);
      if ((await b.call('GET', '/api/customer-info')).json !== null) saved++;
    }

    // 2. The address first, the limited piece after.
    const around = await shopperWith(null);
    const first = await around.call('POST', '/api/customer-info', details('P.O. Box 77'));
    await around.call('POST', '/api/cart', { productId: drop!.id, quantity: 1 });
    const intent = await around.call('POST', '/api/create-payment-intent', {});
    const [held] = await q<{ held: number }>(sql`select held_count as held from products where id = ${drop!.id}`);

    // 3. Baselines: a plain piece to a P.O. box is bought; streets with "Box" in their names pass.
    const plainBuyer = await shopperWith(plain!.id);
    const plainInfo = await plainBuyer.call('POST', '/api/customer-info', details('PO Box 12'));
    const plainIntent = await plainBuyer.call('POST', '/api/create-payment-intent', {});
    const secret = String(plainIntent.json.clientSecret ?? '');
    await plainBuyer.call('POST', '/api/payments/offline/confirm', { clientSecret: secret, cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' });
    const plainOrder = await plainBuyer.call('POST', '/api/payment-success', { paymentIntentId: String(plainIntent.json.paymentIntentId ?? '') });
    const streets: number[] = [];
    for (const address of STREETS) streets.push((await (await shopperWith(drop!.id)).call('POST', '/api/customer-info', details(address))).status);

    // 4. The refusal's cost: 20 sessions with the limited piece, 400 tries between them.
    const lanes = await Promise.all(Array.from({ length: 20 }, () => shopperWith(drop!.id)));
    const statuses = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      lanes.map(async (b) => {
        while (next < COST_CALLS) {
          const address = PO_BOXES[next++ % PO_BOXES.length]!;
          const r = await b.call('POST', '/api/customer-info', details(address));
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }
      }),
    );
    const perSecond = Math.round(COST_CALLS / ((performance.now() - started) / 1000));

    return {
      rows: [
        {
          what: `${PO_BOXES.length} P.O. box spellings with a limited edition in the cart`,
          target: `all 400 with the message, none saved`,
          measured: spellings.length === 0 ? `all refused, ${saved} saved` : spellings.join('; '),
          ok: spellings.length === 0 && saved === 0,
        },
        {
          what: 'P.O. box saved with an empty cart, the limited piece added after: payment step',
          target: '409 with the message, 0 held',
          measured: `${first.status} then ${intent.status}, ${held!.held} held`,
          ok: first.status === 200 && intent.status === 409 && intent.json.message === PO_BOX_MESSAGE && held!.held === 0,
        },
        {
          what: 'baseline: a plain piece to a P.O. box',
          target: 'details 200, order made',
          measured: `${plainInfo.status}, ${plainOrder.status} ${String(plainOrder.json.orderNumber ?? '')}`,
          ok: plainInfo.status === 200 && plainOrder.status === 200,
        },
        {
          what: `baseline: ${STREETS.length} streets with "Box" in the name, limited piece`,
          target: 'all 200',
          measured: streets.join(', '),
          ok: streets.every((s) => s === 200),
        },
        {
          what: `refusals a second (${COST_CALLS} tries, 20 concurrent sessions)`,
          target: 'info',
          measured: `${perSecond}/s (${[...statuses].map(([s, n]) => `${n}× ${s}`).join(', ')})`,
          ok: true,
        },
      ],
    };
  });

export default scenario;
