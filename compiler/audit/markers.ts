// Which markers of a config string carry values a caller (or an upstream) chooses, read with the
// compiler's one marker grammar (compiler/markers/parse.ts), and whether a URL's host is pinned by the
// config before the first of them.
import { parseMarkers } from '../markers/parse.ts';
import type { Ref } from '../../runtime/ir.ts';

/** Roots whose values the request chooses. */
const REQUEST = new Set(['body', 'raw_body', 'params', 'headers']);
/** Roots whose values an upstream's answer or stored state choose. */
const DERIVED = new Set(['action', 'state']);
/** Roots that hold the operator's credentials. */
const SECRET = new Set(['secret', 'ap_secret']);

export type Origin = 'request' | 'derived';

const refsOf = (s: string): Ref[] => parseMarkers(s).filter((p): p is Ref => typeof p !== 'string');

/** The first marker whose value a caller or an upstream chooses, with where it comes from. */
export function untrustedRef(s: string): { src: string; origin: Origin } | undefined {
  for (const r of refsOf(s)) {
    if (REQUEST.has(r.root)) return { src: r.src, origin: 'request' };
    if (DERIVED.has(r.root)) return { src: r.src, origin: 'derived' };
  }
  return undefined;
}

export const hasSecretRef = (s: string): boolean => refsOf(s).some((r) => SECRET.has(r.root));

/**
 * The untrusted marker that chooses the scheme, host or port of `url`, if any. The host is pinned
 * when, before the first untrusted marker, the URL's authority has ended: literal text such as
 * `https://api.example.com/`, or an operator marker (var, secret, env) followed by `/`, `?` or `#`
 * (`a|var::API|/items/a|params::id|`). A marker after that is confined to its path segment or query
 * value by the http action.
 */
export function hostChooser(url: string): { src: string; origin: Origin } | undefined {
  let before = '';
  for (const p of parseMarkers(url)) {
    if (typeof p === 'string') { before += p; continue; }
    const bad = untrustedRef(p.src);
    if (bad) return authorityEnded(before) ? undefined : bad;
    before += '\u0000';
  }
  return undefined;
}

function authorityEnded(before: string): boolean {
  const scheme = before.indexOf('://');
  return /[/?#]/.test(scheme < 0 ? before : before.slice(scheme + 3));
}
