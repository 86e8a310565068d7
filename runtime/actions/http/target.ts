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

/** The configured URL, parsed once: its target (with userinfo) and the URL itself. */
export function parseTarget(raw: unknown): { target: Target; url: URL } {
  if (typeof raw !== 'string' || raw === '') throw new Error('http.url must be a non-empty string');
  let u: URL;
  try { u = new URL(raw); } catch { throw new Error(`invalid http.url ${JSON.stringify(redact(raw))}`); }
  return { target: targetOf(u), url: u };
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
