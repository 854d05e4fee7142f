import dns from 'node:dns';
import net from 'node:net';

/**
 * Addresses an integration may not call unless INTEGRATIONS_ALLOW_PRIVATE=1: private, loopback, link-local,
 * unique-local, carrier-grade NAT, multicast, reserved and documentation ranges. A server-side call to one of these
 * would let an account reach the platform's own network.
 */
const BLOCKED = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(address, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (net.isIPv6 already true). */
function ipv6Bytes(ip: string): number[] {
  let text = ip.split('%')[0];
  const tail: number[] = [];
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    tail.push(...dotted[1].split('.').map(Number));
    text = `${text.slice(0, -dotted[1].length)}0:0`;
  }
  const [head, rest] = text.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':').filter((g) => g !== '') : []);
  const h = groups(head);
  const r = rest === undefined ? [] : groups(rest);
  const all = [...h, ...Array(8 - h.length - r.length).fill('0'), ...r].map((g) => parseInt(g, 16));
  const bytes = all.flatMap((g) => [g >> 8, g & 255]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** An IPv4 address carried inside an IPv6 one (IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(ip: string): string | undefined {
  const b = ipv6Bytes(ip);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 12)) return b.slice(12).join('.');
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return b.slice(12).join('.');
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6).join('.');
  return undefined;
}

/** True for an address an integration may not reach by default; anything that is not an IP address counts as one. */
export function isPrivateAddress(ip: string): boolean {
  const address = ip.replace(/^\[|\]$/g, '');
  const family = net.isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    if (BLOCKED.check(address, 'ipv6')) return true;
    const v4 = embeddedIpv4(address);
    return v4 !== undefined && BLOCKED.check(v4, 'ipv4');
  }
  return true;
}

/** localhost and its subdomains (RFC 6761) are loopback whatever a resolver says. */
export function isLocalHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

export type HostCheck = 'public' | 'private' | 'unresolved';

export interface HostCheckOptions {
  /** Give up resolving after this long (the answer is then 'unresolved'). */
  timeoutMs?: number;
  lookup?: (hostname: string) => Promise<{ address: string }[]>;
}

const systemLookup = (hostname: string) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * Where a URL's host points: 'private' when it is (or resolves to, any of its addresses) a private address or
 * localhost; 'unresolved' when the name does not resolve (in time); else 'public'.
 */
export async function checkUrlHost(url: string, options: HostCheckOptions = {}): Promise<HostCheck> {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return 'unresolved';
  }
  if (!hostname) return 'unresolved';
  if (net.isIP(hostname)) return isPrivateAddress(hostname) ? 'private' : 'public';
  if (isLocalHostname(hostname)) return 'private';
  let timer: NodeJS.Timeout | undefined;
  try {
    const addresses = await Promise.race([
      (options.lookup ?? systemLookup)(hostname),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), options.timeoutMs ?? 3000);
      }),
    ]);
    if (!addresses.length) return 'unresolved';
    return addresses.some((a) => isPrivateAddress(a.address)) ? 'private' : 'public';
  } catch {
    return 'unresolved';
  } finally {
    clearTimeout(timer);
  }
}

/** Raised by guardedLookup when a name resolves to a refused address. */
export class PrivateAddressError extends Error {
  code = 'EPRIVATEADDRESS';
  constructor(hostname: string) {
    super(`${hostname} resolves to a private address`);
  }
}

/**
 * A dns.lookup for outgoing connections that refuses private answers, so the address checked is the address
 * connected to (a name that resolves to a public address when saved and to a private one at call time, DNS
 * rebinding, is refused at connect).
 */
export function guardedLookup(allowPrivate: boolean, resolve: typeof dns.lookup = dns.lookup): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as dns.LookupAddress[];
      if (!allowPrivate && (isLocalHostname(hostname) || list.some((a) => isPrivateAddress(a.address)))) return callback(new PrivateAddressError(hostname), '');
      if (!list.length) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  }) as unknown as net.LookupFunction;
}
