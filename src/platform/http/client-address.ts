import { isIP, isIPv6 } from 'node:net';

/**
 * Which proxies' X-Forwarded-For the service believes (TRUST_PROXY). Default: nobody, so the key
 * of every address-based limit is the socket's peer and a client cannot choose it. A hop count
 * trusts that many proxies in front of the service; a list trusts exactly those addresses/CIDRs
 * (or proxy-addr's names loopback, linklocal, uniquelocal).
 */
export type TrustProxy = false | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Parses TRUST_PROXY; answers an error message for a value that is neither a count nor a list. */
export function parseTrustProxy(raw: string | undefined): TrustProxy | { error: string } {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !NAMED_RANGES.has(entry) && !isAddressOrCidr(entry));
  if (bad.length > 0)
    return { error: `expected a hop count or a comma list of addresses/CIDRs, got ${bad.join(', ')}` };
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d+$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * The key of a client address in address-based limits. IPv6 clients get a /64 each (one
 * subscriber's whole allocation), so rotating through their own addresses gains nothing.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

function expandIPv6(ip: string): string[] {
  const withoutZone = ip.split('%')[0]!;
  const [head, tail] = withoutZone.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array(missing).fill('0'), ...tailGroups];
  return groups.map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}

/** fastify's form of the setting: a hop count becomes "trust the first n hops". */
export function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}
