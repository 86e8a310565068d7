// Interpreter leaves: Expr → (scope) => value, built once at start-up by walking the IR.
import type { Expr, Node, Ref } from '../ir.ts';
import type { Leaf } from '../plan.ts';
import type { Scope } from '../scope.ts';
import { path } from '../values/get.ts';
import { rootCall, rootOps, type RootFn } from '../values/roots.ts';
import { countOfValue, orDefault, text, val } from '../values/text.ts';
import { textAs } from '../values/escape.ts';
import { buildFn } from './fn.ts';

export function buildNode(n: Node): Leaf<unknown> {
  switch (n.k) {
    case 'lit': { const v = n.v; return () => v; }
    case 'ref': { const r = buildRef(n.ref); return (s) => val(r(s)); }
    case 'tmpl': {
      const parts = n.parts.map((p) => (typeof p === 'string' ? () => p : escaped(p)));
      return (s) => { let out = ''; for (const p of parts) out += p(s); return out; };
    }
    case 'obj': {
      const props = n.props.map(([k, x]) => [k, buildNode(x)] as const);
      return (s) => Object.fromEntries(props.map(([k, f]) => [k, f(s)]));
    }
    case 'arr': { const items = n.items.map(buildNode); return (s) => items.map((f) => f(s)); }
    case 'count': { const of = buildNode(n.of); return (s) => countOfValue(of(s)); }
    default: { const fn = buildFn(n); return () => fn; }
  }
}

/** A template's marker: as text, or encoded for where it lands. */
function escaped(r: Ref): (s: Scope) => string {
  const f = buildRef(r);
  const esc = r.esc;
  return esc ? (s) => textAs(esc, f(s), r.src) : (s) => text(f(s));
}

export const buildExpr = (e: Expr): Leaf<unknown> => buildNode(e);

/** A marker's raw value (undefined when absent), with its path and default applied. */
export function buildRef(r: Ref): (s: Scope) => unknown {
  const base = rootOf(r);
  const segs = r.path;
  const withPath = segs.length ? (s: Scope) => path(base(s), segs) : base;
  if (r.default === undefined) return withPath;
  const d = r.default;
  return (s) => orDefault(withPath(s), d);
}

function rootOf(r: Ref): (s: Scope) => unknown {
  const [op, ...args] = rootCall(r);
  const f = rootOps[op] as RootFn;
  const [a, b] = args;
  if (b !== undefined) return (s) => f(s, a!, b);
  if (a !== undefined) return (s) => f(s, a);
  return (s) => f(s);
}
