// dns backend: A and AAAA records of a name, or the SRV records of a `_service._proto.name` (its
// targets resolved to addresses, in priority then weight order). A bare name takes the action's
// port; `name:port` is honoured; SRV records carry their own port. A name that does not exist or
// has no such records is an empty answer; a resolver that fails or does not answer is an error.
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DiscoverError } from './error.ts';
import type { Found } from './member.ts';
import { splitHostPort } from './port.ts';
import { refuseLiteral } from '../../network/dialer.ts';
import { Refused } from '../../refused.ts';

/** Per query try, and tries per query: a dead resolver fails after about 3 s. */
const QUERY_TIMEOUT_MS = 1000;
const TRIES = 2;
/** SRV targets resolved per discovery. */
const MAX_TARGETS = 256;

const EMPTY = new Set(['ENODATA', 'ENOTFOUND']);

export async function dnsMembers(v: unknown, port: number | undefined, servers: string[] | undefined, signal?: AbortSignal): Promise<Found[]> {
  const o = (v ?? {}) as { name?: unknown; exclude_self?: unknown };
  if (typeof o.name !== 'string' || !o.name.trim()) throw new DiscoverError('dns.name must be a host name (name or name:port)', 'config');
  const { host, port: own } = splitHostPort(o.name, 'dns.name');
  const self = typeof o.exclude_self === 'string' ? o.exclude_self.trim().replace(/^\[(.*)\]$/, '$1') : undefined;
  const p = own ?? port;
  let found: Found[];
  if (isIP(host)) {
    found = [{ name: host, address: host, ...(p !== undefined ? { port: p } : {}), source: 'dns' }];
  } else {
    const r = resolver(servers);
    const cancel = () => r.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      found = host.startsWith('_') ? await srv(r, host) : (await addresses(r, host)).map((address) => ({ name: host, address, ...(p !== undefined ? { port: p } : {}), source: 'dns' as const }));
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }
  return self ? found.filter((m) => m.address !== self) : found;
}

function resolver(servers: string[] | undefined): Resolver {
  const r = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: TRIES });
  if (servers) {
    try { r.setServers(servers); } catch (e) { throw new DiscoverError(`SERVICE__DNS_SERVERS ${JSON.stringify(servers.join(','))}: ${(e as Error).message}`, 'config'); }
    // The resolvers are destinations like any other (the system's own are the platform's: every
    // lookup of every connection asks them). Checked per discovery: the policy is the server's.
    for (const s of r.getServers()) {
      try { refuseLiteral(resolverIp(s), 'SERVICE__DNS_SERVERS'); } catch (e) { if (e instanceof Refused) throw new DiscoverError(`dns resolver ${s}: ${e.message}`, 'refused'); throw e; }
    }
  }
  return r;
}

/** IPv4 then IPv6 addresses, each family sorted (resolvers rotate their answers). Both queries are
 *  awaited and the A failure reported first, so the same outage always gives the same message. */
async function addresses(r: Resolver, host: string): Promise<string[]> {
  const [v4, v6] = await Promise.allSettled([query(() => r.resolve4(host), host, 'A'), query(() => r.resolve6(host), host, 'AAAA')]);
  if (v4.status === 'rejected') throw v4.reason;
  if (v6.status === 'rejected') throw v6.reason;
  return [...v4.value.sort(), ...v6.value.sort()];
}

async function srv(r: Resolver, host: string): Promise<Found[]> {
  const records = (await query(() => r.resolveSrv(host), host, 'SRV'))
    .sort((a, b) => a.priority - b.priority || b.weight - a.weight || a.name.localeCompare(b.name) || a.port - b.port)
    .slice(0, MAX_TARGETS);
  const resolved = await Promise.all(records.map(async (s) => ({ s, addrs: isIP(s.name) ? [s.name] : await addresses(r, s.name) })));
  return resolved.flatMap(({ s, addrs }) => addrs.map((address) => ({ name: s.name, address, port: s.port, source: 'dns' as const })));
}

async function query<T>(ask: () => Promise<T[]>, host: string, type: string): Promise<T[]> {
  try {
    return await ask();
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    if (EMPTY.has(code)) return [];
    const cls = code === 'ETIMEOUT' ? 'timeout' : code === 'ECONNREFUSED' ? 'connect' : 'backend';
    throw new DiscoverError(`dns ${type} query for ${JSON.stringify(host)} failed: ${code || (e as Error).message}${code === 'ETIMEOUT' ? ' (no answer from the resolver)' : ''}`, cls);
  }
}

/** A resolver entry as getServers() gives it (`ip`, `ip:port`, `[v6]:port`, `v6`) without its port. */
function resolverIp(s: string): string {
  const v6 = /^\[(.*)\](?::\d+)?$/.exec(s);
  if (v6) return v6[1]!;
  return isIP(s) ? s : s.replace(/:\d+$/, '');
}
