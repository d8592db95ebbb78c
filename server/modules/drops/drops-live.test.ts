import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, onTestFinished, test, vi } from 'vitest';
import type { AdminDrop, DropStatus } from '../../../common/contracts/drops';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/client';
import { createManualClock } from '../../lib/db-clock';
import { buildTestApp, describeEachDb, type TestApp } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { createDrop, joinDrop } from '../../../tests/support/drops';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { products } from '../catalog/catalog.tables';
import { dropQueue, drops } from './drops.tables';

const SECRET = 'test-session-secret-test-session-secret-0123';

/**
 * The clock of the suites that pace admissions: the app's `now()` and the statements' `sqlNow()` read it
 * (server/lib/db-clock.ts), so a test moves time by hand instead of sleeping, and the counts are exact.
 */
const clock = createManualClock(Date.now());
/** A drop released `ms` from the test clock's now (negative: already released). */
const dropAt = (t: TestApp, ms: number, over: Parameters<typeof createDrop>[2] = {}) => createDrop(t, clock.now() - Date.now() + ms, over);
/** Restarts the drop's pacing clock at the test clock's now. */
const restartPacing = (t: TestApp, productId: string) => setDrop(t, productId, { admittedAt: new Date(clock.now()) });

/** `n` places taken straight in the table (sessions q-0 … q-n-1), after the release: first come, first served. */
async function fillQueue(t: TestApp, productId: string, n: number, prefix = 'q'): Promise<void> {
  await t.database.db.insert(dropQueue).values(
    Array.from({ length: n }, (_, i) => ({ productId, sessionId: `${prefix}-${i}`, addressKey: `addr-${i}`, raffle: false, lotteryKey: Math.random() })),
  );
}

async function admittedCount(t: TestApp, productId: string): Promise<number> {
  const rows = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(dropQueue)
    .where(sql`${dropQueue.productId} = ${productId} and ${dropQueue.status} = 'admitted'`);
  return rows[0]!.n;
}

async function setDrop(t: TestApp, productId: string, change: Partial<typeof drops.$inferInsert>) {
  await t.database.db.insert(drops).values({ productId }).onConflictDoNothing();
  await t.database.db.update(drops).set(change).where(eq(drops.productId, productId));
}

