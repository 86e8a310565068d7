// The checked tree of a math expression: what parse.ts produces and both backends walk.

export type BinOp = 'add' | 'concat' | 'sub' | 'mul' | 'div' | 'mod' | 'pow' | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';
export type FnName = 'round' | 'floor' | 'ceil' | 'abs' | 'min' | 'max' | 'sqrt' | 'pow' | 'number' | 'string';

export type CalcNode =
  | { k: 'lit'; v: number | string | boolean | null }
  | { k: 'field'; path: Array<string | number> } // target.a.b, target["x y"], target.items[0]
  | { k: 'neg' | 'not'; a: CalcNode }
  | { k: BinOp | 'and' | 'or'; a: CalcNode; b: CalcNode }
  | { k: 'if'; c: CalcNode; t: CalcNode; e: CalcNode }
  | { k: 'call'; fn: FnName; args: CalcNode[] };

export class CalcError extends Error {
  override name = 'CalcError';
}

/** [min, max] argument count of each function. */
export const ARITY: Record<FnName, [number, number]> = {
  round: [1, 2], floor: [1, 1], ceil: [1, 1], abs: [1, 1], sqrt: [1, 1], number: [1, 1], string: [1, 1],
  min: [1, Infinity], max: [1, Infinity], pow: [2, 2],
};
