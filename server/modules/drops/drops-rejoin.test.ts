import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { createDrop, dropStatus, joinDrop, restartPacing } from '../../../tests/support/drops';
import { solvePow } from '../../../tests/support/pow';
import { customer } from '../../../tests/support/shop-fixtures';
import type { DropStatus } from '../../../common/contracts/drops';
import { advanceAdmissions, requeueTicket } from './drops.repository';
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

describe('rejoin, leave and admission under the drop row lock', () => {
  const PASS_MS = 10 * 60_000;
  /** Backends of this test database waiting for a lock. */
  const lockWaiters = async () =>
    Number(
      (
        await t.database.pool.query(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )
      ).rows[0].n,
    );
  const tickets = async (id: string) =>
    t.database.db.select().from(dropQueue).where(eq(dropQueue.productId, id)).orderBy(dropQueue.seq);
  const admittedCount = async (id: string) =>
    (await t.database.db.select().from(drops).where(eq(drops.productId, id)))[0]!.admittedCount;

  /** A, B admitted (2 pieces, so 2 promises), C waiting; A's pass lapsed unused. */
  async function twoInOneWaiting() {
    const id = await createDrop(t, -1000, { stock: 2 });
    const [a, b, c] = [t.client(), t.client(), t.client()];
    for (const [i, s] of [a, b, c].entries()) expect((await joinDrop(s, id, { ip: `192.0.2.${i + 10}` })).statusCode).toBe(201);
    await restartPacing(t, id);
    await tickUntil(async () => (await dropStatus(b, id)).ticket?.status === 'admitted');
    expect((await dropStatus(a, id)).ticket?.status).toBe('admitted');
    expect((await dropStatus(c, id)).ticket?.status).toBe('waiting');
    await lapse(id, await dropStatus(a, id));
    return { id, a, b, c };
  }

  test('a rejoin committing while an admission step waits for the drop row: the old place is not let in again', async () => {
    const { id, a, c } = await twoInOneWaiting();
    const aId = (await dropStatus(a, id)).ticket!.id;
    const aRow = (await tickets(id)).find((r) => r.id === aId)!;
    // Two places' worth of pacing credit at once, so a stale ranking would let in two.
    await t.database.db
      .update(drops)
      .set({ admitPerMinute: 60, admittedAt: sql`now() - interval '1 hour'` })
      .where(eq(drops.productId, id));

    // Order the race: the rejoin takes the drop row and then waits for A's ticket (held here); the
    // admission step starts while the rejoin's changes are not committed; then both are let go.
    const holder = await t.database.pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from drop_queue where id = $1 for update', [aId]);
      const releaseAt = new Date(Date.now() - 60_000);
      const rejoined = requeueTicket(t.database.db, id, aRow.sessionId, { now: sql`now()`, passMs: PASS_MS, releaseAt });
      await expect.poll(lockWaiters).toBe(1);
      const admitted = advanceAdmissions(t.database.db, id, {
        releaseAt,
        now: sql`now()`,
        stock: 2,
        overbooking: 0.2,
        passMs: PASS_MS,
        engagedSessions: [],
      });
      await expect.poll(lockWaiters).toBe(2);
      await holder.query('commit');
      expect(await rejoined).not.toBeNull();
      // One place is free (A's lapsed one): C, next in line, gets it; A waits at the back.
      expect(await admitted).toBe(1);
    } finally {
      holder.release();
    }
    const rows = await tickets(id);
    const cId = (await dropStatus(c, id)).ticket!.id;
    expect(rows.find((r) => r.id === aId)?.status).toBe('waiting');
    expect(rows.find((r) => r.id === cId)?.status).toBe('admitted');
    // The count and the places let in agree: 1..admitted_count are exactly the admitted ones.
    expect(await admittedCount(id)).toBe(rows.filter((r) => r.status === 'admitted').length);
    expect(await admittedCount(id)).toBe(2);
  });

  test('Leave the line on an admitted place gives the place back: the next shopper is let in, the count matches', async () => {
    const id = await createDrop(t, -1000, { stock: 2 });
    const [a, b, c] = [t.client(), t.client(), t.client()];
    for (const [i, s] of [a, b, c].entries()) expect((await joinDrop(s, id, { ip: `192.0.2.${i + 20}` })).statusCode).toBe(201);
    await restartPacing(t, id);
    await tickUntil(async () => (await dropStatus(b, id)).ticket?.status === 'admitted');
    expect((await dropStatus(a, id)).ticket?.status).toBe('admitted');
    expect((await dropStatus(c, id)).ticket?.status).toBe('waiting');
    expect(await admittedCount(id)).toBe(2);

    // A leaves with a live pass: not a live promise any more, so C (next) is let in without waiting for
    // A's pass to run out.
    const left = await a.request({ method: 'DELETE', url: `/api/drops/${id}/queue` });
    expect(left.statusCode, left.body).toBe(200);
    expect(await admittedCount(id)).toBe(1);
    await restartPacing(t, id);
    await tickUntil(async () => (await dropStatus(c, id)).ticket?.status === 'admitted');
    const rows = await tickets(id);
    expect(rows.map((r) => r.status).sort()).toEqual(['admitted', 'admitted', 'left']);
    expect(await admittedCount(id)).toBe(2);

    // And A can come back, at the back of the line, without lowering the count a second time.
    expect((await rejoin(a, id)).statusCode).toBe(201);
    expect(await admittedCount(id)).toBe(2);
    expect((await dropStatus(a, id)).ticket).toMatchObject({ status: 'waiting', position: 1 });
  });
});