describeEachDb('waiting room: pacing on several instances', (t) => {
  const extra: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of extra) await close();
  });

  test('at 600 a minute the admitted count after t seconds is 10·t, with two instances ticking at once (none let in twice)', async () => {
    const id = await dropAt(t(), -200, { stock: 50 });
    await fillQueue(t(), id, 200);
    await setDrop(t(), id, { admitPerMinute: 600 });
    const database2 = await openDatabase({ databaseUrl: t().config.DATABASE_URL!, poolSize: 5 });
    const app2 = await buildApp(t().config, { database: database2, sessionSecret: SECRET, logger: false, clock });
    await app2.ready();
    extra.push(async () => {
      await app2.close();
      await database2.close();
    });

    await restartPacing(t(), id);
    // 2 s in steps of 40 ms, every step ticked three times at once by the two instances.
    for (let step = 0; step < 50; step++) {
      clock.advance(40);
      await Promise.all([t().services.drops.tick(), app2.services.drops.tick(), t().services.drops.tick()]);
    }
    const admitted = await admittedCount(t(), id);
    expect(admitted).toBe(20);
    // The count and the tickets agree: places 1..admitted_count, each once.
    const [row] = await t().database.db.select().from(drops).where(eq(drops.productId, id));
    expect(row!.admittedCount).toBe(admitted);
    const first = await t().services.drops.status(id, 'q-0');
    expect(first.ticket?.status).toBe('admitted');
    const next = await t().services.drops.status(id, `q-${admitted}`);
    expect(next.ticket).toMatchObject({ status: 'waiting', position: 1 });
    expect(next.ticket!.estimatedWaitSeconds).toBeGreaterThan(0);
  });

  test('pause holds every position still; resume goes on from there (no burst for the paused time)', async () => {
    const id = await dropAt(t(), -200, { stock: 50 });
    await fillQueue(t(), id, 100);
    await setDrop(t(), id, { admitPerMinute: 600 });
    await restartPacing(t(), id);
    for (let i = 0; i < 5; i++) {
      clock.advance(100);
      await t().services.drops.tick();
    }
    expect(await admittedCount(t(), id)).toBe(5);
    const admin = await adminClient(t());
    const paused = await admin.request({ method: 'PATCH', url: `/api/admin/drops/${id}`, payload: { paused: true }, headers: { 'content-type': 'application/json' } });
    expect(paused.statusCode, paused.body).toBe(200);
    expect((paused.json() as AdminDrop).paused).toBe(true);
    const before = await admittedCount(t(), id);
    const watched = await t().services.drops.status(id, 'q-60');
    expect(watched.paused).toBe(true);
    expect(watched.ticket!.estimatedWaitSeconds).toBeNull();
    // Paused for a whole minute: nobody is let in, and nothing is banked for later.
    for (let i = 0; i < 60; i++) {
      clock.advance(1000);
      await t().services.drops.tick();
    }
    expect(await admittedCount(t(), id)).toBe(before);
    expect((await t().services.drops.status(id, 'q-60')).ticket!.position).toBe(watched.ticket!.position);

    const resumed = await admin.request({ method: 'PATCH', url: `/api/admin/drops/${id}`, payload: { paused: false }, headers: { 'content-type': 'application/json' } });
    expect(resumed.statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      clock.advance(100);
      await t().services.drops.tick();
    }
    // 0.5 s at 10 a second: five more, not the 600 a paused minute would have banked.
    const gained = (await admittedCount(t(), id)) - before;
    expect(gained).toBe(5);
    expect((await t().services.drops.status(id, 'q-60')).ticket!.position).toBe(watched.ticket!.position! - gained);
  });

  test('while every piece left is held in checkouts admission waits; when all are sold everyone waiting is told sold_out at once', async () => {
    const id = await dropAt(t(), -200, { stock: 0 });
    await fillQueue(t(), id, 30);
    await restartPacing(t(), id);
    // 0 left, 1 held: nobody is let in, nobody told.
    await t().database.db.update(products).set({ heldCount: 1 }).where(eq(products.id, id));
    for (let i = 0; i < 3; i++) {
      clock.advance(100);
      await t().services.drops.tick();
    }
    expect(await admittedCount(t(), id)).toBe(0);
    expect((await t().services.drops.status(id, 'q-3')).phase).toBe('open');
    // The held piece is sold.
    await t().database.db.update(products).set({ heldCount: 0, soldCount: 1 }).where(eq(products.id, id));
    await t().services.drops.tick();
    const rows = await t().database.db.select({ status: dropQueue.status }).from(dropQueue).where(eq(dropQueue.productId, id));
    expect(rows.every((r) => r.status === 'sold_out')).toBe(true);
    const status = await t().services.drops.status(id, 'q-3');
    expect(status).toMatchObject({ phase: 'sold_out', queueLength: 0, left: 0 });
    expect(status.ticket).toMatchObject({ status: 'sold_out', position: null });
    const join = await joinDrop(t().client(), id, { ip: '10.88.0.1' });
    expect(join.statusCode).toBe(409);
  });
}, { deps: { clock } });

/** Reads server-sent events from a real socket. */
function openStream(base: string, path: string, cookie = '', ip?: string) {
  const events: DropStatus[] = [];
  const waiters: Array<() => void> = [];
  let headers: http.IncomingHttpHeaders = {};
  let statusCode = 0;
  let body = '';
  const req = http.get(`${base}${path}`, {
    headers: { cookie, 'accept-encoding': 'gzip, br', ...(ip ? { 'x-forwarded-for': ip } : {}) },
    agent: false,
  });
  const ready = new Promise<void>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      headers = res.headers;
      statusCode = res.statusCode ?? 0;
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        body += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (block.includes('event: status') && data) events.push(JSON.parse(data.slice(6)) as DropStatus);
          waiters.splice(0).forEach((w) => w());
        }
      });
      res.on('error', () => undefined);
      resolve();
    });
  });
  const closed = new Promise<void>((resolve) => req.on('close', () => resolve()));
  return {
    events,
    ready,
    closed,
    get headers() {
      return headers;
    },
    get statusCode() {
      return statusCode;
    },
    /** Everything received (a refusal's JSON). */
    get body() {
      return body;
    },
    /** The first event (after `from`) that satisfies `pred`, or throws after `ms`. */
    async next(pred: (s: DropStatus) => boolean, ms: number, from = 0): Promise<DropStatus> {
      const deadline = Date.now() + ms;
      for (;;) {
        const hit = events.slice(from).find(pred);
        if (hit) return hit;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching event within ${ms} ms; got ${JSON.stringify(events.slice(from))}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, left);
        });
      }
    },
    close: () => req.destroy(),
  };
}

