// What the compiler's specialised transforms (compiler/codegen/specialise/) call: the same small
// operations the generic transforms are built from, so both paths keep one set of rules (dotted
// reads through own fields, numeric text, the 15-digit cut of fractional sums, `__proto__` as data).
import { asserts } from '../asserts/index.ts';
import { TransformError } from '../transforms/types.ts';
import { roundNumber } from '../calc/round.ts';

export { getDotted } from '../calc/locate.ts';
export { toNumber } from '../calc/num.ts';
export { cleanSum } from '../transforms/aggregate.ts';
export { copyRecord, detached, setOwn } from '../values/build.ts';
export { atTargets } from '../transforms/util/target.ts';
export { kindOf, lookup } from '../transforms/util/path.ts';
export { eachRecord } from '../transforms/util/each.ts';
export { groupText } from '../transforms/group_by.ts';
export { TransformError };

/** One check's verdict without its message (runTest's rule: an unknown or throwing check fails). */
export function checkOf(name: string): (actual: unknown, expected: unknown) => boolean {
  const op = Object.hasOwn(asserts, name) ? asserts[name] : undefined;
  if (!op) return () => false;
  return (actual, expected) => {
    try { return !!op.check(actual, expected); } catch { return false; }
  };
}

/** math's rounding of a result to decimal_places: numbers only, others (null, text) unchanged. */
export function rounded(v: unknown, places: number): unknown {
  return typeof v === 'number' ? roundNumber(v, places) ?? v : v;
}

/** Returned by a fused loop (compiler/codegen/specialise/fuse.ts) for data it does not handle: the chain then runs its stages one by one. */
export const UNFUSED: unique symbol = Symbol('unfused');

/** The one object standing for a group id text within one aggregate run (compiler/codegen/specialise/aggregate.ts). */
export function tokenOf(tokens: Map<string, object>, id: string): object {
  let t = tokens.get(id);
  if (!t) tokens.set(id, (t = {}));
  return t;
}

export { listAt, withList, positions } from './records.ts';
