// Splitting the configured URL into what undici needs and what is safe to print.
export interface Target {
  origin: string;
  /** Request target: path plus query, as sent on the request line (and used as the Digest uri). */
  path: string;
  /** For messages: no userinfo and no query string or fragment, which may carry secrets. */
  display: string;
  /** Credentials embedded as `https://user:pass@host/`, decoded; they are never sent in the URL. */
  userinfo?: { user: string; pass: string };
}

export interface Parsed { target: Target; url: URL }

/** The last URL parsed: most actions send the same URL request after request (a configured base
 *  and path), and a parse with its target costs about half a microsecond. One entry, so nothing
 *  grows with the URLs seen. */
let last: { raw: string; parsed: Parsed } | undefined;

/** The configured URL, parsed: its target (with userinfo) and the URL itself. Both may be shared
 *  with other requests for the same text: a caller that changes the URL changes a copy. */
export function parseTarget(raw: unknown): Parsed {
  if (typeof raw !== 'string' || raw === '') throw new Error('http.url must be a non-empty string');
  if (last?.raw === raw) return last.parsed;
  let u: URL;
  try { u = new URL(raw); } catch { throw new Error(`invalid http.url ${JSON.stringify(redact(raw))}`); }
  const parsed = { target: targetOf(u), url: u };
  last = { raw, parsed };
  return parsed;
}

export function targetOf(u: URL): Target {
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`unsupported URL scheme ${u.protocol} (only http and https)`);
  const userinfo = u.username || u.password
    ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined;
  return { origin: u.origin, path: `${u.pathname}${u.search}`, display: `${u.origin}${u.pathname}`, userinfo };
}

/** Best-effort redaction of an unparseable URL for error text. */
function redact(raw: string): string {
  return raw.replace(/\/\/[^/@?#]*@/, '//').replace(/[?#].*$/, '');
}