describeEachDb('waiting room: live updates (server-sent events)', (t) => {
  test('the stream gives the status at once, a position change within 1 s, and sold_out to everyone waiting; never compressed', async () => {
    const { app, services } = t();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const id = await createDrop(t(), -200, { stock: 3 });
    await fillQueue(t(), id, 20);
    await setDrop(t(), id, { admitPerMinute: 600, paused: true });
    const shopper = t().client();
    expect((await joinDrop(shopper, id, { ip: '10.99.0.1' })).statusCode).toBe(201);

    const stream = openStream(base, `/api/drops/${id}/events`, shopper.cookieHeader);
    await stream.ready;
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.headers['cache-control']).toMatch(/no-store/);
    const first = await stream.next(() => true, 1000);
    expect(first).toMatchObject({ phase: 'open', paused: true, ticket: { status: 'waiting', position: 21 } });
    const anonymous = openStream(base, `/api/drops/${id}/events`);
    expect((await anonymous.next(() => true, 1000)).ticket).toBeNull();

    services.jobs.start();
    const admin = await adminClient(t());
    const resumedAt = Date.now();
    await admin.request({ method: 'PATCH', url: `/api/admin/drops/${id}`, payload: { paused: false }, headers: { 'content-type': 'application/json' } });
    const moved = await stream.next((s) => (s.ticket?.position ?? 99) < 21, 1000);
    expect(Date.now() - resumedAt).toBeLessThan(1000);
    expect(moved.paused).toBe(false);

    // The last pieces sell: everyone still waiting hears it within a second.
    await t().database.db.update(products).set({ stock: 0, soldCount: 3 }).where(eq(products.id, id));
    const count = stream.events.length;
    const soldOut = await stream.next((s) => s.phase === 'sold_out', 1500, count);
    expect(soldOut.ticket?.status === 'sold_out' || soldOut.ticket?.status === 'admitted').toBe(true);
    expect((await anonymous.next((s) => s.phase === 'sold_out', 1500)).queueLength).toBe(0);
    stream.close();
    anonymous.close();
  });

  test('a product without a drop: the stream is a plain 404', async () => {
    const plain = await createProduct(t().database.db, { stock: 1 });
    const res = await t().client().get(`/api/drops/${plain}/events`);
    expect(res.statusCode).toBe(404);
  });
});

/** Sends a stream request and hangs up without reading: at once, or after `afterMs`. */
function openAndDrop(base: string, path: string, ip: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get(`${base}${path}`, { headers: { 'x-forwarded-for': ip }, agent: false });
    req.on('error', () => undefined);
    req.on('close', () => resolve());
    if (afterMs === 0) req.on('finish', () => req.destroy());
    else setTimeout(() => req.destroy(), afterMs);
  });
}

