// Interpreter backend: walks the checked tree once into closures that call the same ops.ts
// functions the generated code calls, so both paths share every semantic decision.
import * as ops from './ops.ts';
import { parseCalc, type CalcNode } from './parse.ts';

type F = (target: unknown) => unknown;

const BINARY = {
  add: ops.add, concat: ops.concat, sub: ops.sub, mul: ops.mul, div: ops.div, mod: ops.mod, pow: ops.pow,
  eq: ops.eq, ne: ops.ne, lt: ops.lt, le: ops.le, gt: ops.gt, ge: ops.ge,
} as const;

function build(n: CalcNode): F {
  switch (n.k) {
    case 'lit': {
      const v = n.v;
      return () => v;
    }
    case 'field': {
      const path = n.path;
      if (path.length === 1) { const k = path[0]!; return (t) => ops.field(t, k); }
      return (t) => ops.get(t, ...path);
    }
    case 'neg':
    case 'not': {
      const a = build(n.a), f = ops[n.k];
      return (t) => f(a(t));
    }
    case 'and':
    case 'or': {
      const a = build(n.a), b = build(n.b), f = ops[n.k];
      return (t) => f(a(t), () => b(t));
    }
    case 'if': {
      const c = build(n.c), th = build(n.t), el = build(n.e);
      return (t) => (ops.truthy(c(t)) ? th(t) : el(t));
    }
    case 'call': {
      const args = n.args.map(build), f = ops.fn[n.fn] as (...a: unknown[]) => unknown;
      return (t) => f(...args.map((a) => a(t)));
    }
    default: {
      const a = build(n.a), b = build(n.b), f = BINARY[n.k];
      return (t) => f(a(t), b(t));
    }
  }
}

/** Compiles a math expression into `(target) => value`; throws CalcError for a rejected expression. */
export function compileCalcClosure(src: string): (target: unknown) => unknown {
  const f = build(parseCalc(src));
  return (target) => ops.fin(f(target));
}
