import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { adminClient } from '../../../tests/support/admin-session';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { confirmOffline, createProduct, readyShopper, startPayment } from '../../../tests/support/shop-fixtures';

// Test orders (ADR 008): an order paid through the offline test gateway took no money; the owner must never
// mistake it for a sale, wherever it shows.
describeEachDb('orders paid on the offline test gateway', (t) => {
  test('are marked as test orders in the admin list, the CSV export and the confirmation e-mail', async () => {
    const productId = await createProduct(t().database.db, { name: 'Gateway Tee', stock: 5 });
    const shopper = await readyShopper(t(), productId);
    const intent = await startPayment(shopper);
    expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
    const placed = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
    expect(placed.statusCode).toBe(200);
    const { orderNumber } = placed.json() as { orderNumber: string };

    const admin = await adminClient(t());
    const list = (await admin.get('/api/admin/orders')).json() as Array<{ orderNumber: string; isTest: boolean }>;
    expect(list.find((o) => o.orderNumber === orderNumber)).toMatchObject({ isTest: true });

    const csv = (await admin.get('/api/admin/orders.csv')).body;
    const [header, ...rows] = csv.split('\r\n');
    const line = rows.find((l) => l.includes(orderNumber))!;
    // The marker sits in its own column (new columns, such as tracking, are appended after it).
    const testColumn = header!.split(',').findIndex((h) => /test/i.test(h));
    expect(testColumn).toBeGreaterThan(0);
    expect(line.split('","')[testColumn]).toBe('TEST: not charged');

    await t().services.fulfilment.drain();
    const outbox = path.join(t().dataDir, 'outbox');
    const mail = fs
      .readdirSync(outbox)
      .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, ''))
      .find((m) => m.includes(orderNumber))!;
    expect(mail).toMatch(/^Subject: \[TEST\] FIFTY order /m);
    expect(mail).toContain('TEST ORDER: paid with the shop');
    expect(mail).toContain('No money was taken');
  });
});
