// Filter expressions of compiled JSONPaths (RFC 9535 2.3.5): comparisons and the five functions, with the
// semantics of json-p3 (runtime/jsonpath/env.ts), which the interpreter runs. A singular query's value is
// the value or NOTHING; a node list is an array of values.
import { env } from './env.ts';

export const NOTHING: unique symbol = Symbol('nothing');
type Val = unknown;

function deepEqual(a: Val, b: Val): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const o = b as Record<string, unknown>;
  return ka.length === Object.keys(o).length && ka.every((k) => Object.hasOwn(o, k) && deepEqual((a as Record<string, unknown>)[k], o[k]));
}

const lt = (a: Val, b: Val): boolean =>
  (typeof a === 'string' && typeof b === 'string') || (typeof a === 'number' && typeof b === 'number') ? a < b : false;

/** `a op b` for values (NOTHING when a singular query selected nothing). */
export function cmp(a: Val, op: string, b: Val): boolean {
  switch (op) {
    case '==': return deepEqual(a, b);
    case '!=': return !deepEqual(a, b);
    case '<': return lt(a, b);
    case '>': return lt(b, a);
    case '<=': return lt(a, b) || deepEqual(a, b);
    case '>=': return lt(b, a) || deepEqual(a, b);
    default: throw new Error(`unknown JSONPath operator ${op}`);
  }
}

/** `@.x < 10` and the like with a number literal (compiled filters): cmp's answer without its dispatch —
 *  only a number orders against a number; NOTHING, text and the rest are false. */
export const numLt = (a: Val, n: number): boolean => typeof a === 'number' && a < n;
export const numGt = (a: Val, n: number): boolean => typeof a === 'number' && a > n;
export const numLe = (a: Val, n: number): boolean => typeof a === 'number' && a <= n;
export const numGe = (a: Val, n: number): boolean => typeof a === 'number' && a >= n;

/** A node list used as a test: true when it selected something. */
export const truthyList = (nodes: unknown[]): boolean => nodes.length > 0;

/** A query used where a value is expected: its one value, else NOTHING. */
export const unpack = (nodes: unknown[]): Val => (nodes.length === 1 ? nodes[0] : NOTHING);

export function fnLength(v: Val): Val {
  if (typeof v === 'string' || Array.isArray(v)) return v.length;
  if (typeof v === 'object' && v !== null) return Object.keys(v).length;
  return NOTHING;
}

export const fnCount = (nodes: unknown[]): number => nodes.length;
export const fnValue = unpack;

// match/search: the environment's, on the linear-time engine (./regex.ts), as the interpreter runs them.
interface Fn { call(...args: unknown[]): unknown }
const match = env.functionRegister.get('match') as Fn;
const search = env.functionRegister.get('search') as Fn;
export const fnMatch = (s: Val, re: Val): boolean => match.call(s, re) === true;
export const fnSearch = (s: Val, re: Val): boolean => search.call(s, re) === true;
