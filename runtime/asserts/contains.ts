// `contains: <value>`: a substring of a string (numbers are stringified), an element of an array
// (deep JSON equality), or a key of an object. Anything else does not contain anything.
import { deepEqual } from '../values/equal.ts';
import { show } from './json.ts';
import type { AssertOp } from './types.ts';

const scalar = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

export const op: AssertOp = {
  check(a, e) {
    if (typeof a === 'string') return scalar(e) !== undefined && a.includes(scalar(e)!);
    if (Array.isArray(a)) return a.some((x) => deepEqual(x, e));
    if (a !== null && typeof a === 'object') return scalar(e) !== undefined && Object.hasOwn(a, scalar(e)!);
    return false;
  },
  explain(a, e) {
    const what = Array.isArray(a) ? '' : a !== null && typeof a === 'object' ? 'the key ' : '';
    return `expected ${show(a)} to contain ${what}${show(e)}`;
  },
};
