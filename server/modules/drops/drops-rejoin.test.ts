import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { createDrop, dropStatus, joinDrop, restartPacing } from '../../../tests/support/drops';
import { solvePow } from '../../../tests/support/pow';
import { customer } from '../../../tests/support/shop-fixtures';
import type { DropStatus } from '../../../common/contracts/drops';
import { dropQueue, drops } from './drops.tables';

// "Rejoin the line" after a pass lapsed unused, and the held pieces in the status (ADR 010), on the real database.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { POW_TRIES: '2' } });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function rejoin(client: TestClient, productId: string, altcha?: string | null) {
  const proof = altcha === undefined ? await solvePow((await client.get('/api/pow-challenge')).json()) : altcha;
  return client.post(`/api/drops/${productId}/rejoin`, proof === null ? {} : { altcha: proof });
}

/** Moves a session's admission back past its pass (10 minutes by default), as if the pass ran out unused. */
async function lapse(productId: string, status: DropStatus) {
  await t.database.db
    .update(dropQueue)
    .set({ admittedAt: sql`now() - interval '11 minutes'` })
    .where(and(eq(dropQueue.productId, productId), eq(dropQueue.id, status.ticket!.id)));
}

async function tickUntil(check: () => Promise<boolean>) {
  await expect
    .poll(async () => {
      await t.services.drops.tick();
      return check();
    }, { timeout: 10_000, interval: 100 })
    .toBe(true);
}

describe('POST /api/drops/:productId/rejoin', () => {
  test('a lapsed pass goes to the back of the line, behind those already waiting; the line keeps its order', async () => {
    // 2 pieces, overbooking 0.2: two shoppers in at a time.
    const id = await createDrop(t, -1000, { stock: 2 });
    const [a, b, c] = [t.client(), t.client(), t.client()];
    for (const [i, s] of [a, b, c].entries()) expect((await joinDrop(s, id, { ip: `203.0.113.${i + 1}` })).statusCode).toBe(201);
    await restartPacing(t, id);
    await tickUntil(async () => (await dropStatus(b, id)).ticket?.status === 'admitted');
    expect((await dropStatus(a, id)).ticket?.status).toBe('admitted');
    expect((await dropStatus(c, id)).ticket).toMatchObject({ status: 'waiting', position: 1 });

    // A's pass is still live: rejoining changes nothing.
    const live = await rejoin(a, id);
    expect(live.statusCode, live.body).toBe(200);
    expect((live.json() as DropStatus).ticket?.status).toBe('admitted');

    await lapse(id, await dropStatus(a, id));
    // A proof of work is needed, as for joining.
    expect((await rejoin(a, id, null)).statusCode).toBe(400);
    const res = await rejoin(a, id);
    expect(res.statusCode, res.body).toBe(201);
    const back = res.json() as DropStatus;
    expect(back.ticket).toMatchObject({ status: 'waiting', raffle: false, position: 2, passExpiresAt: null });
    const [row] = await t.database.db.select().from(drops).where(eq(drops.productId, id));
    expect(row!.admittedCount).toBe(1);

    // The lapsed place no longer counts: C (ahead) is let in, A waits for a place.
    await tickUntil(async () => (await dropStatus(c, id)).ticket?.status === 'admitted');
    expect((await dropStatus(a, id)).ticket).toMatchObject({ status: 'waiting', position: 1 });
    // B's pass lapses too: A is next.
    await lapse(id, await dropStatus(b, id));
    await tickUntil(async () => (await dropStatus(a, id)).ticket?.status === 'admitted');
    expect((await dropStatus(b, id)).ticket?.status).toBe('admitted');
    const pass = await a.post(`/api/drops/${id}/pass`);
    expect(pass.statusCode, pass.body).toBe(200);
  });

  test('without a place it is a join; once the drop is over it is refused with the reason', async () => {
    const id = await createDrop(t, -1000, { stock: 3 });
    const s = t.client();
    const res = await rejoin(s, id);
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as DropStatus).ticket?.status).toBe('waiting');

    await t.database.db.update(drops).set({ soldOutAt: sql`now()` }).where(eq(drops.productId, id));
    const refused = await rejoin(s, id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/sold out/);
  });
});

describe('held pieces in the status', () => {
  test('the last piece held in a checkout: left 0, held 1, not sold out', async () => {
    const id = await createDrop(t, -1000, { stock: 1 });
    const s = t.client();
    expect((await joinDrop(s, id, { ip: '198.51.100.77' })).statusCode).toBe(201);
    await restartPacing(t, id);
    await tickUntil(async () => (await dropStatus(s, id)).ticket?.status === 'admitted');
    expect((await s.post(`/api/drops/${id}/pass`)).statusCode).toBe(200);
    expect((await s.post('/api/cart', { productId: id, quantity: 1 })).statusCode).toBe(200);
    expect((await s.post('/api/customer-info', customer())).statusCode).toBe(200);
    const pay = await s.post('/api/create-payment-intent', {});
    expect(pay.statusCode, pay.body).toBe(200);

    const other = t.client();
    await tickUntil(async () => {
      const st = await dropStatus(other, id);
      return st.left === 0 && st.held === 1;
    });
    expect((await dropStatus(other, id)).phase).toBe('open');
  });
});
