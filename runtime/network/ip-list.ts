// Lists of addresses, CIDRs and host names as operators write them ("10.0.0.0/8, ::1, *.example.com"),
// matched with node's BlockList (no hand-rolled prefix arithmetic).
import { BlockList, isIP } from 'node:net';

export interface IpList {
  /** Address entries (single IPs and CIDRs). */
  ips: BlockList;
  hasIps: boolean;
  /** Host entries: exact names and `*.suffix` wildcards, lower-cased. */
  hosts: string[];
  empty: boolean;
}

/** Parses a comma/space separated list; an entry that is neither an IP, a CIDR nor a host name throws. */
export function ipList(text: string | string[] | undefined, what: string): IpList {
  const entries = (Array.isArray(text) ? text : (text ?? '').split(/[\s,]+/)).map((s) => s.trim()).filter(Boolean);
  const ips = new BlockList();
  const hosts: string[] = [];
  let hasIps = false;
  for (const e of entries) {
    const [addr, bits, extra] = e.split('/');
    const family = isIP(addr!);
    if (family && extra === undefined) {
      const type = family === 4 ? 'ipv4' : 'ipv6';
      const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) throw new Error(`${what}: invalid CIDR ${JSON.stringify(e)}`);
      ips.addSubnet(addr!, prefix, type);
      hasIps = true;
    } else if (/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*\.?$/i.test(e)) hosts.push(e.toLowerCase().replace(/\.$/, ''));
    else throw new Error(`${what}: ${JSON.stringify(e)} is not an IP address, CIDR or host name`);
  }
  return { ips, hasIps, hosts, empty: entries.length === 0 };
}

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is checked as the IPv4 address it is. */
export function normalize(address: string): { address: string; type: 'ipv4' | 'ipv6' } | undefined {
  const a = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) return { address: mapped[1]!, type: 'ipv4' };
  const f = isIP(a);
  return f === 0 ? undefined : { address: a, type: f === 4 ? 'ipv4' : 'ipv6' };
}

export function hasAddress(list: IpList, address: string): boolean {
  const n = normalize(address);
  return !!n && list.hasIps && list.ips.check(n.address, n.type);
}

export function hasHost(list: IpList, host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return list.hosts.some((p) => (p.startsWith('*.') ? h.endsWith(p.slice(1)) : h === p));
}

let special: IpList | undefined;

/** Loopback, private, link-local, CGNAT, unspecified, multicast and reserved ranges (v4 and v6);
 *  built on first use (managed mode only), since parsing addresses is a noticeable part of start-up. */
export function specialRanges(): IpList {
  return special ??= ipList([
    '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
    '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4',
    '::/128', '::1/128', '64:ff9b::/96', 'fc00::/7', 'fe80::/10', 'ff00::/8',
  ], 'special ranges');
}
