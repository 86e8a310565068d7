// `is_between: {min, max}`: inclusive on both ends; numeric strings count as numbers.
import { toNumber } from '../calc/num.ts';
import { show } from './json.ts';
import type { AssertOp } from './types.ts';

function range(e: unknown): [number, number] | undefined {
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return undefined;
  const r = e as Record<string, unknown>;
  const min = toNumber(r.min), max = toNumber(r.max);
  return Number.isNaN(min) || Number.isNaN(max) ? undefined : [min, max];
}

export const op: AssertOp = {
  check(a, e) {
    const r = range(e), n = toNumber(a);
    return r !== undefined && n >= r[0] && n <= r[1]; // NaN compares false
  },
  explain(a, e) {
    const r = range(e);
    if (!r) return `is_between needs {min, max} numbers, got ${show(e)}`;
    return `expected ${show(a)} to be ${Number.isNaN(toNumber(a)) ? 'a number ' : ''}between ${r[0]} and ${r[1]}`;
  },
};
