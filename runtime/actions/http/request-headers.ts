// Request headers from config: names lowercased (HTTP names are case-insensitive, and it makes the
// "did the config set content-type / authorization itself" checks exact); values coerced to strings.
export function requestHeaders(h: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (h === undefined || h === null) return out;
  if (typeof h !== 'object' || Array.isArray(h)) throw new Error('http.headers must be a mapping of header names to values');
  for (const [name, v] of Object.entries(h)) {
    if (v === undefined || v === null) continue; // an interpolation that produced nothing: omit the header
    out[name.toLowerCase()] = Array.isArray(v) ? v.map(str) : str(v);
  }
  return out;
}

function str(v: unknown): string {
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}
