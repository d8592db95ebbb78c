import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import type { AdmissionPass, DropStatus } from '../../../common/contracts/drops';
import { formatReleaseUtc } from '../../../common/domain/release';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { admitAndPass, createDrop, dropStatus, joinDrop, moveRelease, restartPacing } from '../../../tests/support/drops';
import { solvePow } from '../../../tests/support/pow';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { createKeyService } from '../../lib/keys';
import { createPassSigner } from './admission-pass';
import { dropQueue } from './drops.tables';

const MINUTE = 60_000;
let ipCounter = 0;
/** A fresh network address per test, so the per-address budgets of one test do not touch another's. */
const freshIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

/** The session id a client's signed session cookie carries. */
const sessionIdOf = (c: TestClient) => decodeURIComponent(c.cookies.get('fifty_sid')!).split('.').slice(0, -1).join('.');

async function ticketIds(t: TestApp, productId: string): Promise<Array<{ id: string; sessionId: string; status: string }>> {
  return t.database.db
    .select({ id: dropQueue.id, sessionId: dropQueue.sessionId, status: dropQueue.status })
    .from(dropQueue)
    .where(eq(dropQueue.productId, productId));
}

/**
 * Releases a drop with its admission paused, so positions read next are those of the draw: nobody can be
 * let in meanwhile, whatever ticks. The release goes 5 s into the past (SQL now()): this instance decides
 * the phase on its own estimate of the database's clock (server/lib/db-clock.ts, off by up to half a
 * measured round trip), which a loaded machine can put more than 100 ms behind, still in the raffle,
 * where no position is shown.
 */
async function releaseWithAdmissionPaused(t: TestApp, productId: string): Promise<void> {
  await t.services.drops.adminUpdate(productId, { paused: true });
  await moveRelease(t, productId, -5000);
}

