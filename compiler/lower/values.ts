// Config values → Expr. A string that is exactly one marker keeps the value's JSON type; a string
// with markers inside is a template; objects and arrays without markers fold into one literal.
import type { Expr, Json, Node, Ref } from '../../runtime/ir.ts';
import { parseMarkers } from '../markers/parse.ts';

export function lowerValue(v: unknown): Expr {
  if (typeof v === 'string') return lowerString(v, false);
  if (Array.isArray(v)) return fold({ k: 'arr', items: v.map(lowerValue) });
  if (v !== null && typeof v === 'object') {
    return fold({ k: 'obj', props: Object.entries(v).map(([key, x]) => [key, lowerValue(x)] as [string, Node]) });
  }
  return { k: 'lit', v: (v === undefined ? null : v) as Json };
}

/** `input` also takes the bare form `a|Fetch` (no closing pipe). */
export function lowerInput(v: unknown): Expr {
  return typeof v === 'string' ? lowerString(v, true) : lowerValue(v);
}

export function lowerString(text: string, bare: boolean): Expr {
  const count = /^count\((.*)\)$/s.exec(text.trim());
  if (count) return { k: 'count', of: lowerString(count[1]!.trim(), true) };
  const parts = parseMarkers(text, bare);
  if (parts.length === 0) return { k: 'lit', v: '' };
  if (parts.length === 1 && typeof parts[0] === 'string') return { k: 'lit', v: parts[0] };
  if (parts.length === 1) return { k: 'ref', ref: parts[0] as Ref };
  return { k: 'tmpl', parts };
}

function fold(e: Expr): Expr {
  if (e.k === 'arr' && e.items.every(isLit)) return { k: 'lit', v: e.items.map((i) => (i as { v: Json }).v) };
  if (e.k === 'obj' && e.props.every(([, n]) => isLit(n))) {
    const o: { [k: string]: Json } = {};
    for (const [key, n] of e.props) Object.defineProperty(o, key, { value: (n as { v: Json }).v, enumerable: true, writable: true, configurable: true });
    return { k: 'lit', v: o };
  }
  return e;
}

export const isLit = (n: Node): n is { k: 'lit'; v: Json } => n.k === 'lit';

/** Every reference inside a node (for state prefetch and lints). */
export function refsOf(n: Node | undefined, out: Ref[] = []): Ref[] {
  if (!n) return out;
  switch (n.k) {
    case 'ref': out.push(n.ref); break;
    case 'tmpl': for (const p of n.parts) if (typeof p !== 'string') out.push(p); break;
    case 'obj': for (const [, x] of n.props) refsOf(x, out); break;
    case 'arr': for (const x of n.items) refsOf(x, out); break;
    case 'count': refsOf(n.of, out); break;
    case 'test': refsOf(n.test.value, out); for (const c of n.test.checks) refsOf(c.arg, out); break;
    case 'chain': for (const t of n.steps) refsOf(t.args, out); break;
  }
  return out;
}
