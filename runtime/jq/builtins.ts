// Collection and math builtins (length, keys, add, entries, sort/group/unique/min/max, join, ...).
import { fail, fail1, fail2, described } from './errors.ts';
import { cmp, comparatorFor, sortedKeys } from './compare.ts';
import { add } from './arith.ts';
import { field, hasAstral, iter, key } from './access.ts';
import { tostring, type } from './text.ts';
import { tick } from './bounds.ts';
import { isObject, put, truthy, type Obj } from './values.ts';

const hasOwn = Object.hasOwn;

export function length(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return Math.abs(v);
  if (typeof v === 'string') return hasAstral(v) ? Array.from(v).length : v.length;
  if (Array.isArray(v)) return v.length;
  if (isObject(v)) return Object.keys(v).length;
  fail1(v, 'has no length');
}

export function keysUnsorted(v: unknown): unknown[] {
  if (isObject(v)) return Object.keys(v);
  if (Array.isArray(v)) return v.map((_, i) => i);
  fail1(v, 'has no keys');
}

export function keys(v: unknown): unknown[] {
  return isObject(v) ? sortedKeys(v) : keysUnsorted(v);
}

export function has(v: unknown, k: unknown): boolean {
  if (isObject(v) && typeof k === 'string') return hasOwn(v, k);
  if (Array.isArray(v) && typeof k === 'number') return k >= 0 && k < v.length;
  if (v === null) return false;
  fail(`Cannot check whether ${type(v)} has a ${type(k)} key`);
}

/** `add`: reduce .[] as $x (null; . + $x) */
export function sum(v: unknown): unknown {
  let acc: unknown = null;
  for (const x of iter(v)) acc = add(acc, x);
  return acc;
}

export function toEntries(v: unknown): unknown[] {
  if (isObject(v)) return Object.keys(v).map((k) => ({ key: k, value: v[k] }));
  return keysUnsorted(v).map((i) => ({ key: i, value: (v as unknown[])[i as number] ?? null }));
}

/** map({(.key // .Key // .name // .Name): (if has("value") then .value else .Value end)}) | add | .//={} */
export function fromEntries(v: unknown): unknown {
  const pairs: [string, unknown][] = [];
  for (const e of iter(v)) {
    let k: unknown;
    for (const name of ['key', 'Key', 'name', 'Name']) {
      k = field(e, name);
      if (truthy(k)) break;
    }
    const value = isObject(e) && hasOwn(e, 'value') ? e.value : field(e, 'Value');
    pairs.push([key(k), value]);
  }
  const o: Obj = {};
  for (const [k, x] of pairs) put(o, k, x);
  return o;
}

/** `map_values(f)` = `.[] |= f`: first output of f, or the entry is dropped. */
export function mapValues(v: unknown, first: (x: unknown) => unknown): unknown {
  if (Array.isArray(v)) {
    const r: unknown[] = [];
    for (const x of v) {
      const y = first(x);
      if (y !== undefined) r.push(y);
    }
    return r;
  }
  if (!isObject(v)) fail(`Cannot iterate over ${described(v)}`);
  const r: Obj = {};
  for (const k of Object.keys(v)) {
    const y = first(v[k]);
    if (y !== undefined) put(r, k, y);
  }
  return r;
}

type KeyFn = (x: unknown) => unknown[];

function keyed(v: unknown, by: KeyFn, what: string): { items: unknown[]; keys: unknown[][] } {
  const keys = iter(v).map(by); // map([f]) runs first, like jq
  if (!Array.isArray(v)) fail2(v, keys, what);
  return { items: v, keys };
}

/** Stable order of positions by key. Keys of one value (the usual `sort_by(.f)`) compare as that value. */
function sortedOrder(keys: unknown[][]): number[] {
  const flat = keys.every((k) => k.length === 1) ? keys.map((k) => k[0]) : keys;
  const c = comparatorFor(flat);
  return keys.map((_, i) => i).sort((i, j) => c(flat[i], flat[j]) || i - j);
}

export function sort(v: unknown): unknown[] {
  if (!Array.isArray(v)) fail1(v, 'cannot be sorted, as it is not an array');
  const c = comparatorFor(v);
  return v.map((_, i) => i).sort((i, j) => c(v[i], v[j]) || i - j).map((i) => v[i]);
}

