// Where each marker of a template lands, found once at compile time so the runtime encodes the value
// for that position (runtime/values/escape.ts): in a URL, a path segment, a query name or value, or
// the fragment; in a JSON template, inside a JSON string or as a whole JSON value.
import type { Esc, Expr, Ref } from '../../runtime/ir.ts';
import { LowerError } from './error.ts';

type Path = Array<string | number>;

/** Roots the operator controls (configuration, not request data): they may set the scheme and host. */
const OPERATOR = new Set(['secret', 'ap_secret', 'var', 'ap_var', 'env']);
const HOLE = '\u0000';

/** A URL template: markers in the path, query and fragment are encoded for it; a marker in the scheme
 *  or host must come from the operator (a whole-URL marker stays a `ref` and the destination policy
 *  decides where it may go). A request or action marker that starts the template supplies the base
 *  (`a|body::url|/health`): checked at run time to be an absolute http(s) URL without query or
 *  fragment (runtime/values/url-base.ts), so it is no wider than a whole-URL marker; the rest must then
 *  start the path, query or fragment, so nothing else can extend the host. */
export function urlPositions(e: Expr, at: Path): Expr {
  if (e.k !== 'tmpl') return e;
  const flat = e.parts.map((p) => (typeof p === 'string' ? p : HOLE)).join('');
  const slots = scanUrl(flat);
  const head = e.parts[0];
  const leading = typeof head !== 'string' && !OPERATOR.has(head!.root);
  if (leading && !/^[/?#]/.test(flat.slice(1))) {
    throw new LowerError(`${head!.src} starts the URL but is followed by ${JSON.stringify(flat.slice(1).split(/[/?#]/)[0]!.replaceAll(HOLE, 'a|…|'))}, which would extend its host; a base marker must be followed by /, ? or #`, at,
      'write the path after the marker (a|body::url|/health), or make the whole url one marker');
  }
  let n = 0;
  const parts = e.parts.map((p, i) => {
    if (typeof p === 'string') return p;
    const where = slots[n++]!;
    if (i === 0 && leading) return { ...p, esc: 'base' as const };
    if (where !== 'base') return { ...p, esc: where };
    if (OPERATOR.has(p.root)) return p;
    throw new LowerError(`${p.src} sets the scheme or host of the URL; a value read from the request or an action cannot choose where the call goes`, at,
      'put the marker in the path or the query (it is encoded there), start the url with it (a|body::url|/path: it must then be an absolute http(s) URL), or make the whole url one marker (then SERVICE__OUTBOUND_ALLOW/DENY decide where it may go)');
  });
  return { k: 'tmpl', parts };
}

function scanUrl(s: string): Array<'base' | Esc> {
  const out: Array<'base' | Esc> = [];
  let where: 'base' | Esc = 'base';
  let scheme = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === HOLE) { out.push(where); continue; }
    if (where === 'base' && !scheme && s.startsWith('://', i)) { scheme = true; i += 2; continue; }
    if (c === '#') where = 'fragment';
    else if (c === '?' && where !== 'fragment') where = 'query';
    else if (c === '/' && where === 'base') where = 'segment';
  }
  return out;
}

/** A string template whose literal text is JSON (starts with `{` or `[`): a marker inside a JSON
 *  string is string-escaped, one outside is written as a JSON value, so the result stays valid JSON. */
export function jsonPositions(e: Expr): Expr {
  if (e.k !== 'tmpl') return e;
  const head = e.parts[0];
  if (typeof head !== 'string' || !/^\s*[[{]/.test(head)) return e;
  let inString = false;
  const parts = e.parts.map((p) => {
    if (typeof p !== 'string') return { ...p, esc: inString ? 'json-string' : 'json' } as Ref;
    for (let i = 0; i < p.length; i++) {
      if (p[i] === '\\' && inString) i++;
      else if (p[i] === '"') inString = !inString;
    }
    return p;
  });
  return { k: 'tmpl', parts };
}
