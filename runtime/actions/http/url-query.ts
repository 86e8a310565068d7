// Query-string edits that leave the configured parameters byte-for-byte as written: URLSearchParams
// would re-serialize every pair (`%20` → `+`, `:` → `%3A`), which breaks signed URLs and picky APIs.
const enc = (s: string) => encodeURIComponent(s);

function pairs(url: URL): string[] {
  return url.search.slice(1).split('&').filter((p) => p !== '');
}

function nameOf(pair: string): string {
  const raw = pair.split('=', 1)[0];
  try { return decodeURIComponent(raw.replace(/\+/g, ' ')); } catch { return raw; }
}

/** Names already in the URL's query. */
export function queryNames(url: URL): Set<string> {
  return new Set(pairs(url).map(nameOf));
}

/** Set `name` to `value`, replacing every existing occurrence. */
export function setParam(url: URL, name: string, value: string): void {
  const kept = pairs(url).filter((p) => nameOf(p) !== name);
  url.search = [...kept, `${enc(name)}=${enc(value)}`].join('&');
}

/** Append each pair as is (repeated names allowed). */
export function appendParams(url: URL, entries: Iterable<[string, string]>): void {
  const added = [...entries].map(([k, v]) => `${enc(k)}=${enc(v)}`);
  if (added.length) url.search = [...pairs(url), ...added].join('&');
}
