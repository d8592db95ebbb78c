import { and, eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import type { AdminDrop, DropStatus } from '../../../common/contracts/drops';
import type { CustomerInfoBody } from '../../../common/contracts/checkout';
import { adminClient } from '../../../tests/support/admin-session';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { createDrop, dropStatus, joinDrop, moveRelease, restartPacing } from '../../../tests/support/drops';
import { confirmOffline, customer, GOOD_CARD, productState } from '../../../tests/support/shop-fixtures';
import { checkouts } from '../checkout/checkout.tables';
import { dropQueue } from './drops.tables';

// "The last piece always finds a buyer" (docs/product.md §9, Drops): "sold out" is final only when no piece
// can come back; until then the line is told that every piece is in a checkout and stays; a piece that comes
// back after the stamp re-opens the line for whoever was told.

const MINUTE = 60_000;
let ipSeq = 0;
const freshIp = () => `10.78.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

/** Shoppers who joined in this order, after the release (first come, first served). */
async function line(t: TestApp, productId: string, n: number): Promise<TestClient[]> {
  const clients: TestClient[] = [];
  for (let i = 0; i < n; i++) {
    const c = t.client();
    const res = await joinDrop(c, productId, { ip: freshIp() });
    expect(res.statusCode, res.body).toBe(201);
    clients.push(c);
  }
  await restartPacing(t, productId);
  return clients;
}

/** Ticks (the pacing lets one in every 200 ms) until the shopper's status reads `want`. */
async function tickUntil(t: TestApp, c: TestClient, productId: string, want: (s: DropStatus) => boolean): Promise<DropStatus> {
  let last: DropStatus | null = null;
  await expect
    .poll(
      async () => {
        await t.services.drops.tick();
        last = await dropStatus(c, productId);
        return want(last);
      },
      { timeout: 10_000, interval: 100 },
    )
    .toBe(true);
  return last!;
}

const admitted = (s: DropStatus) => s.ticket?.status === 'admitted';

/** An admitted shopper: pass, cart, details, hold. The payment intent's answer. */
async function hold(c: TestClient, productId: string, info: Partial<CustomerInfoBody>): Promise<{ clientSecret: string; paymentIntentId: string }> {
  expect((await c.post(`/api/drops/${productId}/pass`)).statusCode).toBe(200);
  const add = await c.post('/api/cart', { productId, quantity: 1, selectedSize: null });
  expect(add.statusCode, add.body).toBe(200);
  expect((await c.post('/api/customer-info', customer(info))).statusCode).toBe(200);
  const intent = await c.post('/api/create-payment-intent', {});
  expect(intent.statusCode, intent.body).toBe(200);
  return intent.json() as { clientSecret: string; paymentIntentId: string };
}

/** Pays a held checkout; the offline gateway's card fingerprint is the number with the expiry (one expiry: one person). */
async function pay(c: TestClient, intent: { clientSecret: string; paymentIntentId: string }, expiry = GOOD_CARD.expiry) {
  expect((await confirmOffline(c, intent.clientSecret, { ...GOOD_CARD, expiry })).statusCode).toBe(200);
  return c.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
}

async function ticketStatuses(t: TestApp, productId: string): Promise<string[]> {
  const rows = await t.database.db.select({ status: dropQueue.status }).from(dropQueue).where(eq(dropQueue.productId, productId));
  return rows.map((r) => r.status).sort();
}

// One person, two spellings the identity folding cannot join; the same card.
const SAM = { email: 'sam.rivera@example.com', shippingAddress: '12 Elm Street' };
const SAM_AGAIN = { email: 'srivera@example.org', shippingAddress: '12 Elm Lane' };

describeEachDb('a drop\'s last piece: "sold out" only when final', (t) => {
  test('a payment refunded over the limit (her second session) gives its piece back: the next in line is let in and buys it', async () => {
    const id = await createDrop(t(), -1_000, { name: 'Last Piece Tee', stock: 2, maxPerShopper: 1 });
    // Room for floor(2 × 1.2) = 2 promises: her two sessions are let in, the three behind wait.
    const [her, herAgain, next, third, fourth] = await line(t(), id, 5);
    await tickUntil(t(), herAgain!, id, admitted);
    expect((await dropStatus(next!, id)).ticket?.status).toBe('waiting');

    const first = await hold(her!, id, SAM);
    expect((await pay(her!, first)).statusCode).toBe(200);
    // Her second session holds the last piece: the line is told the pieces are in checkouts, never "sold out".
    const second = await hold(herAgain!, id, SAM_AGAIN);
    const inCheckouts = await tickUntil(t(), next!, id, (s) => s.soldOut === 'in_checkouts');
    expect(inCheckouts).toMatchObject({ phase: 'open', left: 0, held: 1, ticket: { status: 'waiting' } });
    expect(await ticketStatuses(t(), id)).not.toContain('sold_out');

    // Paid with her card: over the limit of 1, refunded at the order, and the piece is back.
    const refused = await pay(herAgain!, second);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: 'You can buy only 1 of Last Piece Tee per shopper. Your payment has been refunded.' });
    expect(await productState(t().database.db, id)).toEqual({ stock: 1, soldCount: 1 });

    // The refunded session is no live promise any more: the next in line is let in and buys the last piece.
    await tickUntil(t(), next!, id, admitted);
    const last = await hold(next!, id, { email: 'next@example.com', shippingAddress: '3 Oak Road' });
    const bought = await pay(next!, last, '03/41');
    expect(bought.statusCode, bought.body).toBe(200);
    expect(await productState(t().database.db, id)).toEqual({ stock: 0, soldCount: 2 });

    // Now it is final: everyone still waiting is told at once.
    const over = await tickUntil(t(), third!, id, (s) => s.phase === 'sold_out');
    expect(over).toMatchObject({ soldOut: 'final', left: 0, ticket: { status: 'sold_out' } });
    expect((await dropStatus(fourth!, id)).ticket?.status).toBe('sold_out');
  });

  test('an admitted shopper who finds every piece in a checkout is told to stay, not "sold out", and buys when a hold lapses', async () => {
    const id = await createDrop(t(), -1_000, { name: 'Stay Tee', stock: 2, maxPerShopper: 2 });
    const [holder, stayer] = await line(t(), id, 2);
    await tickUntil(t(), stayer!, id, admitted);
    // One piece in the stayer's cart; then the holder holds both.
    expect((await stayer!.post(`/api/drops/${id}/pass`)).statusCode).toBe(200);
    expect((await stayer!.post('/api/cart', { productId: id, quantity: 1, selectedSize: null })).statusCode).toBe(200);
    expect((await stayer!.post('/api/customer-info', customer({ email: 'stayer@example.com', shippingAddress: '5 Birch Road' }))).statusCode).toBe(200);
    expect((await holder!.post(`/api/drops/${id}/pass`)).statusCode).toBe(200);
    expect((await holder!.post('/api/cart', { productId: id, quantity: 2, selectedSize: null })).statusCode).toBe(200);
    expect((await holder!.post('/api/customer-info', customer({ email: 'holder@example.com' }))).statusCode).toBe(200);
    expect((await holder!.post('/api/create-payment-intent', {})).statusCode).toBe(200);

    // Both refusals for stock (the hold, one more in the cart) say the pieces are in checkouts.
    const stayMessage = { message: 'All pieces of Stay Tee are in checkouts right now — one may come back. Stay on this page and try again.' };
    const refusedHold = await stayer!.post('/api/create-payment-intent', {});
    expect(refusedHold.statusCode).toBe(409);
    expect(refusedHold.json()).toEqual(stayMessage);
    const refusedAdd = await stayer!.post('/api/cart', { productId: id, quantity: 1, selectedSize: null });
    expect(refusedAdd.statusCode).toBe(409);
    expect(refusedAdd.json()).toEqual(stayMessage);

    // The holder never pays: the hold lapses and both pieces come back; the one who stayed buys.
    await t().database.db
      .update(checkouts)
      .set({ holdExpiresAt: new Date(Date.now() - 1_000) })
      .where(and(eq(checkouts.status, 'open'), sql`${checkouts.lines} @> ${JSON.stringify([{ productId: id }])}::jsonb`));
    expect(await t().services.checkout.releaseExpiredHolds()).toBeGreaterThan(0);
    const intent = await stayer!.post('/api/create-payment-intent', {});
    expect(intent.statusCode, intent.body).toBe(200);
    const bought = await pay(stayer!, intent.json() as { clientSecret: string; paymentIntentId: string }, '05/43');
    expect(bought.statusCode, bought.body).toBe(200);
  });

  test('the window ends while the last piece is in a checkout: nobody is told "sold out" until it is sold', async () => {
    const id = await createDrop(t(), -1_000, { name: 'Window Tee', stock: 1, maxPerShopper: 1 });
    const [buyer, waiter] = await line(t(), id, 2);
    await tickUntil(t(), buyer!, id, admitted);
    const held = await hold(buyer!, id, { email: 'buyer@example.com' });
    await tickUntil(t(), waiter!, id, (s) => s.soldOut === 'in_checkouts');

    // The window (and its minute of grace) is over while the piece is still held: it may come back, so the
    // line is not told the drop sold out.
    await moveRelease(t(), id, -(t().config.DROP_WINDOW_MINUTES + 2) * MINUTE);
    for (let i = 0; i < 3; i++) await t().services.drops.tick();
    expect(await ticketStatuses(t(), id)).toEqual(['admitted', 'waiting']);
    const status = await dropStatus(waiter!, id);
    expect(status.phase).toBe('ended');
    expect(status.soldOut).toBeUndefined();

    // Sold: now nothing can come back, and the drop still being watched says so.
    expect((await pay(buyer!, held)).statusCode).toBe(200);
    await tickUntil(t(), waiter!, id, (s) => s.phase === 'sold_out');
    expect(await ticketStatuses(t(), id)).toEqual(['admitted', 'sold_out']);
  });

  test('a piece that comes back after the sell-out (inside the window) re-opens the line: whoever was told is let in and buys it', async () => {
    const id = await createDrop(t(), -1_000, { name: 'Comeback Tee', stock: 1, maxPerShopper: 1 });
    const [buyer, waiter, behind] = await line(t(), id, 3);
    await tickUntil(t(), buyer!, id, admitted);
    expect((await pay(buyer!, await hold(buyer!, id, { email: 'first@example.com' }))).statusCode).toBe(200);
    await tickUntil(t(), waiter!, id, (s) => s.ticket?.status === 'sold_out');

    // The owner cancels the order: the piece (No. 1) goes back on the shelf through the one return step.
    await t().database.db.transaction((tx) => t().services.inventory.returnSold(tx, id, [1]));
    expect(await productState(t().database.db, id)).toEqual({ stock: 1, soldCount: 0 });
    // The Notify-me list does not get it: the line was told "sold out", so it comes first.
    expect(await t().services.drops.soldOutWithNobodyInLine(id)).toBe(false);

    const back = await tickUntil(t(), waiter!, id, admitted);
    expect(back.phase).toBe('open');
    expect((await dropStatus(behind!, id)).ticket?.status).toBe('waiting');
    const bought = await pay(waiter!, await hold(waiter!, id, { email: 'second@example.com', shippingAddress: '4 Pine Road' }), '04/42');
    expect(bought.statusCode, bought.body).toBe(200);
    const final = await tickUntil(t(), behind!, id, (s) => s.phase === 'sold_out');
    expect(final).toMatchObject({ soldOut: 'final', ticket: { status: 'sold_out' } });
  });

  test("Resume clears the pause's message (a new message sent with the resume stays)", async () => {
    const id = await createDrop(t(), -1_000, { name: 'Pause Tee', stock: 5 });
    const admin = await adminClient(t());
    const patch = async (payload: Record<string, unknown>) => {
      const res = await admin.request({ method: 'PATCH', url: `/api/admin/drops/${id}`, payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as AdminDrop;
    };
    expect(await patch({ paused: true, message: 'Back in 5 minutes' })).toMatchObject({ paused: true, message: 'Back in 5 minutes' });
    expect(await patch({ admitPerMinute: 120 })).toMatchObject({ paused: true, message: 'Back in 5 minutes' });
    expect(await patch({ paused: false })).toMatchObject({ paused: false, message: null });
    expect((await dropStatus(t().client(), id)).message).toBeNull();

    await patch({ paused: true, message: 'Short break' });
    expect(await patch({ paused: false, message: 'We are back' })).toMatchObject({ paused: false, message: 'We are back' });
    // A message said while not paused is not the pause's: a resume that changes nothing keeps it.
    expect(await patch({ paused: false })).toMatchObject({ paused: false, message: 'We are back' });
  });
});
