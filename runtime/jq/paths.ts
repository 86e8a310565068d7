// Path builtins: getpath, setpath, delpaths (jq 1.8's jv_getpath / jv_setpath / jv_delpaths), iterative
// so that deep paths never recurse on the JS stack.
import { fail, fallback } from './errors.ts';
import { cmp, eq } from './compare.ts';
import { idx, iter, sliceBounds } from './access.ts';
import { type } from './text.ts';
import { isObject, put, type Obj } from './values.ts';

const MAX_PATH_DEPTH = 10_000;
/** An array grown beyond this by one assignment is left to the engine (its memory limit answers). */
const MAX_GROW = 1_000_000;

function checkPath(p: unknown, what = 'Path must be specified as an array'): unknown[] {
  if (!Array.isArray(p)) fail(what);
  if (p.length > MAX_PATH_DEPTH) fail('Path too deep');
  return p;
}

/** jv_get for a path step is `.[k]` (idx), null rule included: null indexed by a string, a number or
 *  a slice is null, any other key an index error. */
const get = idx;

export function getpath(v: unknown, p: unknown): unknown {
  let cur = v;
  for (const k of checkPath(p)) cur = get(cur, k);
  return cur;
}

/** jv_set: one step of setpath. */
function set(t: unknown, k: unknown, v: unknown): unknown {
  const isNull = t === null;
  if (typeof k === 'string' && (isNull || isObject(t))) {
    const o: Obj = isNull ? {} : { ...(t as Obj) };
    put(o, k, v);
    return o;
  }
  if (typeof k === 'number' && (isNull || Array.isArray(t))) {
    if (k !== k) fail('Cannot set array element at NaN index');
    const a = isNull ? [] : (t as unknown[]).slice();
    let i = Math.trunc(Math.max(-2147483648, Math.min(2147483647, k)));
    if (i < 0) i += a.length;
    if (i < 0) fail('Out of bounds negative array index');
    if (i > 536870911) fail('Array index too large');
    if (i - a.length > MAX_GROW) fallback();
    while (a.length < i) a.push(null);
    a[i] = v;
    return a;
  }
  if (isObject(k) && (isNull || Array.isArray(t))) {
    const a = isNull ? [] : (t as unknown[]);
    const [s, e] = sliceKey(a.length, k);
    if (!Array.isArray(v)) fail('A slice of an array can only be assigned another array');
    return [...a.slice(0, s), ...v, ...a.slice(e)];
  }
  if (isObject(k) && typeof t === 'string') fail('Cannot update string slices');
  fail(`Cannot update field at ${type(k)} index of ${type(t)}`);
}

/** parse_slice for arrays of length len, from a slice key {start, end}. */
function sliceKey(len: number, k: Obj): [number, number] {
  const from = k.start ?? null;
  const to = k.end ?? null;
  if ((from !== null && typeof from !== 'number') || (to !== null && typeof to !== 'number')) fail('Array/string slice indices must be integers');
  return sliceBounds(len, from, to);
}

export function setpath(v: unknown, p: unknown, value: unknown): unknown {
  const path = checkPath(p);
  // Walk down collecting the containers, then rebuild upwards (no recursion).
  const parents: unknown[] = [];
  let cur = v;
  for (const k of path) {
    parents.push(cur);
    cur = get(cur, k);
  }
  let r = value;
  for (let i = path.length - 1; i >= 0; i--) r = set(parents[i], path[i], r);
  return r;
}

/** jv_dels: deletes sorted keys of one container. */
function dels(t: unknown, keys: unknown[]): unknown {
  if (t === null || keys.length === 0) return t;
  if (Array.isArray(t)) {
    const del = new Set<number>();
    const ranges: [number, number][] = [];
    for (const k of keys) {
      if (typeof k === 'number') {
        if (k !== k) continue;
        const i = k < 0 ? t.length + Math.trunc(k) : Math.trunc(k);
        del.add(i);
      } else if (isObject(k)) ranges.push(sliceKey(t.length, k));
      else fail(`Cannot delete ${type(k)} element of array`);
    }
    return t.filter((_, i) => !del.has(i) && !ranges.some(([s, e]) => s <= i && i < e));
  }
  if (isObject(t)) {
    const o: Obj = { ...t };
    for (const k of keys) {
      if (typeof k !== 'string') fail(`Cannot delete ${type(k)} field of object`);
      delete o[k];
    }
    return o;
  }
  fail(`Cannot delete fields from ${type(t)}`);
}

function delpathsSorted(v: unknown, paths: unknown[][], start: number): unknown {
  const delkeys: unknown[] = [];
  let obj = v;
  for (let i = 0; i < paths.length;) {
    const key = paths[i][start];
    const whole = paths[i].length === start + 1;
    let j = i + 1;
    while (j < paths.length && eq(key, paths[j][start])) j++;
    if (whole) delkeys.push(key);
    else {
      const sub = get(obj, key);
      if (sub !== null) obj = set(obj, key, delpathsSorted(sub, paths.slice(i, j), start + 1));
    }
    i = j;
  }
  return dels(obj, delkeys);
}

export function delpaths(v: unknown, ps: unknown): unknown {
  if (!Array.isArray(ps)) fail('Paths must be specified as an array');
  const paths = ps.slice().sort(cmp);
  for (const p of paths) {
    if (!Array.isArray(p)) fail(`Path must be specified as array, not ${type(p)}`);
    if (p.length > MAX_PATH_DEPTH) fail('Path too deep');
  }
  if (paths.length === 0) return v;
  if ((paths[0] as unknown[]).length === 0) return null;
  // Recursion here follows the paths' length, not the data's: bounded by the deepest path given.
  return delpathsSorted(v, paths as unknown[][], 0);
}

/** A path with one more step (paths are shared, never mutated). */
export function pathAdd(p: unknown[], k: unknown): unknown[] {
  const r = p.slice();
  r.push(k);
  return r;
}

/** Keys and values of `.[]` for path expressions. */
export function entries(v: unknown): [unknown, unknown][] {
  if (Array.isArray(v)) return v.map((x, i) => [i, x]);
  if (isObject(v)) return Object.keys(v).map((k) => [k, v[k]]);
  return iter(v) as never; // raises jq's error
}

/** `.[]?` for path expressions: nothing for values that cannot be iterated. */
export function entriesOpt(v: unknown): [unknown, unknown][] {
  return Array.isArray(v) || isObject(v) ? entries(v) : [];
}
