import { HttpError } from '../../plugins/http-error';

/** Later funnel steps go first: whoever is paying is closest to turning a held piece into a sale. */
export type GatePriority = 'payment' | 'checkout' | 'cart';

/**
 * Admission control for the buying path. The database serves queries one connection at a time
 * (PGlite: one in all; PostgreSQL: the pool), first come first served per QUERY: under a drop, a
 * ten-query payment would wait behind the whole crowd ten times. Letting only a few requests in at once
 * makes each wait once; and shoppers further along go first (payment, then checkout details, then
 * cart), so the first to arrive are through before the crowd behind them is served.
 */
export function createRequestGate(opts: { concurrency: number; maxQueue?: number }) {
  const maxQueue = opts.maxQueue ?? 10_000;
  let active = 0;
  const waiting: Record<GatePriority, Array<() => void>> = { payment: [], checkout: [], cart: [] };
  const queued = () => waiting.payment.length + waiting.checkout.length + waiting.cart.length;

  function release(): void {
    const next = waiting.payment.shift() ?? waiting.checkout.shift() ?? waiting.cart.shift();
    if (next) next();
    else active--;
  }

  return {
    async run<T>(priority: GatePriority, fn: () => Promise<T>): Promise<T> {
      if (active < opts.concurrency) active++;
      else {
        if (queued() >= maxQueue) {
          throw new HttpError(503, 'The shop is very busy right now. Please try again in a moment.', {
            'retry-after': '5',
          });
        }
        // The slot is handed over by release(): `active` stays counted for us.
        await new Promise<void>((resolve) => waiting[priority].push(resolve));
      }
      try {
        return await fn();
      } finally {
        release();
      }
    },
    stats() {
      return { active, waiting: queued() };
    },
  };
}

export type RequestGate = ReturnType<typeof createRequestGate>;
