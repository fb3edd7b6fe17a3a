import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Resolves a host name to every address it has (injectable, so tests never touch real DNS or networks). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const V6: [string, number, string][] = [
  ['::', 96, 'unspecified, loopback or IPv4-compatible'],
  ['64:ff9b::', 96, 'NAT64'],
  ['64:ff9b:1::', 48, 'NAT64'],
  ['100::', 64, 'discard'],
  ['2001::', 23, 'reserved'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['fc00::', 7, 'private (unique local)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function listOf(ranges: [string, number, string][], type: 'ipv4' | 'ipv6'): [BlockList, string][] {
  return ranges.map(([net, prefix, why]) => {
    const b = new BlockList();
    b.addSubnet(net, prefix, type);
    return [b, why];
  });
}
const V4_LISTS = listOf(V4, 'ipv4');
const V6_LISTS = listOf(V6, 'ipv6');

/** `::ffff:a.b.c.d` in any spelling, as its IPv4 address; null for other addresses. */
function mappedV4(ip: string): string | null {
  const host = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!m) return null;
  const [hi, lo] = [parseInt(m[1]!, 16), parseInt(m[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Why `ip` must not be connected to (loopback, private, link-local, multicast, reserved...), or null if public. */
export function forbiddenReason(ip: string): string | null {
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const v4 = mappedV4(ip);
    if (v4) return forbiddenReason(v4);
    return V6_LISTS.find(([b]) => b.check(ip, 'ipv6'))?.[1] ?? null;
  }
  return V4_LISTS.find(([b]) => b.check(ip, 'ipv4'))?.[1] ?? null;
}

export class BlockedAddressError extends Error {
  readonly code = 'ADDRESS_REFUSED';
}

/**
 * The SSRF check of every address the service connects to for a tenant (webhook and HR receivers, a tenant's SMTP
 * server and WhatsApp base URL): a host, in its canonical spelling (`canonicalHost`), is resolved and refused when
 * any of its addresses is forbidden, or when it is `localhost` or a name under it, unless the host or the address
 * is allow-listed (FUNDI_WEBHOOK_ALLOW_HOSTS). Returns the address to connect
 * to, so the check and the connection use the same answer (no second lookup an attacker could change).
 */
export class AddressGuard {
  private readonly allowed: Set<string>;

  constructor(
    allowHosts: readonly string[],
    private readonly resolve: Resolver = systemResolver,
  ) {
    this.allowed = new Set(allowHosts.map(canonicalHost));
  }

  async check(hostname: string): Promise<{ address: string; family: 4 | 6 }> {
    const host = canonicalHost(hostname);
    if (isLocalhost(host) && !this.allowed.has(host))
      throw new BlockedAddressError('address refused: private or reserved address');
    const literal = isIP(host);
    const found = literal ? [{ address: host, family: literal }] : await this.resolve(host);
    if (found.length === 0) throw new BlockedAddressError(`${host} has no address`);
    if (!this.allowed.has(host)) {
      for (const a of found) {
        const why = this.allowed.has(canonicalHost(a.address)) ? null : forbiddenReason(a.address);
        // The reason stays generic: the delivery log is readable by API keys, and must not tell them which
        // internal address a name resolves to.
        if (why) throw new BlockedAddressError('address refused: private or reserved address');
      }
    }
    return { address: found[0]!.address, family: found[0]!.family === 6 ? 6 : 4 };
  }
}

/**
 * A host as it will be connected to, in one spelling: lower case, without brackets or the root's trailing dot
 * (`localhost.` is `localhost`), and read as a browser reads an http URL's host, so every IPv4 spelling
 * (`127.1`, `0x7f.0.0.1`, `2130706433`) is its dotted address and every IPv6 spelling its short form, also when
 * it came from a URL of another scheme (`smtp://127.0.0.1./`), whose host the URL parser leaves as written.
 */
export function canonicalHost(h: string): string {
  const bare = h
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '');
  if (isIP(bare) === 6) return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  try {
    const read = new URL(`http://${bare}/`).hostname.replace(/\.+$/, '');
    return isIP(read) === 4 ? read : bare;
  } catch {
    return bare;
  }
}

/** Names that are the host itself whatever DNS says (RFC 6761): `localhost` and every name under it. */
const isLocalhost = (host: string) => host === 'localhost' || host.endsWith('.localhost');
