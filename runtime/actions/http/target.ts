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

/** The configured URL: its target, and the URL object itself once something asked for it (urlOf). */
export interface Parsed { target: Target; raw: string; url: URL | undefined }

/** The last URL parsed: most actions send the same URL request after request (a configured base
 *  and path), and a parse with its target costs about half a microsecond. One entry, so nothing
 *  grows with the URLs seen. */
let last: Parsed | undefined;

/** The configured URL, parsed: its target (with userinfo) and the URL itself. Both may be shared
 *  with other requests for the same text: a caller that changes the URL changes a copy. */
export function parseTarget(raw: unknown): Parsed {
  if (typeof raw !== 'string' || raw === '') throw new Error('http.url must be a non-empty string');
  if (last?.raw === raw) return last;
  const quick = last && sameOrigin(last, raw);
  if (quick) return (last = quick);
  let u: URL;
  try { u = new URL(raw); } catch { throw new Error(`invalid http.url ${JSON.stringify(redact(raw))}`); }
  return (last = { target: targetOf(u), raw, url: u });
}

/** The URL object of a parsed target, made when first needed. */
export const urlOf = (p: Parsed): URL => (p.url ??= new URL(p.raw));

/** A URL on the origin of the last one parsed (a lookup's item URLs: one base, paths that differ)
 *  whose path and query the URL parser would keep exactly as written: its target without a parse.
 *  Anything else (userinfo, a fragment, a dot segment, a character the parser encodes or drops)
 *  goes to the parser; test/http-action/target.test.ts holds this to `new URL` on random text. */
function sameOrigin(base: Parsed, raw: string): Parsed | undefined {
  const { origin } = base.target;
  if (base.target.userinfo || raw.length <= origin.length || raw.charCodeAt(origin.length) !== 0x2f || !raw.startsWith(origin)) return undefined;
  const rest = raw.slice(origin.length);
  const q = rest.indexOf('?');
  const pathname = q < 0 ? rest : rest.slice(0, q);
  if (!KEPT_PATH.test(pathname) || DOT_SEGMENT.test(pathname) || (q >= 0 && (q === rest.length - 1 || !KEPT_QUERY.test(rest.slice(q + 1))))) return undefined;
  return { target: { origin, path: rest, display: origin + pathname, userinfo: undefined }, raw, url: undefined };
}

// What the URL parser leaves as it is in a path (an http(s) URL's): letters, digits, -._~ and the
// sub-delimiters, : @ / and %. In a query the same, and ?, but not ' (encoded there).
const KEPT_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const KEPT_QUERY = /^[A-Za-z0-9\-._~!$&()*+,;=:@/%?]*$/;
// A segment of one or two dots, also percent-encoded: the parser resolves those.
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;

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
