// The outbound destination policy (SERVICE__OUTBOUND_ALLOW / SERVICE__OUTBOUND_DENY, and in managed
// mode private and link-local ranges denied unless an allowed CIDR covers them). It is checked on
// the addresses a connection actually uses (the dialer, ./dialer.ts), not on names.
import { hasAddress, hasHost, ipList, specialRanges, type IpList } from './ip-list.ts';
import { managedMode } from '../values/managed-mode.ts';

export interface OutboundPolicy { allow: IpList; deny: IpList; managed: boolean }

let cached: { allow?: string; deny?: string; managed?: string; policy: OutboundPolicy } | undefined;
let pinned: OutboundPolicy | undefined;

/** The server's policy, read once at its start (main.ts), as its other settings are: reading
 *  process.env costs about half a microsecond a name, three names on every outbound request. */
export function pinOutboundPolicy(env: Record<string, string | undefined>): OutboundPolicy {
  return (pinned = outboundPolicy(env));
}

/** Back to reading the environment on each request (tests that change it). */
export function unpinOutboundPolicy(): void { pinned = undefined; }

/** The policy outbound requests follow: the pinned one in a server, else the environment's now. */
export const currentOutboundPolicy = (): OutboundPolicy => pinned ?? outboundPolicy();

/** Read from the environment (three reads, no allocation); re-parsed only when the settings change. */
export function outboundPolicy(env: Record<string, string | undefined> = process.env): OutboundPolicy {
  const allow = env.SERVICE__OUTBOUND_ALLOW, deny = env.SERVICE__OUTBOUND_DENY, managed = env.SERVICE__MANAGED_MODE;
  if (!cached || cached.allow !== allow || cached.deny !== deny || cached.managed !== managed) {
    cached = { allow, deny, managed, policy: {
      allow: ipList(allow, 'SERVICE__OUTBOUND_ALLOW'),
      deny: ipList(deny, 'SERVICE__OUTBOUND_DENY'),
      managed: managedMode(managed),
    } };
  }
  return cached.policy;
}

/** Why `host` (as named in the URL) at `address` (as resolved) may not be reached, or undefined.
 *  Remembered per policy (a new object whenever the settings change) and host/address: a lookup
 *  fan-out to one origin asks the same question once per item. Bounded: hosts come from requests. */
export function refusal(p: OutboundPolicy, host: string, address: string): string | undefined {
  let known = verdicts.get(p);
  if (!known) verdicts.set(p, (known = new Map()));
  const key = host === address ? host : `${host} ${address}`;
  if (known.has(key)) return known.get(key);
  const why = decide(p, host, address);
  if (known.size >= 1000) known.clear();
  known.set(key, why);
  return why;
}
const verdicts = new WeakMap<OutboundPolicy, Map<string, string | undefined>>();

/** For a destination an operator setting names (the Kubernetes API, DNS resolvers, the MQTT broker):
 *  the deny and allow lists apply, managed mode's private-range rule does not (./dialer.ts, Chooser).
 *  The reason names the setting. Not remembered: these are few and dialled rarely. */
export function settingRefusal(p: OutboundPolicy, host: string, address: string, setting: string): string | undefined {
  const why = decide(p, host, address, false);
  return why && `${why} (${setting})`;
}

function decide(p: OutboundPolicy, host: string, address: string, managed = p.managed): string | undefined {
  if (hasHost(p.deny, host) || hasAddress(p.deny, address)) return `${host} is denied by SERVICE__OUTBOUND_DENY`;
  const allowedIp = hasAddress(p.allow, address);
  if (!p.allow.empty && !allowedIp && !hasHost(p.allow, host)) return `${host} is not in SERVICE__OUTBOUND_ALLOW`;
  // A host-name allow entry does not open private ranges: DNS could point the name anywhere.
  if (managed && hasAddress(specialRanges(), address) && !allowedIp) return `${host} resolves to a private, loopback or link-local address, denied in managed mode`;
  return undefined;
}
