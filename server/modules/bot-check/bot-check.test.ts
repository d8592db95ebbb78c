import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import type { Challenge } from 'altcha-lib';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { solvePow } from '../../../tests/support/pow';
import { createKeyService } from '../../lib/keys';
import { BOT_CHECK_MESSAGES, createBotCheckService, POW_ALGORITHM, POW_TTL_MS } from './bot-check.service';
import { spentPowChallenges } from './bot-check.tables';

const SECRET = 'test-session-secret-test-session-secret-0123'; // buildTestApp's session secret

describeEachDb('newsletter bot check (proof of work)', (t) => {
  const challenge = async () => {
    const res = await t().client().get('/api/pow-challenge');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json<Challenge>();
  };
  const subscribe = (body: Record<string, unknown>) => t().client().post('/api/newsletter', body);
  const subscriptions = async (email: string) =>
    (await t().database.db.execute<{ n: number }>(sql`select count(*)::int as n from newsletter_subscriptions where email = ${email}`))
      .rows[0]!.n;

  test('GET /api/pow-challenge: a signed, short-lived challenge', async () => {
    const c = await challenge();
    expect(c.parameters.algorithm).toBe(POW_ALGORITHM);
    expect(c.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(c.parameters.expiresAt! * 1000).toBeGreaterThan(Date.now() + POW_TTL_MS - 10_000);
    expect(c.parameters.expiresAt! * 1000).toBeLessThanOrEqual(Date.now() + POW_TTL_MS + 1_000);
  });

  test('a solved challenge subscribes (201)', async () => {
    const res = await subscribe({ email: 'solved@example.com', altcha: await solvePow(await challenge()) });
    expect(res.statusCode, res.body).toBe(201);
    expect(await subscriptions('solved@example.com')).toBe(1);
  });

  test('missing: 400 with a message, nothing stored', async () => {
    for (const altcha of [undefined, '']) {
      const res = await subscribe({ email: 'missing@example.com', altcha });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: BOT_CHECK_MESSAGES.missing });
    }
    expect(await subscriptions('missing@example.com')).toBe(0);
  });

  test('invalid: garbage, a wrong answer, a forged challenge are 400', async () => {
    const c = await challenge();
    const good = JSON.parse(Buffer.from(await solvePow(c), 'base64').toString()) as {
      challenge: Challenge;
      solution: { counter: number; derivedKey: string };
    };
    const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
    const cases = [
      'not base64 json',
      encode({ hello: 'world' }),
      encode({ ...good, solution: { ...good.solution, derivedKey: '00'.repeat(32) } }),
      // An easier challenge made up by the client: its signature no longer matches.
      encode({ ...good, challenge: { ...good.challenge, parameters: { ...good.challenge.parameters, cost: 1 } } }),
      // A challenge signed with another secret (another shop).
      await solvePow(await createBotCheckService({ db: t().database.db, keys: createKeyService('another-shop-secret-another-shop-secret') }).challenge()),
    ];
    for (const [i, altcha] of cases.entries()) {
      const res = await subscribe({ email: `invalid${i}@example.com`, altcha });
      expect(res.statusCode, altcha).toBe(400);
      expect(res.json()).toEqual({ message: BOT_CHECK_MESSAGES.invalid });
    }
    expect(await subscriptions('invalid0@example.com')).toBe(0);
    // The genuine solution was not spent by the refusals above.
    expect((await subscribe({ email: 'valid@example.com', altcha: encode(good) })).statusCode).toBe(201);
  });

  test('expired: a challenge older than 5 minutes is 400', async () => {
    const past = createBotCheckService({ db: t().database.db, keys: createKeyService(SECRET), now: () => Date.now() - POW_TTL_MS - 1_000 });
    const res = await subscribe({ email: 'late@example.com', altcha: await solvePow(await past.challenge()) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: BOT_CHECK_MESSAGES.expired });
    expect(await subscriptions('late@example.com')).toBe(0);
  });

  test('reused: a solution is accepted once, also when replayed in parallel', async () => {
    const altcha = await solvePow(await challenge());
    expect((await subscribe({ email: 'first@example.com', altcha })).statusCode).toBe(201);
    const again = await subscribe({ email: 'second@example.com', altcha });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: BOT_CHECK_MESSAGES.reused });

    const shared = await solvePow(await challenge());
    const racing = await Promise.all(
      [1, 2, 3, 4].map((n) => subscribe({ email: `race${n}@pow.example.com`, altcha: shared })),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 400, 400, 400]);
  });

  test('spent challenges are pruned once expired', async () => {
    const db = t().database.db;
    await db.insert(spentPowChallenges).values({ signature: 'old-one', expiresAt: new Date(Date.now() - 1_000) });
    expect(await t().services.botCheck.pruneSpent()).toBeGreaterThanOrEqual(1);
    const left = await db.execute<{ n: number }>(sql`select count(*)::int as n from spent_pow_challenges where signature = 'old-one'`);
    expect(left.rows[0]!.n).toBe(0);
  });
});
