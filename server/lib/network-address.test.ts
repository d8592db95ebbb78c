import { eq } from 'drizzle-orm';
import { describe, expect, it, test } from 'vitest';
import { describeEachDb } from '../../tests/support/build-test-app';
import { createDrop, joinDrop } from '../../tests/support/drops';
import { dropQueue } from '../modules/drops/drops.tables';
import { DEFAULT_IPV6_PREFIX, networkKey } from './network-address';

describe('networkKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(networkKey('203.0.113.7', 48)).toBe('203.0.113.7');
    expect(networkKey(' 203.0.113.7 ', 48)).toBe('203.0.113.7');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(networkKey('::ffff:203.0.113.7', 48)).toBe('203.0.113.7');
    expect(networkKey('::FFFF:cb00:7107', 48)).toBe('203.0.113.7');
  });

  it('masks IPv6 to the prefix: every /64 of one /48 is one network', () => {
    const keys = new Set(
      Array.from({ length: 60 }, (_, i) => networkKey(`2001:db8:1234:${i.toString(16)}::${i + 1}`, 48)),
    );
    expect([...keys]).toEqual(['2001:db8:1234::/48']);
    expect(networkKey('2001:db8:1235::1', 48)).not.toBe(networkKey('2001:db8:1234::1', 48));
  });

  it('writes one key for every spelling of one address', () => {
    const a = networkKey('2001:0DB8:0000:0000:0000:0000:0000:0001', 64);
    expect(a).toBe('2001:db8::/64');
    expect(networkKey('2001:db8::1', 64)).toBe(a);
    expect(networkKey('2001:db8::1%eth0', 64)).toBe(a);
  });

  it('masks to prefixes that do not fall on a byte or group', () => {
    expect(networkKey('2001:db8:12ff::1', 44)).toBe('2001:db8:12f0::/44');
    expect(networkKey('2001:db8:1234:5678::1', 56)).toBe('2001:db8:1234:5600::/56');
    expect(networkKey('2001:db8::1', 128)).toBe('2001:db8::1/128');
  });

  it('defaults to /48', () => {
    expect(DEFAULT_IPV6_PREFIX).toBe(48);
    expect(networkKey('2001:db8:1:2::3')).toBe('2001:db8:1::/48');
  });

  it('passes a string that is no IP address through, lower-cased', () => {
    expect(networkKey('Test-Client', 48)).toBe('test-client');
  });
});

describeEachDb('networkKey in the waiting room (IPV6_PREFIX=48)', (t) => {
  test('60 /64s of one /48 are one address: one raffle place per round, as one shopper on one address', async () => {
    const id = await createDrop(t(), 5 * 60_000, { stock: 50 });
    for (let i = 0; i < 60; i++) {
      const res = await joinDrop(t().client(), id, { ip: `2001:db8:4800:${i.toString(16)}::${i + 1}` });
      expect(res.statusCode, res.body).toBe(i < 50 ? 201 : 429);
    }
    for (let i = 0; i < 3; i++)
      expect((await joinDrop(t().client(), id, { ip: `2001:db8:${(0x4900 + i).toString(16)}::1` })).statusCode).toBe(201);
    const places = await t()
      .database.db.select({ addressKey: dropQueue.addressKey, lotteryKey: dropQueue.lotteryKey })
      .from(dropQueue)
      .where(eq(dropQueue.productId, id));
    const byAddress = new Map<string, number[]>();
    for (const p of places) byAddress.set(p.addressKey, [...(byAddress.get(p.addressKey) ?? []), Math.floor(Number(p.lotteryKey))]);
    // Four addresses: the /48 and three others; the /48's places are rounds 0, 1, 2, … (one per round).
    expect(byAddress.size).toBe(4);
    const rounds = [...byAddress.values()].sort((a, b) => b.length - a.length);
    expect(rounds[0]!.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    for (const other of rounds.slice(1)) expect(other).toEqual([0]);
  });
});
