// Query strings, route params and headers as plain string maps: a repeated name keeps its first
// value, names are data (`__proto__` included). One rule for HTTP, WebSocket upgrades and MCP.
import { setOwn } from './build.ts';

/** `out`: a map to add to (its names are overwritten by `v`'s), instead of a new one. */
export function stringMap(v: unknown, out: Record<string, string> = {}): Record<string, string> {
  if (!v || typeof v !== 'object') return out;
  for (const k of Object.keys(v)) { // not Object.entries: no pair array per name (every request's headers)
    const x: unknown = (v as Record<string, unknown>)[k];
    if (x === undefined) continue;
    setOwn(out, k, String(Array.isArray(x) ? x[0] : x));
  }
  return out;
}

/** Node's request headers (IncomingMessage#headers) as a string map. Node sets each name once, as a
 *  string, except set-cookie (an array): without it (and without an own `__proto__`, which node never
 *  sets) the copy is made in one step, a spread clone of the object, rather than name by name (on
 *  every request, with names that differ from client to client, those stores showed in profiles). */
export function headerMap(h: Record<string, string | string[] | undefined>): Record<string, string> {
  if (h['set-cookie'] !== undefined || Object.hasOwn(h, '__proto__')) return stringMap(h);
  return { ...h } as Record<string, string>;
}