export function sortBy(v: unknown, by: KeyFn): unknown[] {
  const { items, keys } = keyed(v, by, 'cannot be sorted, as they are not both arrays');
  return sortedOrder(keys).map((i) => items[i]);
}

export function groupBy(v: unknown, by: KeyFn): unknown[][] {
  const { items, keys } = keyed(v, by, 'cannot be sorted, as they are not both arrays');
  const groups: unknown[][] = [];
  let last: unknown[] | undefined;
  for (const i of sortedOrder(keys)) {
    if (last && cmp(last, keys[i]) === 0) groups[groups.length - 1].push(items[i]);
    else groups.push([items[i]]);
    last = keys[i];
  }
  return groups;
}

export function uniqueBy(v: unknown, by: KeyFn): unknown[] {
  return groupBy(v, by).map((g) => g[0]);
}

export function unique(v: unknown): unknown[] {
  if (!Array.isArray(v)) fail1(v, 'cannot be sorted, as it is not an array');
  return uniqueBy(v, (x) => [x]);
}

function extreme(values: unknown, keys: unknown, isMin: boolean): unknown {
  if (!Array.isArray(values) || !Array.isArray(keys)) fail2(values, keys, 'cannot be iterated over');
  if (values.length !== keys.length) fail2(values, keys, 'have wrong length');
  if (values.length === 0) return null;
  let best = values[0];
  let bestKey = keys[0];
  for (let i = 1; i < values.length; i++) {
    // min keeps the first of equals, max the last (jq's minmax_by)
    if ((cmp(keys[i], bestKey) < 0) === isMin) {
      best = values[i];
      bestKey = keys[i];
    }
  }
  return best;
}

export const min = (v: unknown): unknown => extreme(v, v, true);
export const max = (v: unknown): unknown => extreme(v, v, false);
export const minBy = (v: unknown, by: KeyFn): unknown => extreme(v, iter(v).map(by), true);
export const maxBy = (v: unknown, by: KeyFn): unknown => extreme(v, iter(v).map(by), false);

/** [.[length - 1 - range(0;length)]] */
export function reverse(v: unknown): unknown[] {
  if (Array.isArray(v)) return v.slice().reverse();
  const n = length(v) as number;
  if (n > 0) fail(`Cannot index ${type(v)} with ${described(n - 1)}`); // jq: .[length - 1 - range(0; length)]
  return [];
}

/** `any` / `all` without arguments. */
export function any(v: unknown): boolean {
  for (const x of iter(v)) if (truthy(x)) return true;
  return false;
}
export function all(v: unknown): boolean {
  for (const x of iter(v)) if (!truthy(x)) return false;
  return true;
}

/** `any(f)`: `pred` says whether f yields a truthy value for x (it stops at the first one). */
export function anyBy(v: unknown, pred: (x: unknown) => boolean): boolean {
  for (const x of iter(v)) if (pred(x)) return true;
  return false;
}
/** `all(f)`: `pred` says whether every output of f for x is truthy (it stops at the first falsy one). */
export function allBy(v: unknown, pred: (x: unknown) => boolean): boolean {
  for (const x of iter(v)) if (!pred(x)) return false;
  return true;
}

function num(v: unknown): number {
  if (typeof v !== 'number') fail1(v, 'number required');
  return v;
}
export const floor = (v: unknown): number => Math.floor(num(v));
export const ceil = (v: unknown): number => Math.ceil(num(v));
export const sqrt = (v: unknown): number => Math.sqrt(num(v));
export const fabs = (v: unknown): number => Math.abs(num(v));
/** C round(): halves away from zero. */
export function round(v: unknown): number {
  const n = num(v);
  return n < 0 ? -Math.round(-n) : Math.round(n);
}


/** `join($sep)` as defined in jq's builtin.jq. */
export function join(v: unknown, sep: unknown): unknown {
  let acc: unknown = null;
  for (const x of iter(v)) {
    const s = typeof x === 'boolean' || typeof x === 'number' ? tostring(x) : x ?? '';
    acc = add(acc === null ? '' : add(acc, sep), s);
  }
  return acc ?? '';
}

/** `range(from; upto)`: from, from + 1, ... while below upto (jq's RANGE opcode). */
export function* range(from: unknown, upto: unknown): Generator<number> {
  if (typeof from !== 'number' || typeof upto !== 'number') fail('Range bounds must be numeric');
  for (let x = from; x < upto; x += 1) {
    tick(); // range(infinite) and other long ranges end at the time bound
    yield x;
  }
}
