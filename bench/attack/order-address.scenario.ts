// The buyer's hour after ordering (docs/product.md §2.13 "The hour after ordering", docs/security.md "Order
// links"), against a spawned shop:
// 1. forged keys (random, another order's) try to change the address and to cancel: never anything but 404,
//    the address and the order as they were;
// 2. 20 address changes of one order at once: each waits its turn (no 503); the first 3 kept and mailed, the rest
//    refused (each new address counts under the per-shopper limits), the order ends on one of them;
// 3. a change to another country: refused, nothing changed;
// 4. 10 cancels of one order at once: one cancellation, one refund.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { ShopBrowser as Browser, withSpawnedShop } from '../support/shop-scenario';

const FORGED = 400;

async function buy(
  b: Browser,
  email: string,
  address: string,
): Promise<{ orderNumber: string; orderPath: string }> {
  const step = async (what: string, method: string, url: string, body?: unknown) => {
    const r = await b.call(method, url, body);
    if (r.status !== 200) throw new Error(`buying failed at ${what}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };
  const products = (await step('products', 'GET', '/api/products')) as unknown as Array<{
    id: string;
    name: string;
    colors: Array<{ name: string }>;
  }>;
  const tee = products.find((p) => p.name === 'Fifty Standard Tee')!;
  await step('cart', 'POST', '/api/cart', {
    productId: tee.id,
    quantity: 1,
    selectedSize: 'M',
    selectedColor: tee.colors[0]?.name ?? null,
  });
  await step('details', 'POST', '/api/customer-info', {
    email,
    firstName: 'Moving',
    lastName: 'Buyer',
    phone: null,
    shippingAddress: address,
    shippingCity: 'Springfield',
    shippingState: 'IL',
    shippingZip: '62701',
    shippingCountry: 'US',
  });
  const intent = (await step('intent', 'POST', '/api/create-payment-intent', {})) as {
    clientSecret: string;
    paymentIntentId: string;
  };
  const expiry = `${String(1 + crypto.randomInt(12)).padStart(2, '0')}/${40 + crypto.randomInt(9)}`;
  await step('card', 'POST', '/api/payments/offline/confirm', {
    clientSecret: intent.clientSecret,
    cardNumber: '4242 4242 4242 4242',
    expiry,
    cvc: '123',
  });
  await step('order', 'POST', '/api/payment-success', { paymentIntentId: intent.paymentIntentId });
  return (await step('latest', 'GET', '/api/orders/latest')) as unknown as {
    orderNumber: string;
    orderPath: string;
  };
}

const addressBody = (line: string, country = 'US') => ({
  shippingAddress: line,
  shippingCity: 'Portland',
  shippingState: 'OR',
  shippingZip: '97201',
  shippingCountry: country,
});

const scenario: Scenario = () =>
  withSpawnedShop('order-address', {}, async ({ base, dataDir }) => {
    const outbox = path.join(dataDir, 'outbox');
    const changedMails = (orderNumber: string) =>
      fs.existsSync(outbox)
        ? fs.readdirSync(outbox).filter((f) =>
            fs
              .readFileSync(path.join(outbox, f), 'utf8')
              .replace(/=\r?\n/g, '')
              .replace(/\r?\n[ \t]+/g, ' ')
              .includes(`of order ${orderNumber} changed`),
          ).length
        : 0;

    const victim = await buy(new Browser(base, '203.0.113.10'), 'victim-moves@example.com', '1 Main St');
    const other = await buy(new Browser(base, '203.0.113.11'), 'other-moves@example.com', '2 Main St');
    const key = new URL(victim.orderPath, base).searchParams.get('key')!;
    const otherKey = new URL(other.orderPath, base).searchParams.get('key')!;
    const view = async () =>
      (await new Browser(base, '198.51.100.1').call('GET', `/api${victim.orderPath}`)).json as unknown as {
        status: string;
        shippingAddress: { address: string; country: string };
        refunds?: unknown[];
        refunded?: string;
        total: string;
      };

    // 1. Forged keys, 20 at a time, half of them changing the address and half cancelling.
    const forged = [
      otherKey,
      key.slice(0, -1),
      ...Array.from({ length: FORGED }, () => crypto.randomBytes(16).toString('base64url')),
    ];
    const statuses = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 20 }, async (_, lane) => {
        const b = new Browser(base, `198.51.100.${20 + lane}`);
        while (next < forged.length) {
          const i = next++;
          const k = encodeURIComponent(forged[i]!);
          const r =
            i % 2 === 0
              ? await b.call(
                  'POST',
                  `/api/orders/${victim.orderNumber}/address?key=${k}`,
                  addressBody('666 Thief Ln'),
                )
              : await b.call('POST', `/api/orders/${victim.orderNumber}/cancel?key=${k}`, {});
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }
      }),
    );
    const perSecond = Math.round(forged.length / ((performance.now() - started) / 1000));
    const afterForged = await view();

    // 2. Twenty changes at once from the buyer's own link.
    const lines = Array.from({ length: 20 }, (_, i) => `${i + 10} Moving Day Rd`);
    const changes = await Promise.all(
      lines.map((line, i) =>
        new Browser(base, `203.0.113.${50 + i}`).call(
          'POST',
          `/api/orders/${victim.orderNumber}/address?key=${key}`,
          addressBody(line),
        ),
      ),
    );
    const afterChanges = await view();
    await new Promise((r) => setTimeout(r, 500));
    const mails = changedMails(victim.orderNumber);

    // 3. Another country.
    const abroad = await new Browser(base, '203.0.113.90').call(
      'POST',
      `/api/orders/${victim.orderNumber}/address?key=${key}`,
      addressBody('1 Rue de Rivoli', 'FR'),
    );
    const afterAbroad = await view();

    // 4. Ten cancels at once.
    const cancels = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        new Browser(base, `203.0.113.${100 + i}`).call(
          'POST',
          `/api/orders/${victim.orderNumber}/cancel?key=${key}`,
          {},
        ),
      ),
    );
    const afterCancel = await view();

    return {
      rows: [
        {
          what: `${forged.length} forged keys changing the address or cancelling one order`,
          target: '0 accepted, all 404, order untouched',
          measured: `${[...statuses].map(([s, n]) => `${n}× ${s}`).join(', ')}; ${afterForged.shippingAddress.address}, ${afterForged.status}`,
          ok:
            (statuses.get(404) ?? 0) === forged.length &&
            afterForged.shippingAddress.address === '1 Main St' &&
            afterForged.status !== 'cancelled',
        },
        {
          what: 'forged-key answers a second (20 concurrent callers)',
          target: 'info',
          measured: `${perSecond}/s`,
          ok: true,
        },
        {
          what: '20 address changes of one order at once',
          target: '3 × 200, 17 × 409, 3 mails, ends on one of them',
          measured: `${[...new Set(changes.map((r) => r.status))].map((st) => `${changes.filter((r) => r.status === st).length} × ${st}`).join(', ')}, ${mails} mails, ends on "${afterChanges.shippingAddress.address}"`,
          ok:
            changes.filter((r) => r.status === 200).length === 3 &&
            changes.filter((r) => r.status === 409).length === 17 &&
            mails === 3 &&
            lines.includes(afterChanges.shippingAddress.address),
        },
        {
          what: 'a change to another country',
          target: '409, country unchanged',
          measured: `${abroad.status}, ${afterAbroad.shippingAddress.country}`,
          ok: abroad.status === 409 && afterAbroad.shippingAddress.country === 'US',
        },
        {
          what: '10 cancels of one order at once',
          target: 'cancelled, 1 refund of the total',
          measured: `${cancels.filter((r) => r.status === 200).length} × 200, ${cancels.filter((r) => r.status === 409).length} × 409; ${afterCancel.status}, ${afterCancel.refunds?.length ?? 0} refund(s) of ${afterCancel.refunded}`,
          ok:
            cancels.every((r) => r.status === 200 || r.status === 409) &&
            afterCancel.status === 'cancelled' &&
            afterCancel.refunds?.length === 1 &&
            afterCancel.refunded === afterCancel.total,
        },
      ],
    };
  });

export default scenario;
