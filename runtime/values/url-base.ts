// A marker that starts a URL template (`a|body::url|/items/a|params::id|`) supplies the base: it must
// be an absolute http(s) URL, scheme and authority with an optional base path, and no query or
// fragment (the template's own path, query and fragment follow it). A whole-URL marker is already
// allowed, so this is no wider; the outbound policy still checks the destination after DNS.
import { Refused } from '../refused.ts';
import { text } from './text.ts';

export function urlBase(value: unknown, src: string): string {
  const s = text(value);
  let u: URL;
  try { u = new URL(s); } catch { throw new Refused(`${src} starts the URL but its value is not an absolute URL: refused`, 400); }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Refused(`${src} starts the URL but its scheme ${u.protocol} is not http or https: refused`, 400);
  // `new URL` drops an empty `?` or `#`; the raw text must not carry one either.
  if (u.search || u.hash || /[?#]/.test(s)) throw new Refused(`${src} starts the URL but its value has a query or fragment; a base is scheme, host and optional path: refused`, 400);
  const auth = u.username || u.password ? `${u.username}${u.password ? `:${u.password}` : ''}@` : '';
  // The template's path starts with `/`: the base's trailing slashes go so none doubles.
  return `${u.protocol}//${auth}${u.host}${u.pathname.replace(/\/+$/, '')}`;
}
