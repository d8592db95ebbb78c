// "One buyer is one identity", "per-address fairness that holds on IPv6", "only costly requests spend an
// address's budget" (docs/security.md, ADR 013), against a spawned shop:
// 1. one person in twelve spellings (sub-addresses, Gmail dots, googlemail, St/Str/Street, ZIP+4, look-alike,
//    invisible and full-width characters), each with a fresh browser and card, buys at most the limit;
// 2. sixty /64s of one IPv6 /48 join a drop's raffle: one address, one place per round;
// 3. junk from one address (cookieless joins with a bad proof of work, empty payment intents) leaves a real
//    shopper behind that address unblocked, and writes (almost) no rate-limit rows.
import { sql } from 'drizzle-orm';
import type { Scenario } from '../scenario-runner';
import { CATALOG_CHANNEL } from '../../server/modules/catalog/catalog-changes';
import { ShopBrowser as Browser, withSpawnedShop } from '../support/shop-scenario';

const LIMIT = 2;
const JUNK = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const VARIANTS = [
  { email: 'buyer@gmail.com', shippingAddress: '1 Main St', shippingZip: '62701' },
  { email: 'buyer+drop@gmail.com', shippingAddress: '1 Main Street', shippingZip: '62701' },
  { email: 'b.u.y.e.r@gmail.com', shippingAddress: '1 Main Str', shippingZip: '62701' },
  { email: 'buyer@googlemail.com', shippingAddress: '1 Main-Street', shippingZip: '62701' },
  { email: 'Buyer+2@GoogleMail.com', shippingAddress: '1 main st.', shippingZip: '62701-0001' },
  { email: 'bu.yer+3@gmail.com', shippingAddress: '1 Ma\u0456n St', shippingZip: '62701' },
  { email: 'buy.er@gmail.com', shippingAddress: '1 Main\u200b St', shippingZip: '62701' },
  { email: 'buyer+4@googlemail.com', shippingAddress: '\uff11 Main St', shippingZip: '62701' },
  { email: 'BUYER@gmail.com', shippingAddress: '1, Main St.', shippingZip: '627010001' },
  { email: 'b.uyer+5@gmail.com', shippingAddress: '1 M\u0430in Street', shippingZip: '62701' },
  { email: 'buyer+6@gmail.com', shippingAddress: '1 Main St\u00ad', shippingZip: '62701 0001' },
  { email: 'bu.y.er@googlemail.com', shippingAddress: '  1   MAIN   STREET ', shippingZip: '62701' },
];

const info = (v: (typeof VARIANTS)[number]) => ({
  ...v,
  firstName: 'Bench',
  lastName: 'Buyer',
  phone: '+1 555 0100',
  shippingCity: 'Springfield',
  shippingState: 'IL',
});

/** Cart, details, intent, card, confirmation: the units bought (0 when refused anywhere). */
async function buy(b: Browser, productId: string, v: (typeof VARIANTS)[number], card: number): Promise<{ units: number; refusedAt: string | null }> {
  const add = await b.call('POST', '/api/cart', { productId, quantity: 1 });
  if (add.status !== 200) return { units: 0, refusedAt: `cart ${add.status}` };
  const details = await b.call('POST', '/api/customer-info', info(v));
  if (details.status !== 200) return { units: 0, refusedAt: `details ${details.status}` };
  const intent = await b.call('POST', '/api/create-payment-intent', {});
  if (intent.status !== 200) return { units: 0, refusedAt: `intent ${intent.status}` };
  const { clientSecret, paymentIntentId } = intent.json as { clientSecret: string; paymentIntentId: string };
  const expiry = `${String((card % 12) + 1).padStart(2, '0')}/${40 + card}`;
  const paid = await b.call('POST', '/api/payments/offline/confirm', { clientSecret, cardNumber: '4242 4242 4242 4242', expiry, cvc: '123' });
  if (paid.status !== 200) return { units: 0, refusedAt: `card ${paid.status}` };
  const done = await b.call('POST', '/api/payment-success', { paymentIntentId });
  return done.status === 200 ? { units: 1, refusedAt: null } : { units: 0, refusedAt: `order ${done.status}` };
}

