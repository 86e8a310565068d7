// Fast-path backend: turns a math expression into the source of `(target) => ...` that calls the
// runtime helpers of runtime/calc/ops.ts as `calc.<name>` (the generated module imports them as
// `calc`). Names and strings from the expression enter the code only as JSON literals, so an
// expression can never inject code; the shape of the code comes solely from the checked tree.
import { parseCalc, type CalcNode } from '../../runtime/calc/parse.ts';

/** A JS literal for a JSON value; U+2028/9 escaped for engines and tools that predate ES2019. */
function lit(v: string | number | boolean | null): string {
  return JSON.stringify(v).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function emit(n: CalcNode): string {
  switch (n.k) {
    case 'lit':
      return lit(n.v);
    case 'field':
      // One field (the usual case) has its own helper: no rest-argument array per call.
      if (n.path.length === 1) return `calc.field(target, ${lit(n.path[0]!)})`;
      return `calc.get(${['target', ...n.path.map(lit)].join(', ')})`;
    case 'neg':
    case 'not':
      return `calc.${n.k}(${emit(n.a)})`;
    case 'and':
    case 'or':
      return `calc.${n.k}(${emit(n.a)}, () => ${emit(n.b)})`;
    case 'if':
      return `(calc.truthy(${emit(n.c)}) ? ${emit(n.t)} : ${emit(n.e)})`;
    case 'call':
      return `calc.fn.${n.fn}(${n.args.map(emit).join(', ')})`;
    default:
      return `calc.${n.k}(${emit(n.a)}, ${emit(n.b)})`;
  }
}

/** Source text of `(target) => value` for a math expression; throws CalcError for a rejected one. */
export function compileCalcSource(src: string): string {
  return `(target) => calc.fin(${emit(parseCalc(src))})`;
}