describeEachDb('waiting room: streams that cannot be exhausted, status reads from memory', (t) => {
  let base = '';
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
  });

  test('2,000 stream requests dropped at every moment leave 0 slots in use; a new stream is 200', async () => {
    const id = await createDrop(t(), -200);
    await fillQueue(t(), id, 50);
    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => openAndDrop(base, `/api/drops/${id}/events`, `10.50.${batch}.${i}`, i % 3 === 0 ? 0 : i % 9)),
      );
    }
    await expect.poll(() => t().services.drops.streamCount, { timeout: 5000 }).toBe(0);
    const fresh = openStream(base, `/api/drops/${id}/events`, '', '10.50.200.1');
    await fresh.ready;
    expect(fresh.statusCode).toBe(200);
    expect((await fresh.next(() => true, 1000)).queueLength).toBe(50);
    expect(t().services.drops.streamCount).toBe(1);
    fresh.close();
    await expect.poll(() => t().services.drops.streamCount).toBe(0);
  });

  test('one address holds 50 streams: the 51st is 429 with Retry-After and the message; another address still gets one', async () => {
    const id = await createDrop(t(), 60_000);
    const mine = Array.from({ length: 50 }, () => openStream(base, `/api/drops/${id}/events`, '', '10.77.0.1'));
    await Promise.all(mine.map((s) => s.next(() => true, 5000)));
    expect(mine.every((s) => s.statusCode === 200)).toBe(true);
    const refused = openStream(base, `/api/drops/${id}/events`, '', '10.77.0.1');
    await refused.ready;
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.headers['content-type']).toMatch(/application\/json/);
    await refused.closed;
    expect(JSON.parse(refused.body)).toEqual({ message: 'Too many open streams from your network. Close a tab or try again shortly.' });
    const neighbour = openStream(base, `/api/drops/${id}/events`, '', '10.77.0.2');
    expect((await neighbour.next(() => true, 1000)).phase).toBe('raffle');
    for (const s of [...mine, neighbour]) s.close();
    await expect.poll(() => t().services.drops.streamCount).toBe(0);
  });

  test('status reads and stream starts do not rank the queue: one ranking read per tick answers them all', async () => {
    // Released 10 s ago: this instance's phase (its estimate of the database's clock) cannot still read
    // the raffle, and a phase change would be a fresh read.
    const id = await createDrop(t(), -10_000);
    await fillQueue(t(), id, 300);
    await setDrop(t(), id, { paused: true });
    // The ticker is not running here, and this instance's clock stands still from before the tick, so the
    // tick's read stays the newest (read at this very instant) however long the tick, the proof of work
    // below or a loaded machine take.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    onTestFinished(() => void vi.useRealTimers());
    await t().services.drops.tick();
    const reads = t().services.drops.roomReads;
    const shopper = t().client();
    const joined = await joinDrop(shopper, id, { ip: '10.66.0.1' });
    expect(joined.statusCode).toBe(201);
    // Joined after the last read (first come, first served): this instance adds the place at the end of its read.
    expect((joined.json() as DropStatus).ticket).toMatchObject({ status: 'waiting', position: 301 });
    for (let i = 0; i < 40; i++) {
      const anonymous = await t().client().get(`/api/drops/${id}`);
      expect(anonymous.statusCode).toBe(200);
      expect((anonymous.json() as DropStatus).queueLength).toBe(301);
    }
    const stream = openStream(base, `/api/drops/${id}/events`, shopper.cookieHeader, '10.66.0.1');
    // The first event is written as the stream starts; the wait is only for a loaded machine.
    expect((await stream.next(() => true, 5000)).ticket).toMatchObject({ position: 301 });
    for (const n of [0, 150, 299]) expect((await t().services.drops.status(id, `q-${n}`)).ticket?.position).toBe(n + 1);
    expect(t().services.drops.roomReads).toBe(reads);
    // The next tick reads the room (once per live drop: earlier tests' drops are live too) and the
    // shopper's stream hears its place from that read.
    await t().services.drops.tick();
    expect(t().services.drops.roomReads).toBeGreaterThan(reads);
    expect((await t().services.drops.status(id, null)).queueLength).toBe(301);
    expect(t().services.drops.streamCount).toBe(1);
    stream.close();
  });

  test('status reads are rate-limited per session (120 a minute, then 429 + Retry-After); another session at the same address goes on', async () => {
    const id = await createDrop(t(), 60_000);
    const shopper = t().client();
    expect((await joinDrop(shopper, id, { ip: '10.67.0.1' })).statusCode).toBe(201);
    const read = (c: typeof shopper) => c.request({ method: 'GET', url: `/api/drops/${id}`, remoteAddress: '10.67.0.1' });
    for (let i = 0; i < 120; i++) expect((await read(shopper)).statusCode).toBe(200);
    const refused = await read(shopper);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/^Too many requests/);
    const other = t().client();
    expect((await joinDrop(other, id, { ip: '10.67.0.1' })).statusCode).toBe(201);
    expect((await read(other)).statusCode).toBe(200);
  });
});

