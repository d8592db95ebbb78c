import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeEach, expect, test } from 'vitest';
import { adminOrderSchema } from '../../common/contracts/admin';
import { ORDER_CHANGE_MESSAGES } from '../../common/contracts/order-address';
import { latestOrderSchema, ORDER_NOT_FOUND, orderViewSchema } from '../../common/contracts/orders';
import { overLimitMessage } from '../../common/domain/purchase-limit';
import { BUYER_ADDRESS_CHANGES } from '../../common/domain/order-address';
import { PO_BOX_MESSAGE } from '../../common/domain/fulfilment-promises';
import { createSteeredClock, systemClock } from '../lib/db-clock';
import { orderAddressChanges } from '../modules/orders/address-changes.tables';
import { orderRefunds, orders } from '../modules/orders/orders.tables';
import { describeEachDb, type TestApp } from '../../tests/support/build-test-app';
import { adminClient } from '../../tests/support/admin-session';
import {
  confirmOffline,
  createProduct,
  GOOD_CARD,
  customer,
  startPayment,
} from '../../tests/support/shop-fixtures';

const MIN = 60_000;
/** The shop's clock for this suite: the real one moved forward by `shift` (the app and its SQL alike). */
let shift = 0;
const clock = createSteeredClock(systemClock, () => shift);

const NEW_ADDRESS = {
  shippingAddress: '12 Difference Engine Rd',
  shippingCity: 'Portland',
  shippingState: 'OR',
  shippingZip: '97201',
  shippingCountry: 'US',
};

