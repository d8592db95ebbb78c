import { describe, expect, test } from 'vitest';
import { createRequestGate } from './request-gate';

/** Lets every promise already settled run its continuations (the gate is promise-only: no timers). */
const tick = () => new Promise((r) => setImmediate(r));

describe('request gate', () => {
  test('lets `concurrency` requests in; later funnel steps overtake earlier ones in the queue', async () => {
    const gate = createRequestGate({ concurrency: 2 });
    const order: string[] = [];
    const hold: Array<() => void> = [];
    const blocker = (name: string) => () =>
      new Promise<void>((resolve) => {
        order.push(name);
        hold.push(resolve);
      });
    const running = [
      gate.run('cart', blocker('a')),
      gate.run('cart', blocker('b')),
      gate.run('cart', blocker('c')),
      gate.run('checkout', blocker('info')),
      gate.run('payment', blocker('pay')),
      gate.run('settle', blocker('confirm')),
    ];
    await tick();
    expect(order).toEqual(['a', 'b']);
    expect(gate.stats()).toEqual({ active: 2, waiting: 4 });
    hold.shift()!();
    await tick();
    expect(order).toEqual(['a', 'b', 'confirm']);
    while (hold.length) {
      hold.shift()!();
      await tick();
    }
    await Promise.all(running);
    expect(order).toEqual(['a', 'b', 'confirm', 'pay', 'info', 'c']);
    expect(gate.stats()).toEqual({ active: 0, waiting: 0 });
  });

  test('a failing request frees its slot', async () => {
    const gate = createRequestGate({ concurrency: 1 });
    await expect(gate.run('cart', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run('cart', async () => 42)).toBe(42);
    expect(gate.stats()).toEqual({ active: 0, waiting: 0 });
  });

  test('an overfull queue answers 503 with Retry-After', async () => {
    const gate = createRequestGate({ concurrency: 1, maxQueue: 1 });
    let open!: () => void;
    const first = gate.run('cart', () => new Promise<void>((r) => (open = r)));
    const second = gate.run('cart', async () => 'queued');
    await expect(gate.run('cart', async () => 'refused')).rejects.toMatchObject({
      statusCode: 503,
      headers: { 'retry-after': '5' },
    });
    open();
    await first;
    expect(await second).toBe('queued');
  });
});

describe('request gate: calls to other servers', () => {
  test('outside() frees the slot while waiting and takes one again after', async () => {
    const gate = createRequestGate({ concurrency: 1 });
    const order: string[] = [];
    let answer!: () => void;
    const slow = gate.run('payment', async () => {
      order.push('payment: db');
      await gate.outside(() => new Promise<void>((r) => (answer = r)));
      order.push('payment: db again');
    });
    await tick();
    const other = gate.run('cart', async () => {
      order.push('cart');
    });
    await tick();
    expect(order).toEqual(['payment: db', 'cart']);
    answer();
    await Promise.all([slow, other]);
    expect(order).toEqual(['payment: db', 'cart', 'payment: db again']);
    expect(gate.stats()).toEqual({ active: 0, waiting: 0 });
    // Outside any gated request it simply runs.
    expect(await gate.outside(async () => 7)).toBe(7);
  });
});
