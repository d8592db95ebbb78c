// The buyer's order page (docs/product.md §2.13, docs/security.md "Order links"), against a spawned shop:
// 1. forged keys for a real order (random, another order's, the right one cut short) never open it;
// 2. "Find my order" from one attacker: 40 order numbers tried against one victim's address, then the victim's
//    real number with 40 wrong addresses from 40 network addresses — every answer the same, no mail but the
//    victim's own, and the per-address limit stops the first run after 3;
// 3. what a forged key costs the shop (404s a second from 20 concurrent callers).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { ShopBrowser as Browser, withSpawnedShop } from '../support/shop-scenario';

const FORGED = 2_000;

async function buy(b: Browser, email: string): Promise<{ orderNumber: string; orderPath: string }> {
  const step = async (what: string, method: string, url: string, body?: unknown) => {
    const r = await b.call(method, url, body);
    if (r.status !== 200) throw new Error(`buying failed at ${what}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };
  const products = (await step('products', 'GET', '/api/products')) as unknown as Array<{ id: string; name: string; colors: Array<{ name: string }> }>;
  const tee = products.find((p) => p.name === 'Fifty Standard Tee')!;
  await step('cart', 'POST', '/api/cart', { productId: tee.id, quantity: 1, selectedSize: 'M', selectedColor: tee.colors[0]?.name ?? null });
  await step('details', 'POST', '/api/customer-info', {
    email,
    firstName: 'Victim',
    lastName: 'Buyer',
    phone: null,
    shippingAddress: '1 Main St',
    shippingCity: 'Springfield',
    shippingState: 'IL',
    shippingZip: '62701',
    shippingCountry: 'US',
  });
  const intent = (await step('intent', 'POST', '/api/create-payment-intent', {})) as { clientSecret: string; paymentIntentId: string };
  await step('card', 'POST', '/api/payments/offline/confirm', { clientSecret: intent.clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' });
  await step('order', 'POST', '/api/payment-success', { paymentIntentId: intent.paymentIntentId });
  return (await step('latest', 'GET', '/api/orders/latest')) as unknown as { orderNumber: string; orderPath: string };
}

const scenario: Scenario = () =>
  withSpawnedShop('order-links', {}, async ({ base, dataDir }) => {
    const outbox = path.join(dataDir, 'outbox');
    const linkMails = (orderNumber: string) =>
      fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => fs.readFileSync(path.join(outbox, f), 'utf8').includes(`the link to your order ${orderNumber}`)).length : 0;

    const victim = await buy(new Browser(base, '203.0.113.10'), 'victim@example.com');
    const other = await buy(new Browser(base, '203.0.113.11'), 'other@example.com');
    const key = new URL(victim.orderPath, base).searchParams.get('key')!;
    const otherKey = new URL(other.orderPath, base).searchParams.get('key')!;
    const good = await new Browser(base, '198.51.100.1').call('GET', `/api${victim.orderPath}`);

    // 1 + 3. Forged keys, 20 at a time.
    const forged = [otherKey, key.slice(0, -1), `${key}A`, ...Array.from({ length: FORGED }, () => crypto.randomBytes(16).toString('base64url'))];
    const statuses = new Map<number, number>();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async (_, lane) => {
        const b = new Browser(base, `198.51.100.${20 + lane}`);
        while (next < forged.length) {
          const k = forged[next++]!;
          const r = await b.call('GET', `/api/orders/${victim.orderNumber}?key=${encodeURIComponent(k)}`);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }
      }),
    );
    const perSecond = Math.round(forged.length / ((performance.now() - started) / 1000));

    // 2. Find my order: numbers against the victim's address from one attacker, then wrong addresses from many.
    const attacker = new Browser(base, '192.0.2.50');
    const byNumber: number[] = [];
    for (let i = 0; i < 40; i++) {
      const guess = `FIFTY-${crypto.randomBytes(2).toString('hex').toUpperCase()}-${crypto.randomBytes(2).toString('hex').toUpperCase()}`;
      byNumber.push((await attacker.call('POST', '/api/orders/find', { orderNumber: guess, email: 'victim@example.com' })).status);
    }
    const answers = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const r = await new Browser(base, `192.0.2.${100 + i}`).call('POST', '/api/orders/find', { orderNumber: victim.orderNumber, email: `guess${i}@example.com` });
      answers.add(`${r.status} ${JSON.stringify(r.json)}`);
    }
    const mine = await new Browser(base, '203.0.113.10').call('POST', '/api/orders/find', { orderNumber: victim.orderNumber, email: 'other@example.com' });
    answers.add(`${mine.status} ${JSON.stringify(mine.json)}`);
    await new Promise((r) => setTimeout(r, 500));
    const mailsToVictim = linkMails(victim.orderNumber);

    const opened = statuses.get(200) ?? 0;
    return {
      rows: [
        { what: 'the signed link opens the order', target: '200', measured: String(good.status), ok: good.status === 200 },
        {
          what: `${forged.length} forged keys (another order's, cut short, padded, random) against one order`,
          target: '0 opened, all 404',
          measured: [...statuses].map(([s, n]) => `${n}× ${s}`).join(', '),
          ok: opened === 0 && (statuses.get(404) ?? 0) === forged.length,
        },
        { what: 'forged-key answers a second (20 concurrent callers)', target: 'info', measured: `${perSecond}/s`, ok: true },
        {
          what: '40 order numbers tried against the victim’s address from one attacker',
          target: '3 × 202 then 429',
          measured: `${byNumber.filter((s) => s === 202).length} × 202, ${byNumber.filter((s) => s === 429).length} × 429`,
          ok: byNumber.filter((s) => s === 202).length === 3 && byNumber.slice(3).every((s) => s === 429),
        },
        {
          what: 'the victim’s number with 41 wrong addresses (41 network addresses): distinct answers',
          target: '1 (the same 202)',
          measured: String(answers.size),
          ok: answers.size === 1 && [...answers][0]!.startsWith('202 '),
        },
        { what: 'link mails sent for the victim’s order', target: '0', measured: String(mailsToVictim), ok: mailsToVictim === 0 },
      ],
    };
  });

export default scenario;
