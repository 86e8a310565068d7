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