describeEachDb('waiting room: joining', (t) => {
  test('a product without a release time has no drop (404); an unknown one neither', async () => {
    const plain = await createProduct(t().database.db, { stock: 3 });
    const res = await t().client().get(`/api/drops/${plain}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'This product has no scheduled drop.' });
    expect((await t().client().get('/api/drops/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const bad = await t().client().get('/api/drops/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Invalid product id/);
  });

  test('before the room opens: status not_open, a join is 409 saying when it opens, and no place is taken', async () => {
    const id = await createDrop(t(), 20 * MINUTE, { name: 'Early Bird Tee' });
    const shopper = t().client();
    const status = await dropStatus(shopper, id);
    expect(status.phase).toBe('not_open');
    expect(Date.parse(status.releaseAt) - Date.parse(status.roomOpensAt)).toBe(10 * MINUTE);
    const res = await joinDrop(shopper, id, { ip: freshIp() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: `The waiting room for Early Bird Tee opens on ${formatReleaseUtc(status.roomOpensAt)}.` });
    expect(await ticketIds(t(), id)).toHaveLength(0);
  });

  test('a join needs a solved proof of work: missing, invalid or reused is 400 and takes no place', async () => {
    const id = await createDrop(t(), 5 * MINUTE);
    const ip = freshIp();
    const missing = await joinDrop(t().client(), id, { altcha: null, ip });
    expect(missing.statusCode).toBe(400);
    const invalid = await joinDrop(t().client(), id, { altcha: Buffer.from('{"nope":1}').toString('base64'), ip });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ message: 'The check that you are human failed. Please try again.' });

    const first = t().client();
    const altcha = await solvePow((await first.get('/api/pow-challenge')).json());
    expect((await joinDrop(first, id, { altcha, ip })).statusCode).toBe(201);
    const replay = await joinDrop(t().client(), id, { altcha, ip });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ message: 'The check that you are human was already used. Please try again.' });
    expect(await ticketIds(t(), id)).toHaveLength(1);
  });

  test('joining twice gives the same ticket back (200); in the raffle no position is shown yet', async () => {
    const id = await createDrop(t(), 5 * MINUTE);
    const shopper = t().client();
    const ip = freshIp();
    const first = await joinDrop(shopper, id, { ip });
    expect(first.statusCode, first.body).toBe(201);
    const status = first.json() as DropStatus;
    expect(status.phase).toBe('raffle');
    expect(status.ticket).toMatchObject({ status: 'waiting', raffle: true, position: null, estimatedWaitSeconds: null, passExpiresAt: null });
    expect(status.queueLength).toBe(1);
    const again = await joinDrop(shopper, id, { ip });
    expect(again.statusCode).toBe(200);
    expect((again.json() as DropStatus).ticket?.id).toBe(status.ticket!.id);
    expect((await dropStatus(shopper, id)).ticket?.id).toBe(status.ticket!.id);
    // Another shopper sees no ticket of theirs.
    expect((await dropStatus(t().client(), id)).ticket).toBeNull();
  });

  test('joining is rate-limited per session like the other write routes (429 + Retry-After)', async () => {
    const id = await createDrop(t(), 5 * MINUTE);
    const shopper = t().client();
    const ip = freshIp();
    const statuses = [];
    // The first join comes without a session cookie (it makes the session): only the address counts it.
    for (let i = 0; i < 11; i++) statuses.push((await joinDrop(shopper, id, { ip })).statusCode);
    expect(statuses).toEqual([201, ...Array(10).fill(200)]);
    const refused = await joinDrop(shopper, id, { ip, altcha: 'unsolved' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  test(`one network address takes at most 50 places per drop (429 + Retry-After); 50 shoppers behind it all get in; other addresses go on`, async () => {
    const id = await createDrop(t(), 5 * MINUTE);
    const ip = freshIp();
    const results = [];
    for (let i = 0; i < 50; i++) results.push((await joinDrop(t().client(), id, { ip })).statusCode);
    expect(results).toEqual(Array(50).fill(201));
    const refused = await joinDrop(t().client(), id, { ip });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toEqual({ message: 'Too many places in this waiting room are taken from your network. Please try again later.' });
    // IPv6: the same /64 is one address.
    expect((await joinDrop(t().client(), id, { ip: '2001:db8:1:2::1' })).statusCode).toBe(201);
    expect((await joinDrop(t().client(), id, { ip: freshIp() })).statusCode).toBe(201);
    expect(await ticketIds(t(), id)).toHaveLength(52);
  });

  test('the raffle: entries joined before the release are let in in a random order, all ahead of later arrivals (first come, first served)', async () => {
    const id = await createDrop(t(), 5 * MINUTE, { stock: 50 });
    const raffle: TestClient[] = [];
    for (let i = 0; i < 12; i++) {
      const c = t().client();
      expect((await joinDrop(c, id, { ip: freshIp() })).statusCode).toBe(201);
      raffle.push(c);
    }
    await releaseWithAdmissionPaused(t(), id);
    const late: TestClient[] = [];
    for (let i = 0; i < 4; i++) {
      const c = t().client();
      const res = await joinDrop(c, id, { ip: freshIp() });
      expect(res.statusCode).toBe(201);
      expect((res.json() as DropStatus).ticket?.raffle).toBe(false);
      late.push(c);
    }
    const positions = async (clients: typeof raffle) => Promise.all(clients.map(async (c) => (await dropStatus(c, id)).ticket!.position));
    const rafflePositions = await positions(raffle);
    expect([...rafflePositions].sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // 1 in 12! (about 2e-9) that the draw is the arrival order.
    expect(rafflePositions).not.toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(await positions(late)).toEqual([13, 14, 15, 16]);

    // Admission follows the positions: at every tick the admitted ones are a prefix of the order.
    await t().services.drops.adminUpdate(id, { admitPerMinute: 600, paused: false });
    await restartPacing(t(), id);
    const order = [...raffle.map((c, i) => ({ c, pos: rafflePositions[i]! })), ...late.map((c, i) => ({ c, pos: 13 + i }))].sort(
      (a, b) => a.pos - b.pos,
    );
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await t().services.drops.tick();
      const rows = await ticketIds(t(), id);
      const admitted = new Set(rows.filter((r) => r.status === 'admitted').map((r) => r.sessionId));
      const flags = order.map(({ c }) => admitted.has(sessionIdOf(c)));
      const firstWaiting = flags.indexOf(false);
      if (firstWaiting >= 0) expect(flags.slice(firstWaiting).every((f) => !f)).toBe(true);
      if (firstWaiting < 0) break;
    }
    expect((await ticketIds(t(), id)).every((r) => r.status === 'admitted')).toBe(true);
  });

  test('the raffle is drawn in rounds per network address: many sessions on one address are one ticket per round', async () => {
    const id = await createDrop(t(), 5 * MINUTE, { stock: 50 });
    const farmIp = freshIp();
    const farm: TestClient[] = [];
    const people: TestClient[] = [];
    // Interleaved arrivals: the farm's sessions come first in every pair.
    for (let i = 0; i < 10; i++) {
      const bot = t().client();
      expect((await joinDrop(bot, id, { ip: farmIp })).statusCode).toBe(201);
      farm.push(bot);
      const person = t().client();
      expect((await joinDrop(person, id, { ip: freshIp() })).statusCode).toBe(201);
      people.push(person);
    }
    await releaseWithAdmissionPaused(t(), id);
    const positionOf = async (c: TestClient) => (await dropStatus(c, id)).ticket!.position!;
    const farmPositions = (await Promise.all(farm.map(positionOf))).sort((a, b) => a - b);
    const peoplePositions = (await Promise.all(people.map(positionOf))).sort((a, b) => a - b);
    // Round 1: the 10 people and one of the farm's sessions, in a random order; then the farm's other 9.
    expect(farmPositions.slice(1)).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(farmPositions[0]).toBeLessThanOrEqual(11);
    expect(peoplePositions.every((p) => p <= 11)).toBe(true);
  });
});

describeEachDb('waiting room: admission pass', (t) => {
  test('inside the drop window a cart add needs this session\'s pass: none, another\'s, forged or expired is 403; its own is 200', async () => {
    const id = await createDrop(t(), -1000, { name: 'Pass Hoodie', stock: 10 });
    const add = (c: TestClient) => c.post('/api/cart', { productId: id, quantity: 1 });

    const stranger = t().client();
    const refused = await add(stranger);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Join the waiting room to buy Pass Hoodie.' });

    const waiting = t().client();
    await joinDrop(waiting, id, { ip: freshIp() });
    const early = await waiting.post(`/api/drops/${id}/pass`);
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ message: 'It is not your turn for Pass Hoodie yet. Please keep this page open.' });

    const shopper = t().client();
    expect((await joinDrop(shopper, id, { ip: freshIp() })).statusCode).toBe(201);
    await restartPacing(t(), id);
    await admitAndPass(t(), shopper, id);
    const status = await dropStatus(shopper, id);
    expect(status.ticket?.status).toBe('admitted');
    expect(Date.parse(status.ticket!.passExpiresAt!)).toBeGreaterThan(Date.now() + 9 * MINUTE);
    const passCookie = shopper.cookies.get('fifty_pass')!;
    expect(passCookie).toBeTruthy();

    // Another session with this pass copied.
    const thief = t().client();
    thief.cookies.set('fifty_pass', passCookie);
    expect((await add(thief)).statusCode).toBe(403);
    // A forged one (the signature changed).
    const forged = t().client();
    await joinDrop(forged, id, { ip: freshIp() });
    forged.cookies.set('fifty_pass', passCookie.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')));
    expect((await add(forged)).statusCode).toBe(403);
    // An expired one, correctly signed for its session.
    const sessionId = sessionIdOf(forged);
    const signer = createPassSigner(createKeyService('test-session-secret-test-session-secret-0123'));
    forged.cookies.set('fifty_pass', signer.sign({ productId: id, ticketId: status.ticket!.id, expiresAtMs: Date.now() - 1000 }, sessionId));
    expect((await add(forged)).statusCode).toBe(403);
    // The same token unexpired does verify: the refusal above was the expiry.
    forged.cookies.set('fifty_pass', signer.sign({ productId: id, ticketId: status.ticket!.id, expiresAtMs: Date.now() + MINUTE }, sessionId));
    expect((await add(forged)).statusCode).toBe(200);

    const ok = await add(shopper);
    expect(ok.statusCode, ok.body).toBe(200);
    const pass = (await shopper.post(`/api/drops/${id}/pass`)).json() as AdmissionPass;
    expect(pass).toEqual({ productId: id, ticketId: status.ticket!.id, expiresAt: status.ticket!.passExpiresAt });

    // The pass works DROP_PASS_MINUTES from the admission: fetching it again does not extend it.
    await t().database.db.update(dropQueue).set({ admittedAt: new Date(Date.now() - 11 * MINUTE) }).where(eq(dropQueue.id, status.ticket!.id));
    const late = await shopper.post(`/api/drops/${id}/pass`);
    expect(late.statusCode).toBe(403);
    expect(late.json()).toEqual({ message: 'Your turn to buy Pass Hoodie has passed.' });
  });

  test('the pass cookie is httpOnly and SameSite=Lax; products without a release time or past the window need none', async () => {
    const id = await createDrop(t(), -1000, { stock: 5 });
    const shopper = t().client();
    await joinDrop(shopper, id, { ip: freshIp() });
    await restartPacing(t(), id);
    for (let i = 0; i < 30 && (await dropStatus(shopper, id)).ticket?.status !== 'admitted'; i++) {
      await t().services.drops.tick();
      await new Promise((r) => setTimeout(r, 100));
    }
    const res = await shopper.post(`/api/drops/${id}/pass`);
    const cookie = res.cookies.find((c) => c.name === 'fifty_pass')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    const plain = await createProduct(t().database.db, { stock: 3, sizes: [] });
    expect((await t().client().post('/api/cart', { productId: plain, quantity: 1 })).statusCode).toBe(200);
    const over = await createDrop(t(), -61 * MINUTE, { stock: 3 });
    expect((await t().client().post('/api/cart', { productId: over, quantity: 1 })).statusCode).toBe(200);
    expect((await dropStatus(t().client(), over)).phase).toBe('ended');
  });
});

