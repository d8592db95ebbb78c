// Store credit (docs/product.md §2.15), against a spawned shop on the offline gateway: the owner grants $100 to one
// mailbox; 20 shoppers, each typing a spelling of it, start their payment with `useCredit` at the same moment.
// Exactly $100 of credit is held or spent in all (one order paid wholly by credit, with no payment intent; one
// paid in part), the balance is 0 and never below it, and every other checkout gets no credit.
import type { Scenario } from '../scenario-runner';
import { ShopBrowser as Browser, withSpawnedShop } from '../support/shop-scenario';
import { sql } from 'drizzle-orm';

const SHOPPERS = 20;
const SPELLINGS = ['racer@example.com', 'Racer@Example.com', 'racer+a@example.com', 'RACER+b@EXAMPLE.COM', ' racer@example.com'];

const scenario: Scenario = () =>
  withSpawnedShop('store-credit-race', {}, async ({ base, q }) => {
    const owner = new Browser(base, '127.0.0.1');
    const login = await owner.call('POST', '/api/admin/login', { password: 'process-test-password' });
    if (login.status !== 200) throw new Error(`admin login ${login.status}`);
    const made = await owner.call('POST', '/api/admin/products', {
      name: 'Credit Race Tee',
      description: 'A numbered tee.',
      price: '45.00',
      category: 'tshirts',
      materials: 'Cotton',
      sustainabilityInfo: 'Made to order.',
      stock: 50,
      editionSize: 50,
      maxPerShopper: 50,
      images: [],
      sizes: ['M'],
      colors: [],
    });
    if (made.status !== 201) throw new Error(`create product ${made.status}: ${JSON.stringify(made.json)}`);
    const granted = await owner.call('POST', '/api/admin/store-credit', { email: 'racer@example.com', amount: '100.00', reason: 'bench' });
    if (granted.status !== 201) throw new Error(`grant ${granted.status}: ${JSON.stringify(granted.json)}`);

    const shoppers = await Promise.all(
      Array.from({ length: SHOPPERS }, async (_, i) => {
        const b = new Browser(base, `203.0.113.${20 + i}`);
        const add = await b.call('POST', '/api/cart', { productId: String(made.json.id), quantity: 1, selectedSize: 'M' });
        if (add.status !== 200) throw new Error(`cart ${add.status}`);
        const info = await b.call('POST', '/api/customer-info', {
          email: SPELLINGS[i % SPELLINGS.length]!.trim(),
          firstName: 'Race',
          lastName: 'Buyer',
          phone: null,
          shippingAddress: `${i} Main St`,
          shippingCity: 'Springfield',
          shippingState: 'IL',
          shippingZip: '62701',
          shippingCountry: 'US',
        });
        if (info.status !== 200) throw new Error(`details ${info.status}: ${JSON.stringify(info.json)}`);
        return b;
      }),
    );

    const started = performance.now();
    const answers = await Promise.all(shoppers.map((b) => b.call('POST', '/api/create-payment-intent', { useCredit: true })));
    const raceMs = Math.round(performance.now() - started);
    const applied = answers.map((a) => Number((a.json as { creditApplied?: number }).creditApplied ?? 0));
    const placed = answers.filter((a) => (a.json as { orderNumber?: string }).orderNumber).length;
    const [ledger] = await q<{ held: number; granted: number; intents: number }>(sql`
      select
        (select coalesce(sum(amount_cents), 0)::int from store_credit_redemptions where status <> 'released') as held,
        (select coalesce(sum(amount_cents), 0)::int from store_credit_entries where kind = 'grant') as granted,
        (select count(*)::int from checkouts where payment_intent_id like 'credit\\_%') as intents`);
    const balance = (await owner.call('GET', '/api/admin/store-credit')).json as { accounts: Array<{ balance: string }> };

    return {
      rows: [
        {
          what: `${SHOPPERS} checkouts spending one $100 balance at once (5 spellings of one mailbox)`,
          target: 'credit applied in all = $100.00, balance 0.00',
          measured: `applied ${(applied.reduce((a, b) => a + b, 0) / 100).toFixed(2)} (${applied.filter((c) => c > 0).length} checkouts), held/spent ${(ledger!.held / 100).toFixed(2)}, balance ${balance.accounts[0]?.balance}`,
          ok: applied.reduce((a, b) => a + b, 0) === 10_000 && ledger!.held === 10_000 && balance.accounts[0]?.balance === '0.00',
        },
        { what: 'answers', target: 'all 200', measured: [...new Set(answers.map((a) => a.status))].join(', '), ok: answers.every((a) => a.status === 200) },
        { what: 'orders paid wholly by credit (no payment intent)', target: 'info', measured: `${placed} placed, ${ledger!.intents} credit-only checkouts`, ok: placed === ledger!.intents },
        { what: 'the race (20 payments started)', target: 'info', measured: `${raceMs} ms`, ok: true },
      ],
    };
  });

export default scenario;
