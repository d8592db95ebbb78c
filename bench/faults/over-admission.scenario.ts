// Over-admission (ADR 010 amendment, "Admission that matches what can be bought"): 300 shoppers for a
// drop of 50 pieces, through three shop instances on one PostgreSQL. The live passes (admitted places
// whose pass has not lapsed and whose session neither holds nor bought the product) must stay at or below
// pieces × (1 + DROP_OVERBOOKING) = 60 at every moment. Passes and holds last 30 s here
// (DROP_PASS_MINUTES / HOLD_MINUTES 0.5), so the line turns over inside the run: of the shoppers let in,
// 6 in 10 buy one piece, 2 walk away without taking their pass, 2 take a hold and leave it.
// Admission runs at 3,000 a minute, so the cap, not the pace, holds the line back. Every 300 ms (the
// admission tick) the bench counts the live passes in the database, in one statement.
// Usage: npx tsx bench/faults-more.bench.ts over-admission
import { sql } from 'drizzle-orm';
import type { Scenario } from '../scenario-runner';
import { Browser, cardOf, infoOf, startDropShops } from './skewed-clocks.scenario';

const SHOPPERS = Number(process.env.OVER_SHOPPERS ?? 300);
const PIECES = 50;
const OVERBOOKING = 0.2;
const PASS_MINUTES = 0.5;
const SAMPLE_MS = 300;
const ADMIT_PER_MINUTE = 3000;
const RELEASE_IN_S = 30;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Kind = 'buyer' | 'walks away' | 'leaves a hold';
const kindOf = (n: number): Kind => (n % 10 < 6 ? 'buyer' : n % 10 < 8 ? 'walks away' : 'leaves a hold');

