// Fast-path backend: turns a math expression into the source of `(target) => ...` that calls the
// runtime helpers of runtime/calc/ops.ts as `calc.<name>` (the generated module imports them as
// `calc`). Names and strings from the expression enter the code only through the `_` builder, so an
// expression can never inject code; the shape of the code comes solely from the checked tree.
import { parseCalc, type CalcNode } from '../../runtime/calc/parse.ts';
import { _, Code, join, Name } from '../emit/code.ts';
import { plainKey } from '../emit/plain-key.ts';

function emit(n: CalcNode): Code {
  switch (n.k) {
    case 'lit':
      return _`${n.v}`;
    case 'field':
      // One field (the usual case) has its own helper: no rest-argument array per call.
      if (n.path.length === 1) {
        const f = n.path[0]!;
        return typeof f === 'string' && plainKey(f) ? _`target?.[${f}]` : _`calc.field(target, ${f})`;
      }
      return _`calc.get(target, ${join(n.path.map((p) => _`${p}`))})`;
    case 'neg':
    case 'not':
      return _`calc.${new Name(n.k)}(${emit(n.a)})`;
    case 'and':
    case 'or':
      return _`calc.${new Name(n.k)}(${emit(n.a)}, () => ${emit(n.b)})`;
    case 'if':
      return _`(calc.truthy(${emit(n.c)}) ? ${emit(n.t)} : ${emit(n.e)})`;
    case 'call':
      return _`calc.fn.${new Name(n.fn)}(${join(n.args.map(emit))})`;
    default:
      return _`calc.${new Name(n.k)}(${emit(n.a)}, ${emit(n.b)})`;
  }
}

/** Source text of `(target) => value` for a math expression; throws CalcError for a rejected one. */
export function compileCalcSource(src: string): string {
  return _`(target) => calc.fin(${emit(parseCalc(src))})`.text;
}
