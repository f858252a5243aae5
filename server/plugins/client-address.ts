import { isIPv4, isIPv6 } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';

// One way to turn a client's address into the key every limit counts by (docs/product/security.md):
// an IPv4 address is its own key, an IPv4-mapped IPv6 address (::ffff:203.0.113.7) counts as that
// IPv4 address, and an IPv6 address counts by its /64 — one customer's line or one server usually
// holds a whole /64, so counting single IPv6 addresses would give an attacker billions of keys.
// The login throttle, every per-address rate limit and the logs' network prefixes use these.

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or null when it is not one. */
function ipv6Groups(ip: string): number[] | null {
  const bare = ip.split('%')[0] ?? '';
  if (!isIPv6(bare)) return null;
  let text = bare.toLowerCase();
  // An embedded dotted IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) becomes two hex groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  const groups = [...headParts, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailParts].map((g) =>
    Number.parseInt(g || '0', 16),
  );
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

/** An IPv4-mapped IPv6 address's IPv4 form, else the address unchanged. */
export function unmapIPv4(ip: string): string {
  const groups = ipv6Groups(ip);
  if (groups && groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return ip;
}

/**
 * The key a client's requests are counted by: IPv4 as is (mapped ones unmapped), IPv6 by its /64
 * (`2001:db8:1:2::/64`). Anything else (a unix socket, a missing address) is one shared key.
 */
export function addressKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const v4 = isIPv4(ip) ? ip : unmapIPv4(ip);
  if (isIPv4(v4)) return v4;
  const groups = ipv6Groups(ip);
  if (!groups) return 'unknown';
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * The coarse network a log line may keep: 203.0.113.77 → 203.0.113.0/24, 2001:db8:1:2::5 →
 * 2001:db8:1::/48. Never the full address.
 */
export function networkPrefix(ip: string | undefined): string | null {
  if (!ip) return null;
  // Plain IPv4 first: the IPv6 parse (a long regular expression) is wasted on it, on every public
  // verification (docs/benchmarks.md).
  const v4 = isIPv4(ip) ? ip : unmapIPv4(ip);
  // A valid dotted quad: everything before its last dot is the /24.
  if (isIPv4(v4)) return `${v4.slice(0, v4.lastIndexOf('.'))}.0/24`;
  const groups = ipv6Groups(ip);
  if (!groups) return null;
  return `${groups
    .slice(0, 3)
    .map((g) => g.toString(16))
    .join(':')}::/48`;
}

/** How many peer addresses `trustedProxies` remembers before it starts again. */
export const TRUSTED_PROXY_MEMORY = 1024;

/**
 * The TRUST_PROXY setting (proxy-addr's list: `loopback`, addresses, CIDRs, comma-separated; false
 * for none) as the function Fastify asks, for each hop of X-Forwarded-For, whether that peer may
 * speak for the client. The answer is proxy-addr's own for the same list — the one Fastify compiles
 * from the string — remembered per address: proxy-addr parses every address it is asked about
 * (ipaddr.js), and `request.ip` asks again on every read, about the proxy's address too, which is
 * the same on every request (docs/benchmarks.md, "Report verification"). The answer depends on the
 * address alone, never on the hop, so remembering it changes nothing. At most
 * TRUSTED_PROXY_MEMORY addresses are kept; then the memory starts empty again.
 */
export function trustedProxies(setting: string | false): false | ((address: string, hop: number) => boolean) {
  if (setting === false) return false;
  const trust = proxyAddr.compile(setting.split(',').map((s) => s.trim()));
  const known = new Map<string, boolean>();
  return (address, hop) => {
    let trusted = known.get(address);
    if (trusted === undefined) {
      trusted = trust(address, hop);
      if (known.size >= TRUSTED_PROXY_MEMORY) known.clear();
      known.set(address, trusted);
    }
    return trusted;
  };
}
