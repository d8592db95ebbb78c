import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { describeEachDb } from '../../tests/support/build-test-app';
import { createProduct, readyShopper } from '../../tests/support/shop-fixtures';

// docs/operations.md, When the database goes away: a connection lost under a request (a terminated backend,
// a restarting or killed server) is that request's 503 + Retry-After, never the process's uncaught exception.
// The connection here is one a request holds checked out of the pool, in the middle of its transaction.

const UNAVAILABLE = { message: 'The shop is briefly unavailable. Please try again in a few seconds.' };

/** A transaction paused between two statements until the test lets it go on (no route holds one open on purpose). */
function pauseNextTransaction() {
  let reportPid!: (pid: number) => void;
  let go!: () => void;
  const gate = new Promise<void>((r) => (go = r));
  const pid = new Promise<number>((r) => (reportPid = r));
  return { pid, go, gate, reportPid };
}
let current: ReturnType<typeof pauseNextTransaction> | null = null;

async function probeRoutes(app: FastifyInstance) {
  app.post('/api/test/paused-transaction', async () => {
    const step = current!;
    await app.services.db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
      step.reportPid(rows[0]!.pid);
      await step.gate;
      await tx.execute(sql`select 1`);
    });
    return { ok: true };
  });
}

describeEachDb(
  'a request whose connection is lost mid-transaction',
  (t) => {
    const uncaught: unknown[] = [];
    const note = (err: unknown) => uncaught.push(err);
    beforeEach(() => {
      uncaught.length = 0;
      process.on('uncaughtException', note);
      process.on('unhandledRejection', note);
    });
    afterEach(() => {
      process.off('uncaughtException', note);
      process.off('unhandledRejection', note);
      current = null;
    });

    /** The pool's client on a backend (checked out: the pool keeps every client it made in its list). */
    function clientOn(pid: number): pg.Client {
      const clients = (t().database.pool as unknown as { _clients: pg.Client[] })._clients;
      return clients.find((c) => (c as unknown as { processID: number }).processID === pid)!;
    }
    /** The client's connection is gone (its 'end'), or the old code's uncaught error came first. */
    const lost = (client: pg.Client) =>
      Promise.race([
        new Promise<void>((r) => client.once('end', () => r())),
        expect.poll(() => uncaught.length, { timeout: 10_000 }).toBeGreaterThan(0),
      ]);

    test('terminated while idle in its transaction (pg_terminate_backend from another connection): 503 + Retry-After, nothing uncaught', async () => {
      current = pauseNextTransaction();
      const answer = t().client().post('/api/test/paused-transaction', {});
      const pid = await current.pid;
      const gone = lost(clientOn(pid));
      const { rows } = await t().database.pool.query<{ done: boolean }>('select pg_terminate_backend($1) as done', [pid]);
      expect(rows[0]!.done).toBe(true);
      // The client has seen its connection go (on the old code: an 'error' nobody listened to, thrown out of the socket's handler).
      await gone;
      current.go();
      const res = await answer;
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual(UNAVAILABLE);
      expect(uncaught).toEqual([]);
      // The pool dropped the dead client and serves on.
      expect((await t().client().get('/api/cart')).statusCode).toBe(200);
    });

    test('a payment whose hold waits on a locked row, its backend terminated mid-statement: 503 + Retry-After, nothing uncaught, nothing held', async () => {
      const productId = await createProduct(t().database.db, { stock: 5 });
      const shopper = await readyShopper(t(), productId);
      // Another transaction holds the product's row: the payment's hold waits on it, inside its own transaction.
      const locker = await t().database.pool.connect();
      let gone: Promise<unknown> | undefined;
      try {
        await locker.query('begin');
        await locker.query('select 1 from products where id = $1 for update', [productId]);
        const answer = shopper.post('/api/create-payment-intent', {});
        let waiting: number | undefined;
        await expect
          .poll(
            async () => {
              const { rows } = await t().database.pool.query<{ pid: number }>(
                `select pid from pg_stat_activity
                  where datname = current_database() and wait_event_type = 'Lock' and pid <> $1`,
                [(locker as unknown as { processID: number }).processID],
              );
              waiting = rows[0]?.pid;
              return waiting;
            },
            { timeout: 10_000, interval: 20 },
          )
          .toBeTypeOf('number');
        gone = lost(clientOn(waiting!));
        await t().database.pool.query('select pg_terminate_backend($1)', [waiting]);
        const res = await answer;
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual(UNAVAILABLE);
      } finally {
        await locker.query('rollback').catch(() => undefined);
        locker.release();
      }
      // The connection's 'end' may come after the answer: the old code's uncaught error came with it.
      await gone;
      expect(uncaught).toEqual([]);
      const { rows } = await t().database.pool.query<{ stock: number; held: number }>(
        'select stock, held_count as held from products where id = $1',
        [productId],
      );
      expect(rows[0]).toEqual({ stock: 5, held: 0 });
      // The shopper tries again and gets the hold.
      expect((await shopper.post('/api/create-payment-intent', {})).statusCode).toBe(200);
    });
  },
  { deps: { extraRoutes: probeRoutes } },
);
