// Ports of discover: the action's `port` (a number, or text parsed after interpolation) and the
// `host:port` form of static entries and DNS names.
import { portNumber, PORT_RULE } from '../../values/port.ts';
import { DiscoverError } from './error.ts';

/** A TCP port from a config value, or undefined when unset; anything else is an error. */
export function portOf(v: unknown, what: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = portNumber(v);
  if (n === undefined) throw new DiscoverError(`${what} ${JSON.stringify(v)} is not a port (${PORT_RULE})`, 'config');
  return n;
}

/** Splits `host:port`, `[v6]:port`, a bare host or a bare IPv6 literal (no port). */
export function splitHostPort(entry: string, what: string): { host: string; port?: number } {
  const s = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(s);
  if (bracketed) return { host: bracketed[1]!, ...(bracketed[2] !== undefined ? { port: portOf(bracketed[2], `${what} "${s}":`) } : {}) };
  const colons = s.split(':').length - 1;
  if (colons !== 1) return { host: s }; // a bare name, or an unbracketed IPv6 literal
  const i = s.lastIndexOf(':');
  return { host: s.slice(0, i), port: portOf(s.slice(i + 1), `${what} "${s}":`) };
}
