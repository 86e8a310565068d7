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

/** True when every own value of `h` is a string and every name passes `name` (no own `__proto__`,
 *  which the name-by-name copies handle): then a spread copies it as it is, in one step. Name-by-name
 *  stores into a new object, with names that differ from client to client, showed in profiles. */
export function plainStrings(h: Record<string, unknown>, name?: (k: string) => boolean): boolean {
  for (const k of Object.keys(h)) if (typeof h[k] !== 'string' || k === '__proto__' || (name && !name(k))) return false;
  return true;
}

/** Node's request headers (IncomingMessage#headers) as a string map: node gives each name once, as a
 *  string (set-cookie, an array, goes name by name). */
export function headerMap(h: Record<string, string | string[] | undefined>): Record<string, string> {
  return plainStrings(h) ? ({ ...h } as Record<string, string>) : stringMap(h);
}