test('closing the app with open event streams does not hang', async () => {
  const t = await buildTestApp();
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const id = await createDrop(t, 60_000);
    const streams = Array.from({ length: 5 }, () => openStream(base, `/api/drops/${id}/events`));
    await Promise.all(streams.map((s) => s.next(() => true, 2000)));
    expect(t.services.drops.streamCount).toBe(5);
    const started = Date.now();
    await t.app.close();
    expect(Date.now() - started).toBeLessThan(2000);
    await Promise.all(streams.map((s) => s.closed));
  } finally {
    await t.database.close();
  }
});

describeEachDb('waiting room: the owner\'s controls', (t) => {
  test('admin only: 401 without an admin session', async () => {
    const id = await dropAt(t(), 60_000);
    expect((await t().client().get('/api/admin/drops')).statusCode).toBe(401);
    const shopper = t().client();
    const res = await shopper.request({ method: 'PATCH', url: `/api/admin/drops/${id}`, payload: { paused: true }, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(401);
    const [row] = await t().database.db.select().from(drops).where(eq(drops.productId, id));
    expect(row?.paused ?? false).toBe(false);
  });

  test('PATCH validates (400 with the message), 404 for an unknown product or one without a release time', async () => {
    const admin = await adminClient(t());
    const id = await dropAt(t(), 60_000);
    const patch = (productId: string, payload: unknown) =>
      admin.request({ method: 'PATCH', url: `/api/admin/drops/${productId}`, payload: payload as object, headers: { 'content-type': 'application/json' } });
    const low = await patch(id, { admitPerMinute: 0 });
    expect(low.statusCode).toBe(400);
    expect(low.json().message).toMatch(/Admission rate must be at least 1 per minute/);
    expect((await patch(id, { admitPerMinute: 1.5 })).json().message).toMatch(/Admission rate must be a whole number/);
    expect((await patch(id, { paused: 'yes' })).json().message).toMatch(/Paused must be true or false/);
    expect((await patch(id, { admitPerMinute: 10, extra: 1 })).statusCode).toBe(400);
    expect((await patch('00000000-0000-4000-8000-000000000000', { paused: true })).statusCode).toBe(404);
    const plain = await createProduct(t().database.db, { stock: 1 });
    expect((await patch(plain, { paused: true })).statusCode).toBe(404);
    const ok = await patch(id, { admitPerMinute: 120 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ productId: id, admitPerMinute: 120, paused: false, phase: 'raffle' });
  });

  test('GET lists drops newest first with queue, admitted, admitted per second, held/sold/left and the sell-out time', async () => {
    const admin = await adminClient(t());
    const older = await dropAt(t(), -30_000, { stock: 5 });
    const newer = await dropAt(t(), 120_000, { stock: 7 });
    await createProduct(t().database.db, { stock: 1 });
    t().services.catalog.invalidate();
    await fillQueue(t(), older, 12, 'm');
    await setDrop(t(), older, { admitPerMinute: 6000 });
    await restartPacing(t(), older);
    clock.advance(60);
    await t().services.drops.tick();
    await t().database.db.update(products).set({ stock: 3, heldCount: 1, soldCount: 1 }).where(eq(products.id, older));

    const res = await admin.get('/api/admin/drops');
    expect(res.statusCode).toBe(200);
    const list = res.json() as AdminDrop[];
    const ids = list.map((d) => d.productId);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    const o = list.find((d) => d.productId === older)!;
    expect(o.phase).toBe('open');
    expect(o.admitted).toBeGreaterThan(0);
    expect(o.admitted + o.queueLength).toBe(12);
    expect(o.admittedPerSecond).toBeCloseTo(o.admitted / 10, 5);
    expect(o).toMatchObject({ held: 1, sold: 1, left: 3, editionSize: 50, sellOutSeconds: null, admitPerMinute: 6000 });
    expect(list.find((d) => d.productId === newer)).toMatchObject({ phase: 'raffle', queueLength: 0, admitted: 0, left: 7 });

    // Sold out: every piece sold, nothing held.
    await t().database.db.update(products).set({ stock: 0, heldCount: 0, soldCount: 50 }).where(eq(products.id, older));
    await t().services.drops.tick();
    const after = ((await admin.get('/api/admin/drops')).json() as AdminDrop[]).find((d) => d.productId === older)!;
    expect(after.phase).toBe('sold_out');
    // Released 30 s before the test clock's start; sold out (stamped by the same clock) 60 ms later.
    expect(after.sellOutSeconds).toBe(30);
  });
}, { deps: { clock } });


