import ipaddr from 'ipaddr.js';

/** The IPv6 prefix one subscriber is taken to hold unless IPV6_PREFIX says otherwise (docs/security.md). */
export const DEFAULT_IPV6_PREFIX = 48;

/**
 * The network a request counts against, as a stable string: IPv4 as is, an IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d) as its IPv4, any other IPv6 address masked to its first `ipv6Prefix` bits and written
 * `<network>/<prefix>`. A residential line is delegated a whole /48–/56 and rotating through it costs
 * nothing, so counting single IPv6 addresses (or /64s) would give one person thousands of "addresses".
 * A string that is not an IP address (a test's fake address, a unix socket) is returned trimmed and
 * lower-cased, so it still keys consistently.
 */
export function networkKey(ip: string, ipv6Prefix: number = DEFAULT_IPV6_PREFIX): string {
  const raw = ip.trim().toLowerCase();
  // A zone id (fe80::1%eth0) names the interface, not the network.
  const bare = raw.includes(':') ? raw.split('%')[0]! : raw;
  if (!ipaddr.isValid(bare)) return raw;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const prefix = Math.min(128, Math.max(0, Math.trunc(ipv6Prefix)));
  const bytes = v6.toByteArray();
  for (let i = 0; i < 16; i++) {
    const keep = Math.min(8, Math.max(0, prefix - i * 8));
    bytes[i] = bytes[i]! & ((0xff << (8 - keep)) & 0xff);
  }
  return `${ipaddr.fromByteArray(bytes).toString()}/${prefix}`;
}
