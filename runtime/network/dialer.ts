// The one outbound dialer. Every connection an action opens (http, the agent's model and MCP servers,
// SFTP, SMTP, SQL databases, discover's Kubernetes API and DNS resolvers, the external MQTT broker)
// resolves its destination here, checks every resolved address against the outbound policy
// (./outbound.ts) and connects to the checked address: net.connect is handed the vetted lookup, so a
// name is resolved once and cannot be re-pointed between check and connect (DNS rebinding). An IP
// literal, which net.connect never looks up, and a Unix socket path (a local destination, checked as
// 127.0.0.1) are checked before connecting. A refusal is a Refused (403, never retried).
import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress } from 'node:dns';
import { connect, isIP, Socket, type LookupFunction } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { Refused } from '../refused.ts';
import { currentOutboundPolicy, refusal, settingRefusal } from './outbound.ts';
import { TextMemo } from '../values/text-memo.ts';

/** The error a refused destination fails with (answered 403, never retried). */
export const denied = (why: string) => new Refused(`outbound call refused: ${why}`, 403);

/** Who chose a destination: undefined for a config or a request (the whole policy applies), else the
 *  operator setting that names it (its deny and allow lists apply, not managed mode's private-range
 *  rule: that rule keeps tenants' configs out of the platform's network, which the operator's own
 *  settings name on purpose). */
export type Chooser = string | undefined;

function why(host: string, address: string, setting: Chooser): string | undefined {
  const policy = currentOutboundPolicy();
  return setting === undefined ? refusal(policy, host, address) : settingRefusal(policy, host, address, setting);
}

const lookups = new Map<string, LookupFunction>();
/** The vetted lookup: every address of `host` is checked, only allowed ones are handed to the socket. */
export function lookupFor(setting?: Chooser): LookupFunction {
  if (setting === undefined) return guardedLookup;
  let l = lookups.get(setting);
  if (!l) lookups.set(setting, (l = vetted(setting)));
  return l;
}