function outbox(t: TestApp): string[] {
  const dir = path.join(t.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((f) =>
    fs
      .readFileSync(path.join(dir, f), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '='),
  );
}

/** One buyer (their own session, e-mail and address) buys `quantity` of a product; answers the success page's order. */
async function buy(
  t: TestApp,
  opts: {
    productId?: string;
    email?: string;
    over?: Partial<ReturnType<typeof customer>>;
    maxPerShopper?: number;
    expiry?: string;
  } = {},
) {
  const productId =
    opts.productId ?? (await createProduct(t.database.db, { stock: 20, maxPerShopper: opts.maxPerShopper }));
  const shopper = t.client();
  expect((await shopper.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' })).statusCode).toBe(
    200,
  );
  const info = await shopper.post(
    '/api/customer-info',
    customer({ email: opts.email ?? 'ada@example.com', ...opts.over }),
  );
  expect(info.statusCode, info.body).toBe(200);
  const intent = await startPayment(shopper);
  expect(
    (
      await confirmOffline(shopper, intent.clientSecret, {
        ...GOOD_CARD,
        expiry: opts.expiry ?? GOOD_CARD.expiry,
      })
    ).statusCode,
  ).toBe(200);
  const latest = await shopper.get('/api/orders/latest');
  expect(latest.statusCode, latest.body).toBe(200);
  const order = latestOrderSchema.parse(latest.json());
  const [key] = order.orderPath.split('key=').slice(1);
  return { productId, order, key: key!, api: `/api/orders/${order.orderNumber}` };
}

describeEachDb(
  'the buyer hour after ordering: address change and cancel (change-order-address flow, real database)',
  (t) => {
    const db = () => t().database.db;
    const rowOf = async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0]!;
    const historyOf = (id: string) =>
      db().select().from(orderAddressChanges).where(eq(orderAddressChanges.orderId, id));
    beforeEach(() => {
      shift = 0;
    });

    test('at 10 minutes the buyer changes the address: the order ships there, the change is kept, the buyer is mailed', async () => {
      const { order, key, api } = await buy(t(), { email: 'moved@example.com' });
      const before = orderViewSchema.parse((await t().client().get(`${api}?key=${key}`)).json());
      expect(before.changeUntil?.at).toBe(
        new Date(new Date(before.placedAt).getTime() + 60 * MIN).toISOString(),
      );
      expect(before.changeUntil?.time).toMatch(/^\d{1,2}:\d\d [AP]M /);

      shift = 10 * MIN;
      const res = await t().client().post(`${api}/address?key=${key}`, NEW_ADDRESS);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const view = orderViewSchema.parse(res.json());
      expect(view.shippingAddress).toEqual({
        address: '12 Difference Engine Rd',
        city: 'Portland',
        state: 'OR',
        zip: '97201',
        country: 'US',
      });
      expect(await rowOf(order.id)).toMatchObject({
        shippingAddress: '12 Difference Engine Rd',
        shippingCity: 'Portland',
        shippingZip: '97201',
      });
      expect(await historyOf(order.id)).toMatchObject([
        {
          changedBy: 'buyer',
          oldAddress: {
            address: '1 Analytical Way',
            city: 'Springfield',
            state: 'IL',
            zip: '62701',
            country: 'US',
          },
          newAddress: {
            address: '12 Difference Engine Rd',
            city: 'Portland',
            state: 'OR',
            zip: '97201',
            country: 'US',
          },
        },
      ]);
      await t().services.orders.drainMail();
      const mail = outbox(t()).find((m) =>
        m.includes(`the delivery address of order ${order.orderNumber} changed`),
      );
      expect(mail).toBeDefined();
      expect(mail).toContain('To: moved@example.com');
      expect(mail).toContain('12 Difference Engine Rd');
      expect(mail).toContain(`http://localhost:${t().config.PORT}${order.orderPath}`);
    });

    test('the confirmation mail names the hour', async () => {
      const { order } = await buy(t(), { email: 'hour@example.com' });
      await t().services.fulfilment.drain();
      const confirmation = outbox(t()).find((m) => m.includes(`order ${order.orderNumber} confirmed`));
      expect(confirmation).toContain(
        'You can change the delivery address or cancel this order from your order page within 1 hour of ordering.',
      );
    });

    test('at 61 minutes the change is refused (409 with the reason), nothing changed, the page no longer offers it', async () => {
      const { order, key, api } = await buy(t());
      shift = 61 * MIN;
      const res = await t().client().post(`${api}/address?key=${key}`, NEW_ADDRESS);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: ORDER_CHANGE_MESSAGES.windowClosed });
      expect((await rowOf(order.id)).shippingAddress).toBe('1 Analytical Way');
      expect(await historyOf(order.id)).toEqual([]);
      expect(
        orderViewSchema.parse((await t().client().get(`${api}?key=${key}`)).json()).changeUntil,
      ).toBeNull();
    });

    test('another order’s key, a forged key or none: 404, nothing changed', async () => {
      const mine = await buy(t());
      const other = await buy(t());
      for (const key of [other.key, 'x'.repeat(22), '']) {
        const res = await t().client().post(`${mine.api}/address?key=${key}`, NEW_ADDRESS);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: ORDER_NOT_FOUND });
        const cancel = await t().client().post(`${mine.api}/cancel?key=${key}`);
        expect(cancel.statusCode).toBe(404);
      }
      expect((await rowOf(mine.order.id)).shippingAddress).toBe('1 Analytical Way');
      expect((await rowOf(mine.order.id)).status).not.toBe('cancelled');
      expect(await historyOf(mine.order.id)).toEqual([]);
    });

    test('an address the checkout would refuse: 400 with the checkout’s own message, nothing changed', async () => {
      const { order, key, api } = await buy(t());
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ...NEW_ADDRESS, shippingCity: '  ' }, 'City is required'],
        [{ ...NEW_ADDRESS, shippingZip: '' }, 'ZIP code is required'],
        [{ ...NEW_ADDRESS, shippingAddress: 'x'.repeat(301) }, ''],
        // The country's own rules (common/domain/address-format.ts), as at checkout.
        [{ ...NEW_ADDRESS, shippingCountry: 'ZZ' }, 'Please choose a country we ship to'],
        [
          { shippingAddress: '5 rue Oberkampf', shippingCity: 'Paris', shippingZip: 'E1 6RF', shippingCountry: 'FR' },
          'This postal code does not look like a French postal code',
        ],
        [{ shippingAddress: '1-2-3 Shibuya', shippingZip: '150-0002', shippingCountry: 'JP' }, 'Prefecture is required'],
        [{ ...NEW_ADDRESS, shippingState: 'IDF', shippingZip: '75011' }, 'Please choose a state from the list'],
      ];
      for (const [body, message] of cases) {
        const res = await t().client().post(`${api}/address?key=${key}`, body);
        expect(res.statusCode, res.body).toBe(400);
        const answer = res.json() as { message: string };
        expect(typeof answer.message).toBe('string');
        if (message) expect(answer.message).toContain(message);
      }
      expect(await rowOf(order.id)).toMatchObject({
        shippingAddress: '1 Analytical Way',
        shippingCity: 'Springfield',
      });
      expect(await historyOf(order.id)).toEqual([]);
    });

    test('a limited edition never goes to a P.O. box, as at checkout: 400 with the checkout’s message, nothing changed', async () => {
      const productId = await createProduct(db(), { stock: 20, releaseAt: new Date(Date.now() - 3600_000) });
      const { order, key, api } = await buy(t(), { productId, email: 'limited@example.com' });
      const res = await t()
        .client()
        .post(`${api}/address?key=${key}`, { ...NEW_ADDRESS, shippingAddress: 'P.O. Box 1234' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ message: PO_BOX_MESSAGE });
      expect((await rowOf(order.id)).shippingAddress).toBe('1 Analytical Way');
      expect(await historyOf(order.id)).toEqual([]);
    });

    test('a country change would alter shipping: refused with the support address, nothing changed', async () => {
      const { order, key, api } = await buy(t());
      const res = await t()
        .client()
        .post(`${api}/address?key=${key}`, {
          shippingAddress: '1 Front St W',
          shippingCity: 'Toronto',
          shippingState: 'ON',
          shippingZip: 'M5J 2N8',
          shippingCountry: 'CA',
        });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        message: `This change would alter shipping. Please contact support at ${t().config.SUPPORT_EMAIL}.`,
      });
      expect((await rowOf(order.id)).shippingCountry).toBe('US');
      expect(await historyOf(order.id)).toEqual([]);
    });

    test('a new address that another buyer’s piece already counts under: over the per-shopper limit, refused; a free one is taken and counts', async () => {
      const productId = await createProduct(db(), { stock: 20, name: 'Limit One Tee', maxPerShopper: 1 });
      // Buyer A at 1 Analytical Way; buyer B (another session, mailbox, card and doorstep) at 9 Babbage Ct.
      await buy(t(), { productId, email: 'a-buyer@example.com', expiry: '01/37' });
      const b = await buy(t(), {
        productId,
        email: 'b-buyer@example.com',
        expiry: '02/37',
        over: { shippingAddress: '9 Babbage Ct', shippingZip: '62702' },
      });
      // A's doorstep, spelled otherwise (case, punctuation, the street type written out): the same identity.
      const res = await t()
        .client()
        .post(`${b.api}/address?key=${b.key}`, {
          ...NEW_ADDRESS,
          shippingAddress: '1 analytical WAY.',
          shippingCity: 'Springfield',
          shippingState: 'IL',
          shippingZip: '62701',
        });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({ message: overLimitMessage('Limit One Tee', 1) });
      expect((await rowOf(b.order.id)).shippingAddress).toBe('9 Babbage Ct');
      expect(await historyOf(b.order.id)).toEqual([]);

      // A doorstep nobody bought at is fine, and from then on B's piece counts there: a third buyer there is refused.
      const ok = await t().client().post(`${b.api}/address?key=${b.key}`, NEW_ADDRESS);
      expect(ok.statusCode, ok.body).toBe(200);
      const third = t().client();
      expect((await third.post('/api/cart', { productId, quantity: 1, selectedSize: 'M' })).statusCode).toBe(
        200,
      );
      await third.post('/api/customer-info', customer({ email: 'c-buyer@example.com', ...NEW_ADDRESS }));
      const refused = await third.post('/api/create-payment-intent', {});
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ message: overLimitMessage('Limit One Tee', 1) });
    });

    test('two orders race to the same free doorstep under a limit of 1: one is taken, the other refused', async () => {
      const productId = await createProduct(db(), { stock: 20, name: 'Race Tee', maxPerShopper: 1 });
      const b = await buy(t(), {
        productId,
        email: 'race-b@example.com',
        expiry: '03/37',
        over: { shippingAddress: '3 Race Rd', shippingZip: '62703' },
      });
      const c = await buy(t(), {
        productId,
        email: 'race-c@example.com',
        expiry: '04/37',
        over: { shippingAddress: '4 Race Rd', shippingZip: '62704' },
      });
      const target = { ...NEW_ADDRESS, shippingAddress: '99 Contested Ave' };
      const answers = await Promise.all(
        [b, c].map((o) => t().client().post(`${o.api}/address?key=${o.key}`, target)),
      );
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.statusCode === 409)!.json()).toEqual({
        message: overLimitMessage('Race Tee', 1),
      });
      const moved = [await rowOf(b.order.id), await rowOf(c.order.id)].filter(
        (r) => r.shippingAddress === '99 Contested Ave',
      );
      expect(moved).toHaveLength(1);
    });

    test('30 changes of one order at once: each waits its turn (no 503); the first 3 are kept, the rest refused; the owner may still', async () => {
      const { order, key, api } = await buy(t(), { email: 'many-moves@example.com' });
      const lines = Array.from({ length: 30 }, (_, i) => `${i + 10} Moving Day Rd`);
      const answers = await Promise.all(
        lines.map((line) =>
          t()
            .client()
            .post(`${api}/address?key=${key}`, { ...NEW_ADDRESS, shippingAddress: line }),
        ),
      );
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(BUYER_ADDRESS_CHANGES);
      const refused = answers.filter((r) => r.statusCode !== 200);
      expect(refused.map((r) => r.statusCode)).toEqual(refused.map(() => 409));
      expect(refused[0]!.json()).toEqual({
        message: ORDER_CHANGE_MESSAGES.tooManyChanges(t().config.SUPPORT_EMAIL),
      });
      const history = await historyOf(order.id);
      expect(history).toHaveLength(BUYER_ADDRESS_CHANGES);
      expect(lines).toContain((await rowOf(order.id)).shippingAddress);
      // Each accepted address claims the order's pieces (per-shopper limits): no more than the cap of them.
      const admin = await adminClient(t());
      expect((await admin.post(`/api/admin/orders/${order.id}/address`, NEW_ADDRESS)).statusCode).toBe(200);
    });

    test('ten cancels of one order at once: one refund', async () => {
      const { order, key, api } = await buy(t(), { email: 'many-cancels@example.com' });
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => t().client().post(`${api}/cancel?key=${key}`)),
      );
      expect(answers.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
      expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
      expect(await db().select().from(orderRefunds).where(eq(orderRefunds.orderId, order.id))).toMatchObject([
        { status: 'succeeded' },
      ]);
    });

    test('the owner changes the address after the hour, but not once shipped; the buyer cannot after the hour', async () => {
      const { order, key, api } = await buy(t());
      const admin = await adminClient(t());
      shift = 3 * 60 * MIN;
      expect((await t().client().post(`${api}/address?key=${key}`, NEW_ADDRESS)).statusCode).toBe(409);
      // The owner's edit meets the same address rules as the checkout (ADR 023).
      const wrongZip = await admin.post(`/api/admin/orders/${order.id}/address`, { ...NEW_ADDRESS, shippingZip: 'E1 6RF' });
      expect(wrongZip.statusCode).toBe(400);
      expect(wrongZip.json()).toEqual({ message: 'This ZIP code does not look like a US ZIP code' });
      expect(await historyOf(order.id)).toEqual([]);
      const res = await admin.post(`/api/admin/orders/${order.id}/address`, NEW_ADDRESS);
      expect(res.statusCode, res.body).toBe(200);
      expect(adminOrderSchema.parse(res.json())).toMatchObject({
        shippingAddress: '12 Difference Engine Rd',
        shippingCity: 'Portland',
      });
      expect(await historyOf(order.id)).toMatchObject([{ changedBy: 'owner' }]);
      // Only behind the admin login.
      expect((await t().client().post(`/api/admin/orders/${order.id}/address`, NEW_ADDRESS)).statusCode).toBe(
        401,
      );

      expect(
        (await admin.put(`/api/admin/orders/${order.id}/status`, { status: 'shipped' })).statusCode,
      ).toBe(200);
      const late = await admin.post(`/api/admin/orders/${order.id}/address`, {
        ...NEW_ADDRESS,
        shippingAddress: '3 Late St',
      });
      expect(late.statusCode).toBe(409);
      expect(late.json()).toEqual({ message: ORDER_CHANGE_MESSAGES.shipped });
      expect((await rowOf(order.id)).shippingAddress).toBe('12 Difference Engine Rd');
      expect(await historyOf(order.id)).toHaveLength(1);
      expect((await admin.post('/api/admin/orders/not-a-uuid/address', NEW_ADDRESS)).statusCode).toBe(404);
    });

    test('the buyer cancels within the hour: the whole order cancelled and refunded to the card; after the hour: 409, nothing refunded', async () => {
      const { order, key, api } = await buy(t());
      shift = 30 * MIN;
      const res = await t().client().post(`${api}/cancel?key=${key}`);
      expect(res.statusCode, res.body).toBe(200);
      const view = orderViewSchema.parse(res.json());
      expect(view).toMatchObject({ status: 'cancelled', refunded: order.total, changeUntil: null });
      expect(await db().select().from(orderRefunds).where(eq(orderRefunds.orderId, order.id))).toMatchObject([
        { status: 'succeeded', destination: 'card', reason: 'cancellation' },
      ]);
      // Cancelled: the address cannot change any more, and a second cancel changes nothing.
      expect((await t().client().post(`${api}/address?key=${key}`, NEW_ADDRESS)).json()).toEqual({
        message: ORDER_CHANGE_MESSAGES.cancelled,
      });
      expect((await t().client().post(`${api}/cancel?key=${key}`)).statusCode).toBe(409);
      expect(await db().select().from(orderRefunds).where(eq(orderRefunds.orderId, order.id))).toHaveLength(
        1,
      );

      shift = 0;
      const late = await buy(t());
      shift = 61 * MIN;
      const refused = await t().client().post(`${late.api}/cancel?key=${late.key}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ message: ORDER_CHANGE_MESSAGES.windowClosed });
      expect((await rowOf(late.order.id)).status).not.toBe('cancelled');
      expect(await db().select().from(orderRefunds).where(eq(orderRefunds.orderId, late.order.id))).toEqual(
        [],
      );
    });
  },
  { deps: { clock } },
);
