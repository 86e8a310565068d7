// static backend: a list of `host:port` strings or one comma-separated string; empty and null
// entries are dropped. Nothing is resolved: the host is both the name and the address.
import { DiscoverError } from './error.ts';
import type { Found } from './member.ts';
import { splitHostPort } from './port.ts';

export function staticMembers(v: unknown, port: number | undefined): Found[] {
  const list = typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v : undefined;
  if (!list) throw new DiscoverError('static must be a list of host:port strings or one comma-separated string', 'config');
  const out: Found[] = [];
  for (const entry of list) {
    if (entry === null || entry === undefined) continue;
    if (typeof entry !== 'string') throw new DiscoverError(`static entry ${JSON.stringify(entry)} is not a host:port string`, 'config');
    if (!entry.trim()) continue;
    const { host, port: own } = splitHostPort(entry, 'static entry');
    const p = own ?? port;
    out.push({ name: host, address: host, ...(p !== undefined ? { port: p } : {}), source: 'static' });
  }
  return out;
}
