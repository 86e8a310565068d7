// The one grammar of interpolation markers: `a|<root>[::<name>][->seg]*[->default(<json>)]|`.
// Lowering (compiler/lower) and the load-time checks (compiler/markers/scan.ts) both read it.
// Grammar and its decisions are in docs/interpolation.md. Strings are split into literal text and
// parsed references; an unclosed or malformed marker stays literal text, as the spec requires.
import type { Json, Ref, RefRoot } from '../../runtime/ir.ts';

// Looked up with own(): a marker such as a|__proto__| must not find Object.prototype.
const NAMED: Record<string, RefRoot> = {
  params: 'params', header: 'headers', headers: 'headers', state: 'state', secret: 'secret',
  ap_secret: 'ap_secret', var: 'var', ap_var: 'ap_var', env: 'env',
};
const BARE: Record<string, RefRoot> = { body: 'body', raw_body: 'raw_body', params: 'params', headers: 'headers', uuid: 'uuid' };
const PARTS = new Set(['status', 'headers', 'body']);
/** Roots usable bare (`a|body|`) and roots that need a name (`a|secret::NAME|`; `body::x` reads a body field). */
export const BARE_ROOTS: readonly string[] = Object.keys(BARE);
export const NAMED_ROOTS: readonly string[] = [...Object.keys(NAMED), 'body'];
const own = (table: Record<string, RefRoot>, k: string): RefRoot | undefined => (Object.hasOwn(table, k) ? table[k] : undefined);

export type Part = string | Ref;

/** Splits a config string into literal text and references. `bare` accepts one unclosed marker (input only). */
export function parseMarkers(text: string, bare = false): Part[] {
  const parts: Part[] = [];
  let lit = '';
  let i = 0;
  while (i < text.length) {
    const at = text.indexOf('a|', i);
    if (at < 0) break;
    if (at > 0 && /[A-Za-z0-9_]/.test(text[at - 1]!)) { lit += text.slice(i, at + 2); i = at + 2; continue; }
    const end = closingPipe(text, at + 2);
    const inner = end < 0 ? (bare && parts.length === 0 && lit === '' && at === 0 ? text.slice(2) : null) : text.slice(at + 2, end);
    const ref = inner === null ? null : parseRef(inner);
    if (!ref) { lit += text.slice(i, at + 2); i = at + 2; continue; }
    lit += text.slice(i, at);
    if (lit) parts.push(lit);
    lit = '';
    parts.push(ref);
    i = end < 0 ? text.length : end + 1;
  }
  lit += text.slice(i);
  if (lit) parts.push(lit);
  return parts;
}

/** The index of the pipe closing a marker body starting at `from`, skipping `default(...)` text. */
export function closingPipe(text: string, from: number): number {
  let depth = 0;
  let quote = false;
  for (let j = from; j < text.length; j++) {
    const c = text[j];
    if (quote) { if (c === '\\') j++; else if (c === '"') quote = false; continue; }
    if (c === '"' && depth > 0) quote = true;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === '|' && depth === 0) return j;
    else if (c === '\n') return -1;
  }
  return -1;
}

/** Parses a marker body such as `Fetch::body.items->0->default([])`; null when it is not a reference. */
export function parseRef(body: string): Ref | null {
  const src = `a|${body}|`;
  let rest = body;
  let dflt: Json | undefined;
  let hasDefault = false;
  const d = /->default\(([\s\S]*)\)$/.exec(rest);
  if (d) { dflt = parseDefault(d[1]!); hasDefault = true; rest = rest.slice(0, d.index); }
  const { root, name, arrows } = markerHead(rest);
  if (!root || arrows.some((a) => a === '')) return null;
  const path: Array<string | number> = [];
  for (const a of arrows) path.push(...segments(a));
  if (/[|\n\r\u2028\u2029]/.test(root) || name === '') return null;
  const ref = build(root, name, path);
  if (!ref) return null;
  ref.src = src;
  if (hasDefault) ref.default = dflt as Json;
  return ref;
}

/** The head of a marker body without its `->default(...)`: `Fetch::body.id->x` is root `Fetch`, name `body.id`, arrows ['x']. */
export function markerHead(body: string): { root: string; name: string | undefined; arrows: string[] } {
  const [head = '', ...arrows] = body.split('->');
  const sep = head.indexOf('::');
  return { root: (sep < 0 ? head : head.slice(0, sep)).trim(), name: sep < 0 ? undefined : head.slice(sep + 2), arrows };
}

function build(root: string, name: string | undefined, path: Array<string | number>): Ref | null {
  if (name === undefined) {
    const r = own(BARE, root);
    if (r) return { root: r, path, src: '' };
    return { root: 'action', name: root, part: 'data', path, src: '' };
  }
  if (root === 'body') return { root: 'body', path: [...segments(name), ...path], src: '' };
  const named = own(NAMED, root);
  if (named) return { root: named, name, path, src: '' };
  if (root === 'uuid' || root === 'raw_body') return null;
  const [first, ...more] = segments(name);
  if (typeof first === 'string' && PARTS.has(first)) {
    return { root: 'action', name: root, part: first as 'status' | 'headers' | 'body', path: [...more, ...path], src: '' };
  }
  return { root: 'action', name: root, part: 'data', path: [...segments(name), ...path], src: '' };
}

/** `a.b.0` → ['a', 'b', 0]. */
export function segments(path: string): Array<string | number> {
  return path.split('.').filter((s) => s !== '').map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

/** `->default(...)` takes JSON when it parses (numbers, null, quoted strings, arrays), else the raw text. */
function parseDefault(text: string): Json {
  try { return JSON.parse(text) as Json; } catch { return text; }
}