function vetted(setting: Chooser): LookupFunction {
  return (host, options, callback) => {
    dnsLookup(host, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const allowed = addresses.filter((a) => !why(host, a.address, setting));
      if (allowed.length === 0) return callback(denied(why(host, addresses[0]?.address ?? '', setting) ?? `${host} has no address`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

export const guardedLookup: LookupFunction = vetted(undefined);

/** A host as net.connect and the policy take it: an IPv6 literal without its brackets. */
const bare = (host: string): string => host.replace(/^\[|\]$/g, '');

/** Throws the refusal of an IP-literal host (a name is checked by the lookup, after resolution). */
export function refuseLiteral(host: string, setting?: Chooser): void {
  const h = bare(host);
  if (isIP(h)) refuseIp(h, setting);
}

/** `ip` is a bare IP literal (the per-request path: no parsing). */
function refuseIp(ip: string, setting: Chooser): void {
  const w = why(ip, ip, setting);
  if (w) throw denied(w);
}

/** Throws the refusal of a Unix socket path: a local destination, checked as the loopback address. */
export function refuseLocalSocket(path: string, setting?: Chooser): void {
  const w = why(`local socket ${path}`, '127.0.0.1', setting);
  if (w) throw denied(w);
}

/** Resolves `host` and checks every address; throws the refusal of the first denied one. For an up-front
 *  refusal with a clear message where the connection itself is made later (it is vetted again then). */
export async function refuseResolved(host: string, setting?: Chooser): Promise<void> {
  const h = bare(host);
  if (isIP(h)) return refuseLiteral(h, setting);
  let addresses: LookupAddress[] = [];
  try { addresses = await dnsPromises.lookup(h, { all: true }); } catch { return; /* the connection reports it */ }
  for (const a of addresses) { const w = why(h, a.address, setting); if (w) throw denied(w); }
}

/** A TCP connection under the outbound policy: a denied IP literal throws here, before connecting; a
 *  name goes through the vetted lookup, so a denied address fails the socket with the refusal. */
export function dial(host: string, port: number, setting?: Chooser): Socket {
  refuseLiteral(host, setting);
  return connect({ host: bare(host), port, lookup: lookupFor(setting) });
}

/** dial() for callers that want a socket whatever happens (drivers that take a stream factory): a
 *  refused IP literal gives a socket that fails with the refusal, as a name refused by the lookup does. */
export function dialOrFail(host: string, port: number, setting?: Chooser): Socket {
  try {
    return dial(host, port, setting);
  } catch (e) {
    const s = new Socket();
    process.nextTick(() => s.destroy(e as Error));
    return s;
  }
}

/** A socket for drivers that call `connect(port, host)` or `connect(path)` themselves (pg's `stream`):
 *  the connect goes through the dialer; a refusal destroys the socket with it (the driver's error).
 *  `seen` is told the destination the driver actually asked for (messages name it, not the config's). */
export function dialerSocket(seen?: (where: string) => void, setting?: Chooser): Socket {
  const s = new Socket();
  const own = s.connect.bind(s) as (o: object) => Socket;
  s.connect = ((...args: unknown[]) => {
    try {
      if (typeof args[0] === 'string' && isNaN(Number(args[0]))) {
        const path = args[0];
        seen?.(path);
        refuseLocalSocket(path, setting);
        return own({ path });
      }
      const port = Number(args[0]), host = typeof args[1] === 'string' ? args[1] : 'localhost';
      seen?.(`${host.includes(':') ? `[${bare(host)}]` : host}:${port}`);
      refuseLiteral(host, setting);
      return own({ port, host: bare(host), lookup: lookupFor(setting) });
    } catch (e) {
      process.nextTick(() => s.destroy(e as Error));
      return s;
    }
  }) as Socket['connect'];
  return s;
}

/** An undici connector through the dialer: an IP-literal host checked at every connect (redirects and
 *  every origin of an Agent included), names through the vetted lookup. */
export function dialerConnector(options: buildConnector.BuildOptions = {}, setting?: Chooser): buildConnector.connector {
  const base = buildConnector({ ...options, lookup: lookupFor(setting) } as buildConnector.BuildOptions);
  return (o, callback) => {
    if (!o.httpSocket) {
      try { refuseLiteral(o.hostname, setting); } catch (e) { return callback(e as Error, null); }
    }
    return base(o, callback);
  };
}

let agent: Dispatcher | undefined;
/** A keep-alive Agent (any origin) whose every connection goes through the dialer. */
export function dialerAgent(): Dispatcher {
  return (agent ??= new Agent({ connect: dialerConnector() }));
}

/** fetch through the dialer, for clients that take a fetch (the MCP SDK): Node's fetch on the dialer's
 *  Agent, so every connection, the redirects' too, is vetted (a refusal is the fetch error's cause). */
export const dialerFetch = ((url: string | URL, init?: RequestInit) =>
  fetch(url, { ...init, dispatcher: dialerAgent() } as unknown as RequestInit)) as typeof fetch;

/** Closes the dialer's own Agent (shutdown, tests that change the policy). */
export async function closeDialerAgent(): Promise<void> {
  const a = agent;
  agent = undefined;
  await a?.close().catch(() => undefined);
}

/** The IP-literal host of a URL (undefined for a name), remembered per origin: parsing a URL
 *  on every request showed in profiles. Bounded: origins come from configs and requests. */
const literals = new TextMemo<string>(1000); // '' for a name
function literalHost(url: string): string | undefined {
  const host = literals.get(url, () => { const h = bare(new URL(url).hostname); return isIP(h) ? h : ''; });
  return host === '' ? undefined : host;
}

/** Throws the refusal of a URL whose host is a denied IP literal (no lookup happens for it). */
export function checkUrl(url: string, setting?: Chooser): void {
  const host = literalHost(url);
  if (host !== undefined) refuseIp(host, setting);
}

/** Before each http request: IP-literal target and proxy; through a proxy the target name is resolved
 *  here too (the proxy resolves it again: operators who need more pin the proxy's own egress rules).
 *  Throws a refusal at once; a promise only when there is a lookup to wait for (a proxy). */
export function preflight(origin: string, proxy?: string): Promise<void> | undefined {
  checkUrl(origin);
  return proxy ? viaProxy(origin, proxy) : undefined;
}

async function viaProxy(origin: string, proxy: string): Promise<void> {
  checkUrl(proxy);
  await refuseResolved(new URL(origin).hostname);
}
