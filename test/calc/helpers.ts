// Both backends of a math expression, the fast path's source evaluated the way generated code
// would run it (with runtime/calc/ops.ts bound to `calc`).
import { compileCalcSource } from '../../compiler/calc/compile.ts';
import { compileCalcClosure } from '../../runtime/calc/eval.ts';
import * as ops from '../../runtime/calc/ops.ts';

export type Calc = (target: unknown) => unknown;

export function compiled(src: string): Calc {
  return new Function('calc', `return ${compileCalcSource(src)}`)(ops) as Calc;
}

/** The fast path's source as generated modules declare it: called by math on records only. */
export function onRecord(src: string): Calc {
  return new Function('calc', `return ${compileCalcSource(src, { record: true })}`)(ops) as Calc;
}

export function both(src: string): [interpreted: Calc, compiled: Calc] {
  return [compileCalcClosure(src), compiled(src)];
}

/** Both backends and the record form: for targets that are records. */
export const all3 = (src: string): Calc[] => [...both(src), onRecord(src)];
