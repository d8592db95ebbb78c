import { describe, expect, it } from 'vitest';
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