// A small proof of work keeps the sixty joins quick; its cost does not change what is counted.
const scenario: Scenario = () =>
  withSpawnedShop('identity', { POW_TRIES: '50', IPV6_PREFIX: '48' }, async ({ base, q }) => {

    const [plain] = await q<{ id: string }>(sql`
      insert into products (name, price_cents, category, stock, edition_size, sizes, colors, images, max_per_shopper)
      values ('Identity Tee', 5000, 'tshirts', 30, 50, '[]', '[]', '[]', ${LIMIT}) returning id`);
    // A drop whose room is open (it opens DROP_RAFFLE_MINUTES = 10 before the release).
    const [drop] = await q<{ id: string }>(sql`
      insert into products (name, price_cents, category, stock, edition_size, sizes, colors, images, release_at, max_per_shopper)
      values ('Raffle Tee', 5000, 'tshirts', 50, 50, '[]', '[]', '[]', now() + interval '5 minutes', 2) returning id`);
    await q(sql`select pg_notify(${CATALOG_CHANNEL}, 'bench')`);
    await sleep(300);

    // 1. Twelve spellings of one person, each a fresh browser (its own address too) and card.
    let bought = 0;
    const refusals: string[] = [];
    for (const [i, v] of VARIANTS.entries()) {
      const r = await buy(new Browser(base, `203.0.113.${10 + i}`), plain!.id, v, i);
      bought += r.units;
      if (r.refusedAt) refusals.push(r.refusedAt);
    }

    // 2. Sixty /64s of one /48 join the raffle, and three other /48s.
    const joins: number[] = [];
    for (let i = 0; i < 60; i++) {
      const b = new Browser(base, `2001:db8:4800:${i.toString(16)}::1`);
      joins.push((await b.call('POST', `/api/drops/${drop!.id}/queue`, { altcha: await b.altcha() })).status);
    }
    for (let i = 0; i < 3; i++) {
      const b = new Browser(base, `2001:db8:${(0x4900 + i).toString(16)}::1`);
      joins.push((await b.call('POST', `/api/drops/${drop!.id}/queue`, { altcha: await b.altcha() })).status);
    }
    const places = await q<{ address_key: string; places: number; round0: number; rounds: number }>(sql`
      select address_key, count(*)::int as places, count(*) filter (where floor(lottery_key) = 0)::int as round0,
             count(distinct floor(lottery_key))::int as rounds
        from drop_queue where product_id = ${drop!.id} group by address_key order by places desc`);
    const slash48 = places[0]!;

    // 3. Junk from one address, then a real shopper behind it.
    const junkIp = '198.51.100.77';
    const rowsBefore = Number((await q<{ n: number }>(sql`select count(*)::int as n from rate_limits`))[0]!.n);
    const started = Date.now();
    const junk = await Promise.all([
      ...Array.from({ length: JUNK }, () => new Browser(base, junkIp).call('POST', `/api/drops/${drop!.id}/queue`, { altcha: 'bm90LWEtcHJvb2Y=' })),
      ...Array.from({ length: JUNK }, () => new Browser(base, junkIp).call('POST', '/api/create-payment-intent', {})),
    ]);
    const junkSeconds = (Date.now() - started) / 1000;
    await sleep(200);
    const rowsAfter = Number((await q<{ n: number }>(sql`select count(*)::int as n from rate_limits`))[0]!.n);
    const real = new Browser(base, junkIp);
    const realJoin = await real.call('POST', `/api/drops/${drop!.id}/queue`, { altcha: await real.altcha() });
    const realBuy = await buy(real, plain!.id, { email: 'real.person@example.com', shippingAddress: '9 Other Rd', shippingZip: '10001' }, 30);

    const junk429 = junk.filter((r) => r.status === 429).length;
    return {
      rows: [
        {
          what: 'one person, 12 spellings, fresh browser and card each: units bought',
          target: `≤ ${LIMIT}`,
          measured: `${bought} (refused: ${refusals.join(', ') || 'none'})`,
          ok: bought <= LIMIT && bought > 0,
        },
        {
          what: '60 /64s of one /48 join a raffle: places, places in round 0, distinct rounds',
          target: '≤ 50 places, 1 in round 0, one per round',
          measured: `${slash48.places} places, ${slash48.round0} in round 0, ${slash48.rounds} rounds; ${places.length} addresses; joins ${joins.filter((s) => s === 201).length}×201 ${joins.filter((s) => s === 429).length}×429`,
          ok: slash48.places <= 50 && slash48.round0 === 1 && slash48.rounds === slash48.places && places.length === 4,
        },
        {
          what: `${JUNK} bad-proof joins + ${JUNK} empty intents from one address: 429s, rate-limit rows written`,
          target: '0 × 429, ≤ 2 rows',
          measured: `${junk429} × 429, ${rowsAfter - rowsBefore} rows, ${Math.round((2 * JUNK) / junkSeconds)} req/s`,
          ok: junk429 === 0 && rowsAfter - rowsBefore <= 2,
        },
        {
          what: 'a real shopper behind that address right after: join, then buy',
          target: 'join 201, bought 1',
          measured: `join ${realJoin.status}, bought ${realBuy.units}${realBuy.refusedAt ? ` (${realBuy.refusedAt})` : ''}`,
          ok: realJoin.status === 201 && realBuy.units === 1,
        },
      ],
    };
  });

export default scenario;
