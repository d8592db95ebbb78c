import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { IllegalTransitionError } from '../../../common/domain/checkout-lifecycle';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { createProduct, readyShopper, startPayment } from '../../../tests/support/shop-fixtures';
import { stockHolds } from '../inventory/inventory.tables';
import { orders } from '../orders/orders.tables';
import { transitionCheckout } from './checkout.repository';
import { checkouts } from './checkout.tables';

/** Checkout lifecycle (common/domain/checkout-lifecycle.ts): the repository moves a checkout only along the lifecycle table; CHECKs refuse other statuses. */
describeEachDb('checkout lifecycle in the database', (t) => {
  async function openCheckout() {
    const db = t().database.db;
    const productId = await createProduct(db, { stock: 3 });
    const shopper = await readyShopper(t(), productId);
    const { paymentIntentId } = await startPayment(shopper);
    const [row] = await db.select().from(checkouts).where(eq(checkouts.paymentIntentId, paymentIntentId));
    return row!;
  }

  test('legal moves happen once; a row no longer in a source is left alone (false)', async () => {
    const db = t().database.db;
    const co = await openCheckout();
    expect(await transitionCheckout(db, co.id, 'expired')).toBe(true);
    expect(await transitionCheckout(db, co.id, 'cancelled')).toBe(false);
    expect(await transitionCheckout(db, co.id, 'fulfilled')).toBe(true);
    expect(await transitionCheckout(db, co.id, 'refunded')).toBe(false);
    const [row] = await db.select({ status: checkouts.status }).from(checkouts).where(eq(checkouts.id, co.id));
    expect(row!.status).toBe('fulfilled');
  });

  test('an illegal transition is an error, and nothing changes', async () => {
    const db = t().database.db;
    const co = await openCheckout();
    await expect(transitionCheckout(db, co.id, 'open')).rejects.toThrow(IllegalTransitionError);
    await expect(transitionCheckout(db, co.id, 'refunded', { from: ['fulfilled'] })).rejects.toThrow(
      'Illegal checkout transition: fulfilled → refunded',
    );
    const [row] = await db.select({ status: checkouts.status }).from(checkouts).where(eq(checkouts.id, co.id));
    expect(row!.status).toBe('open');
  });

  test('CHECK constraints refuse statuses outside the lifecycle, even from raw SQL', async () => {
    const db = t().database.db;
    const co = await openCheckout();
    const refused = (constraint: string) => ({
      cause: expect.objectContaining({ code: '23514', constraint }) as unknown,
    });
    await expect(db.update(checkouts).set({ status: 'paid' }).where(eq(checkouts.id, co.id))).rejects.toMatchObject(
      refused('checkouts_status_valid'),
    );
    await expect(
      db.update(stockHolds).set({ status: 'lost' }).where(eq(stockHolds.checkoutId, co.id)),
    ).rejects.toMatchObject(refused('stock_holds_status_valid'));
    await expect(
      db.insert(orders).values({
        orderNumber: 'FIF-LIFECYCLE',
        sessionId: 's',
        stripePaymentIntentId: 'pi_lifecycle',
        customerEmail: 'a@example.com',
        customerFirstName: 'A',
        customerLastName: 'B',
        shippingAddress: '1 Road',
        shippingCity: 'C',
        shippingState: 'IL',
        shippingZip: '60601',
        subtotalCents: 100,
        totalCents: 100,
        status: 'returned',
      }),
    ).rejects.toMatchObject(refused('orders_status_valid'));
  });
});
