// Enforcing the outbound policy where the connection is made: a `lookup` that vets every resolved
// address (so a name cannot be re-pointed between check and connect), and a check of IP-literal
// hosts, which net.connect never looks up. Both apply to every request of every page, and to the
// proxy hop. Redirects are not followed by the http action (a 3xx is its response).
import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress } from 'node:dns';
import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import { Refused } from '../../refused.ts';
import { currentOutboundPolicy, refusal } from '../../network/outbound.ts';
import { TextMemo } from '../../values/text-memo.ts';

/** The error a refused destination fails with (answered 403, never retried). */
export const denied = (why: string) => new Refused(`outbound call refused: ${why}`, 403);

export const guardedLookup: LookupFunction = (host, options, callback) => {
  dnsLookup(host, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const policy = currentOutboundPolicy();
    const allowed = addresses.filter((a) => !refusal(policy, host, a.address));
    if (allowed.length === 0) return callback(denied(refusal(policy, host, addresses[0]?.address ?? '') ?? `${host} has no address`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};

/** For a URL whose host is an IP literal: checked here, since no lookup happens. */
function checkLiteral(url: string): void {
  const host = literalHost(url);
  if (host !== undefined) refuseLiteral(host);
}

/** A URL's host as net.connect and the policy take it: an IPv6 literal without its brackets. */
const hostOf = (url: string): string => new URL(url).hostname.replace(/^\[|\]$/g, '');

function refuseLiteral(host: string): void {
  if (!isIP(host)) return;
  const why = refusal(currentOutboundPolicy(), host, host);
  if (why) throw denied(why);
}

/** A TCP connection under the outbound policy, for the protocols other than HTTP (SMTP, SSH): an
 *  IP-literal host is refused here, before connecting (throws Refused); a name goes through the
 *  vetted lookup, so a denied address fails the socket with Refused. */
export function policedConnect(host: string, port: number): Socket {
  refuseLiteral(host);
  return connect({ host, port, lookup: guardedLookup });
}

/** The IP-literal host of a URL (undefined for a name), remembered per origin: parsing a URL
 *  on every request showed in profiles. Bounded: origins come from configs and requests. */
const literals = new TextMemo<string>(1000); // '' for a name
function literalHost(url: string): string | undefined {
  const host = literals.get(url, () => { const h = hostOf(url); return isIP(h) ? h : ''; });
  return host === '' ? undefined : host;
}

/** Before each request: IP-literal target and proxy; through a proxy the target name is resolved here
 *  too (the proxy resolves it again: operators who need more pin the proxy's own egress rules).
 *  Throws a refusal at once; a promise only when there is a lookup to wait for (a proxy). */
export function preflight(origin: string, proxy?: string): Promise<void> | undefined {
  checkLiteral(origin);
  return proxy ? viaProxy(origin, proxy) : undefined;
}

async function viaProxy(origin: string, proxy: string): Promise<void> {
  checkLiteral(proxy);
  const host = hostOf(origin);
  if (isIP(host)) return;
  const policy = currentOutboundPolicy();
  let addresses: LookupAddress[] = [];
  try { addresses = await dnsPromises.lookup(host, { all: true }); } catch { return; /* the proxy reports it */ }
  for (const a of addresses) { const why = refusal(policy, host, a.address); if (why) throw denied(why); }
}