const scenario: Scenario = async () => {
  const env = await startDropShops(
    'over-admission',
    Array.from({ length: 3 }, () => ({
      DROP_PASS_MINUTES: String(PASS_MINUTES),
      HOLD_MINUTES: '0.5',
      DROP_WINDOW_MINUTES: '5',
      DROP_OVERBOOKING: String(OVERBOOKING),
    })),
  );
  try {
    const bases = env.shops.map((s) => s.base);
    const on = (n: number) => bases[n % bases.length]!;
    const id = await env.createDrop(PIECES, RELEASE_IN_S, 'Over Admission Tee');
    // Let in up to 50 a second (the owner's fastest setting in practice): the cap, not the pace, decides.
    await env.q(sql`insert into drops (product_id, admit_per_minute) values (${id}, ${ADMIT_PER_MINUTE})
      on conflict (product_id) do update set admit_per_minute = excluded.admit_per_minute`);
    const statuses = new Map<number, number>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    const outcome: Record<string, number> = {};
    const tally = (r: string) => (outcome[r] = (outcome[r] ?? 0) + 1);

    async function shopper(n: number): Promise<void> {
      // Arrivals spread over the 25 s before the release (the raffle).
      await sleep(Math.random() * 25_000);
      // A browser tries a 503 (the shop shedding load, with Retry-After) again, up to 3 times.
      const b = new Browser(`10.${40 + Math.floor(n / 250)}.${Math.floor(n / 250)}.${(n % 250) + 1}`, count, 3);
      const joined = await b.join(on(n), id);
      if (joined.status !== 201) return void tally(`join ${joined.status}`);
      const last = await b.follow(on(n + 1), id, (st) => {
        const t = st.ticket as { status?: string } | null;
        return t?.status === 'admitted' || t?.status === 'sold_out' || st.phase === 'sold_out' || st.phase === 'ended';
      });
      const ticket = (last?.ticket as { status?: string } | null)?.status;
      if (ticket !== 'admitted') return void tally(last ? `told ${String(last.phase)} while waiting` : 'no answer');
      const kind = kindOf(n);
      if (kind === 'walks away') return void tally('walked away');
      await sleep(Math.random() * 3000);
      const pass = await b.call(on(n + 2), 'POST', `/api/drops/${id}/pass`);
      if (pass.status !== 200) return void tally(`pass ${pass.status}`);
      const add = await b.call(on(n), 'POST', '/api/cart', { productId: id, quantity: 1 });
      if (add.status !== 200) return void tally(add.status === 409 ? 'let in, nothing left to add' : `cart ${add.status}: ${String(add.json.message)}`);
      const info = await b.call(on(n + 1), 'POST', '/api/customer-info', infoOf(n));
      if (info.status !== 200) return void tally(`info ${info.status}`);
      const intent = await b.call(on(n + 2), 'POST', '/api/create-payment-intent', {});
      if (intent.status !== 200)
        return void tally(intent.status === 409 ? 'let in, nothing left to hold' : `intent ${intent.status}: ${String(intent.json.message)}`);
      if (kind === 'leaves a hold') return void tally('left a hold');
      const confirm = await b.call(on(n), 'POST', '/api/payments/offline/confirm', { clientSecret: intent.json.clientSecret, ...cardOf(n) });
      if (confirm.status !== 200) return void tally(`confirm ${confirm.status}`);
      const done = await b.call(on(n + 1), 'POST', '/api/payment-success', { paymentIntentId: intent.json.paymentIntentId });
      tally(done.status === 200 ? 'bought' : `payment-success ${done.status}`);
    }

    // The sampler: the live passes as ADR 010 defines them, and the free pieces, in one statement (one snapshot).
    const passInterval = `${Math.round(PASS_MINUTES * 60_000)} milliseconds`;
    const inLines = JSON.stringify([{ productId: id }]);
    type Sample = { live: number; admitted: number; free: number; held: number; sold: number };
    const samples: Sample[] = [];
    let running = true;
    const sampler = (async () => {
      while (running) {
        const [row] = await env.q<Sample>(sql`
          select
            (select count(*)::int from drop_queue q
              where q.product_id = ${id} and q.status = 'admitted' and q.admitted_at > now() - ${passInterval}::interval
                and not exists (select 1 from checkouts c where c.session_id = q.session_id
                  and c.status in ('open', 'fulfilled') and c.lines @> ${inLines}::jsonb)) as live,
            (select count(*)::int from drop_queue q where q.product_id = ${id} and q.admitted_at is not null) as admitted,
            p.stock as free, p.held_count as held, p.sold_count as sold
          from products p where p.id = ${id}`);
        samples.push(row!);
        await sleep(SAMPLE_MS);
      }
    })();

    const started = Date.now();
    await Promise.all(Array.from({ length: SHOPPERS }, (_, n) => shopper(n)));
    const tookS = (Date.now() - started) / 1000;
    running = false;
    await sampler;

    const limit = Math.floor(PIECES * (1 + OVERBOOKING));
    const most = Math.max(...samples.map((s) => s.live));
    const over = samples.filter((s) => s.live > limit).length;
    // Stricter: against the pieces still free at that moment. A shopper taking a piece lowers that cap by
    // 1.2 and the live passes by 1 (rounded); admission stops until passes lapse, so it can dip below.
    const overFree = samples.filter((s) => s.live > Math.floor(s.free * (1 + OVERBOOKING) + 1e-9)).length;
    const [end] = await env.q<{ admitted: number; free: number; held: number; sold: number; orders: number; units: number }>(sql`
      select (select count(*)::int from drop_queue q where q.product_id = ${id} and q.admitted_at is not null) as admitted,
        p.stock as free, p.held_count as held, p.sold_count as sold,
        (select count(distinct oi.order_id)::int from order_items oi where oi.product_id = ${id}) as orders,
        (select coalesce(sum(oi.quantity), 0)::int from order_items oi where oi.product_id = ${id}) as units
      from products p where p.id = ${id}`);
    const untold = Object.entries(outcome)
      .filter(([k]) => k.startsWith('join') || k === 'no answer')
      .reduce((a, [, c]) => a + c, 0);
    const fiveXx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    console.log('outcomes:', outcome, 'statuses:', Object.fromEntries(statuses), `all done in ${tookS.toFixed(1)} s`, `${samples.length} samples`);
    return {
      rows: [
        {
          what: `live passes, sampled every ${SAMPLE_MS} ms (${samples.length} samples), ${SHOPPERS} shoppers for ${PIECES} pieces on 3 instances`,
          target: `≤ ${limit} (${PIECES} × ${1 + OVERBOOKING}) at every moment`,
          measured: `max ${most}; ${over} samples over`,
          ok: over === 0 && most <= limit,
        },
        {
          what: 'samples with live passes over floor(pieces free at that moment × 1.2) (a piece taken lowers it by 1.2, the live count by 1)',
          target: 'information',
          measured: `${overFree} of ${samples.length}`,
          ok: true,
        },
        { what: 'shoppers let in (in all)', target: 'information', measured: `${end!.admitted}`, ok: true },
        {
          what: 'pieces bought (orders)',
          target: `≤ ${PIECES}, 0 oversold`,
          measured: `${end!.units} in ${end!.orders} orders; then free ${end!.free}, held ${end!.held}, sold ${end!.sold}`,
          ok: end!.units <= PIECES && end!.free >= 0 && end!.free + end!.held + end!.sold === PIECES,
        },
        {
          what: 'shoppers let in who found nothing left to add or hold',
          target: 'information',
          measured: `${(outcome['let in, nothing left to add'] ?? 0) + (outcome['let in, nothing left to hold'] ?? 0)}`,
          ok: true,
        },
        {
          what: 'every shopper got a place and was told an outcome',
          target: `${SHOPPERS}`,
          measured: `${SHOPPERS - untold}`,
          ok: untold === 0,
        },
        {
          what: '503 + Retry-After answers (load shed; the shopper tries again, up to 3 times)',
          target: 'information',
          measured: `${statuses.get(503) ?? 0} of ${[...statuses.values()].reduce((a, c) => a + c, 0)} answers`,
          ok: true,
        },
        { what: 'other 5xx answers', target: '0', measured: `${fiveXx - (statuses.get(503) ?? 0)}`, ok: fiveXx - (statuses.get(503) ?? 0) === 0 },
      ],
    };
  } finally {
    await env.close();
  }
};

export default scenario;
