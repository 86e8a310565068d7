// Finding interpolation markers (`a|<reference>|`) in config strings, for load-time checks.
// The grammar itself is ./parse.ts; this finds unclosed markers too, for warnings.
import { BARE_ROOTS, closingPipe, markerHead, NAMED_ROOTS, parseRef } from './parse.ts';

export interface MarkerHit {
  /** Offset of the `a|`. */
  start: number;
  /** The text between the pipes (to the end of the line when unclosed). */
  body: string;
  closed: boolean;
}

export const MARKER_ROOTS = [...new Set([...BARE_ROOTS, ...NAMED_ROOTS])];

export function scanMarkers(s: string): MarkerHit[] {
  const hits: MarkerHit[] = [];
  let i = 0;
  for (let at = s.indexOf('a|'); at >= 0; at = s.indexOf('a|', i)) {
    i = at + 2;
    if (at > 0 && /\w/.test(s[at - 1])) continue;
    const end = closingPipe(s, at + 2);
    if (end < 0) {
      const eol = s.indexOf('\n', at);
      hits.push({ start: at, body: s.slice(at + 2, eol < 0 ? s.length : eol), closed: false });
      continue;
    }
    hits.push({ start: at, body: s.slice(at + 2, end), closed: true });
    i = end + 1;
  }
  return hits;
}

/** Closed, well-formed markers glued to a preceding letter, digit or `_` (`id_a|params::id|`): the
 *  grammar does not read them (so `data|x|`-like text stays text), and they are sent literally. */
export function gluedMarkers(s: string): MarkerHit[] {
  const hits: MarkerHit[] = [];
  for (let at = s.indexOf('a|', 1); at > 0; at = s.indexOf('a|', at + 2)) {
    if (!/\w/.test(s[at - 1]!)) continue;
    const end = closingPipe(s, at + 2);
    if (end > 0 && parseRef(s.slice(at + 2, end)) !== null) hits.push({ start: at, body: s.slice(at + 2, end), closed: true });
  }
  return hits;
}

/**
 * The root a marker reads: `Fetch` in `Fetch::body.id`, `body` in `body->interface`; `named` when `::` follows.
 * `valid` is false for text the grammar does not read as a reference (it is then sent literally).
 */
export function markerRoot(body: string): { root: string; named: boolean; valid: boolean } {
  const { root, name } = markerHead(body.replace(/->default\([\s\S]*\)$/, ''));
  return { root, named: name !== undefined, valid: parseRef(body) !== null };
}

/** How an unclosed marker was probably meant: `a|body` in `id=a|body&x=1` -> `a|body|`. */
export function closedForm(body: string): string {
  const ref = /^[\w.:]+(->[\w.]+)*/.exec(body.trim())?.[0]?.replace(/[.:]+$/, '') ?? body.trim();
  return `a|${ref}|`;
}
