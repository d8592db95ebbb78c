import { AsyncLocalStorage } from 'node:async_hooks';
import { HttpError } from './http-error';

/**
 * Later funnel steps go first: `settle` (card confirm, payment-success, webhooks) turns a held piece
 * into a sale, `payment` (opening the intent) takes the hold, then checkout details, then the cart.
 */
export type GatePriority = 'settle' | 'payment' | 'checkout' | 'cart';
const ORDER: readonly GatePriority[] = ['settle', 'payment', 'checkout', 'cart'];

/**
 * Admission control for the buying path. The database serves queries one connection at a time
 * (the pool's connections), first come first served per QUERY: under a drop, a
 * ten-query payment would wait behind the whole crowd ten times. Letting only a few requests in at once
 * makes each wait once; and shoppers further along go first, so the first to arrive are through
 * before the crowd behind them is served. Calls to other servers (Stripe) step outside the gate.
 */
export function createRequestGate(opts: { concurrency: number; maxQueue?: number }) {
  const maxQueue = opts.maxQueue ?? 10_000;
  let active = 0;
  const waiting: Record<GatePriority, Array<() => void>> = {
    settle: [],
    payment: [],
    checkout: [],
    cart: [],
  };
  const queued = () => ORDER.reduce((n, p) => n + waiting[p].length, 0);
  const slot = new AsyncLocalStorage<{ priority: GatePriority; held: boolean }>();

  async function acquire(priority: GatePriority, limitQueue: boolean): Promise<void> {
    if (active < opts.concurrency) {
      active++;
      return;
    }
    if (limitQueue && queued() >= maxQueue) {
      throw new HttpError(503, 'The shop is very busy right now. Please try again in a moment.', {
        'retry-after': '5',
      });
    }
    // The slot is handed over by release(): `active` stays counted for us.
    await new Promise<void>((resolve) => waiting[priority].push(resolve));
  }

  function release(): void {
    const next = ORDER.map((p) => waiting[p])
      .find((q) => q.length > 0)
      ?.shift();
    if (next) next();
    else active--;
  }

  return {
    async run<T>(priority: GatePriority, fn: () => Promise<T>): Promise<T> {
      await acquire(priority, true);
      const state = { priority, held: true };
      try {
        return await slot.run(state, fn);
      } finally {
        if (state.held) release();
      }
    },

    /** Gives the slot up while `fn` waits on another server, then queues for it again. */
    async outside<T>(fn: () => Promise<T>): Promise<T> {
      const state = slot.getStore();
      if (!state?.held) return fn();
      state.held = false;
      release();
      try {
        return await fn();
      } finally {
        await acquire(state.priority, false);
        state.held = true;
      }
    },

    stats() {
      return { active, waiting: queued() };
    },
  };
}

export type RequestGate = ReturnType<typeof createRequestGate>;
