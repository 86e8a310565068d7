// jq semantics for code emitted by compiler/jq/compile.ts (imported there as `jq`).
// Behaviour and error texts follow the engine (jq-web, jq 1.7 builtins) so that the compiled fast path
// and the interpreter give identical results; see test/jq/corpus.test.ts.
import { JqError } from './errors.ts';
import { dump, numStr, tojson, tostring, type, utf8 } from './text.ts';

export { JqError, numStr, tojson, tostring, type };

type Obj = Record<string, unknown>;

const hasOwn = Object.hasOwn;

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Writes an own property even for "__proto__" (plain assignment would set the prototype). */
export function put(o: Obj, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

// ---------------------------------------------------------------- types and text

export function truthy(v: unknown): boolean {
  return v !== null && v !== false && v !== undefined;
}

export function not(v: unknown): boolean {
  return v === null || v === false || v === undefined;
}

// ---------------------------------------------------------------- errors

function described(v: unknown): string {
  return `${type(v)} (${dump(v)})`;
}

export function fail(message: string): never {
  throw new JqError(message);
}

function fail1(v: unknown, what: string): never {
  fail(`${described(v)} ${what}`);
}

function fail2(a: unknown, b: unknown, what: string): never {
  fail(`${described(a)} and ${described(b)} ${what}`);
}

/** `error` / `error(msg)`: strings are the message (cut at NUL like jq's C text); others are dumped. */
export function error(v: unknown): never {
  if (typeof v === 'string') {
    const msg = v.includes('\0') ? v.slice(0, v.indexOf('\0')) : v;
    throw new JqError(msg, 'runtime', msg);
  }
  throw new JqError(`${tojson(v)} (not a string)`, 'runtime', v ?? null);
}

/** Types a continuation that compiled code calls once per output. */
export const each = (f: (v: unknown) => void): ((v: unknown) => void) => f;

/** Rethrows anything that is not a jq error (bugs must not be swallowed by `?`). */
export function caught(e: unknown): void {
  if (!(e instanceof JqError)) throw e;
}

// ---------------------------------------------------------------- ordering

const ORDER: Record<string, number> = { null: 0, boolean: 1, number: 3, string: 4, array: 5, object: 6 };

function rank(v: unknown): number {
  return v === true ? 2 : ORDER[type(v)];
}

/** Compares strings by code point (jq compares UTF-8 bytes), not by UTF-16 unit. */
export function cmpStr(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after every BMP unit.
    if (x >= 0xd800) x += x < 0xe000 ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y < 0xe000 ? 0x2000 : -0x800;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function sortedKeys(o: Obj): string[] {
  return Object.keys(o).sort(cmpStr);
}

/** jq's total order: null < false < true < numbers < strings < arrays < objects. */
export function cmp(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a !== a) return b !== b ? -1 : -1; // nan sorts below every number (as null would)
    if (b !== b) return 1;
    return a < b ? -1 : a === b ? 0 : 1;
  }
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'string') return cmpStr(a, b as string);
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    const n = Math.min(a.length, bb.length);
    for (let i = 0; i < n; i++) {
      const c = cmp(a[i], bb[i]);
      if (c) return c;
    }
    return a.length < bb.length ? -1 : a.length > bb.length ? 1 : 0;
  }
  if (ra === 6) {
    const ka = sortedKeys(a as Obj);
    const kb = sortedKeys(b as Obj);
    const c = cmp(ka, kb);
    if (c) return c;
    for (const k of ka) {
      const d = cmp((a as Obj)[k], (b as Obj)[k]);
      if (d) return d;
    }
  }
  return 0;
}

export function eq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return cmp(a, b) === 0;
}
export const ne = (a: unknown, b: unknown): boolean => !eq(a, b);
export const lt = (a: unknown, b: unknown): boolean => cmp(a, b) < 0;
export const le = (a: unknown, b: unknown): boolean => cmp(a, b) <= 0;
export const gt = (a: unknown, b: unknown): boolean => cmp(a, b) > 0;
export const ge = (a: unknown, b: unknown): boolean => cmp(a, b) >= 0;

// ---------------------------------------------------------------- arithmetic

// jq prints an infinite result as ±DBL_MAX, and that is what the engine returns: keep outputs identical.
const MAX = Number.MAX_VALUE;
const finite = (r: number): number => (r === Infinity ? MAX : r === -Infinity ? -MAX : r);

export function add(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return finite(a + b);
  if (a === null) return b;
  if (b === null) return a;
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return a.concat(b);
  if (isObject(a) && isObject(b)) return { ...a, ...b };
  fail2(a, b, 'cannot be added');
}

export function sub(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return finite(a - b);
  if (Array.isArray(a) && Array.isArray(b)) return a.filter((x) => !b.some((y) => eq(x, y)));
  fail2(a, b, 'cannot be subtracted');
}

function deepMerge(a: Obj, b: Obj): Obj {
  const r = { ...a };
  for (const k of Object.keys(b)) {
    const x = hasOwn(r, k) ? r[k] : undefined;
    const y = b[k];
    put(r, k, isObject(x) && isObject(y) ? deepMerge(x, y) : y);
  }
  return r;
}

function repeat(s: string, n: number): string | null {
  if (n < 0 || n !== n) return null;
  return s.repeat(Math.trunc(Math.min(n, 2147483647)));
}

export function mul(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return finite(a * b);
  if (typeof a === 'string' && typeof b === 'number') return repeat(a, b);
  if (typeof a === 'number' && typeof b === 'string') return repeat(b, a);
  if (isObject(a) && isObject(b)) return deepMerge(a, b);
  fail2(a, b, 'cannot be multiplied');
}

export function div(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') {
    if (b === 0) fail2(a, b, 'cannot be divided because the divisor is zero');
    return finite(a / b);
  }
  if (typeof a === 'string' && typeof b === 'string') return split(a, b);
  fail2(a, b, 'cannot be divided');
}

const INT_MAX = 9223372036854775807n;
const INT_MIN = -9223372036854775808n;

/** C's (intmax_t) conversion, saturating like jq's dtoi. */
function dtoi(n: number): bigint {
  if (n >= 9223372036854775807) return INT_MAX;
  if (n <= -9223372036854775808) return INT_MIN;
  return BigInt(Math.trunc(n));
}

export function mod(a: unknown, b: unknown): unknown {
  if (typeof a !== 'number' || typeof b !== 'number') fail2(a, b, 'cannot be divided (remainder)');
  if (a !== a || b !== b) return NaN;
  const safe = Math.abs(a) < 9007199254740992 && Math.abs(b) < 9007199254740992;
  if (safe) {
    const bi = Math.trunc(b);
    if (bi === 0) fail2(a, b, 'cannot be divided (remainder) because the divisor is zero');
    return bi === -1 ? 0 : (Math.trunc(a) % bi) + 0; // + 0: C's integer % never yields -0
  }
  const bi = dtoi(b);
  if (bi === 0n) fail2(a, b, 'cannot be divided (remainder) because the divisor is zero');
  return bi === -1n ? 0 : Number(dtoi(a) % bi);
}

export function neg(v: unknown): number {
  if (typeof v === 'number') return -v;
  fail1(v, 'cannot be negated');
}

// ---------------------------------------------------------------- access

function indexError(v: unknown, k: unknown): never {
  if (typeof k === 'string' && utf8.encode(k).length < 30) fail(`Cannot index ${type(v)} with string "${k}"`);
  fail(`Cannot index ${type(v)} with ${type(k)}`);
}

/** `.[k]` for a string key (`.foo`): own properties only, missing or null input gives null. */
export function field(v: unknown, k: string): unknown {
  if (isObject(v)) {
    const r = v[k];
    if (r === undefined) return null;
    // Inherited members (constructor, __proto__, ...) are not data.
    if ((typeof r === 'function' || k === '__proto__') && !hasOwn(v, k)) return null;
    return r;
  }
  if (v === null || v === undefined) return null;
  indexError(v, k);
}

/** `.[n]`: arrays with negative indices from the end, fractions truncated, out of range null. */
export function at(v: unknown, n: number): unknown {
  if (Array.isArray(v)) {
    if (n !== n) return null;
    let i = Math.trunc(n);
    if (i < 0) i += v.length;
    return i >= 0 && i < v.length ? v[i] ?? null : null;
  }
  if (v === null || v === undefined) return null;
  indexError(v, n);
}

/** jq's `.[array]`: start indices where the sub-array occurs. */
function indices(a: unknown[], b: unknown[]): number[] {
  const res: number[] = [];
  for (let i = 0; i < a.length; i++) {
    let found = false;
    for (let j = 0; j < b.length; j++) {
      if (i + j >= a.length || !eq(a[i + j], b[j])) { found = false; break; }
      found = true;
    }
    if (found) res.push(i);
  }
  return res;
}

/** `.[k]` for a key computed at run time. */
export function idx(v: unknown, k: unknown): unknown {
  if (typeof k === 'string') return field(v, k);
  if (typeof k === 'number') return at(v, k);
  if (Array.isArray(v) && Array.isArray(k)) return indices(v, k);
  if (isObject(k) && (v === null || Array.isArray(v) || typeof v === 'string')) return slice(v, field(k, 'start'), field(k, 'end'));
  indexError(v, k);
}

function hasAstral(s: string): boolean {
  return /[\ud800-\udfff]/.test(s);
}

/** `.[from:to]` on arrays and strings (by code point); null gives null. */
export function slice(v: unknown, from: unknown, to: unknown): unknown {
  if (v === null || v === undefined) return null;
  const isStr = typeof v === 'string';
  if (!isStr && !Array.isArray(v)) fail(`Cannot index ${type(v)} with object`);
  if ((from !== null && typeof from !== 'number') || (to !== null && typeof to !== 'number')) {
    fail('Array/string slice indices must be integers');
  }
  const chars = isStr && hasAstral(v) ? Array.from(v) : null;
  const len = chars ? chars.length : (v as string | unknown[]).length;
  let s = from === null ? 0 : from;
  let e = to === null ? len : to;
  if (s < 0) s += len;
  if (e < 0) e += len;
  if (s < 0) s = 0;
  if (s > len) s = len;
  if (e > len) e = len;
  if (e < s) e = s;
  s = Math.trunc(s);
  e = Math.ceil(e);
  if (chars) return chars.slice(s, e).join('');
  return (v as string | unknown[]).slice(s, e);
}

/** `.[k]?`: undefined (no output) instead of an index error. */
export function idxOpt(v: unknown, k: unknown): unknown {
  try {
    return idx(v, k);
  } catch (e) {
    caught(e);
    return undefined;
  }
}

/** `.[from:to]?` */
export function sliceOpt(v: unknown, from: unknown, to: unknown): unknown {
  try {
    return slice(v, from, to);
  } catch (e) {
    caught(e);
    return undefined;
  }
}

/** Values of `.[]`. */
export function iter(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return Object.values(v);
  fail(`Cannot iterate over ${described(v)}`);
}

/** Values of `.[]?`. */
export function iterOpt(v: unknown): unknown[] {
  return Array.isArray(v) ? v : isObject(v) ? Object.values(v) : [];
}

/** Object key check of `{(k): v}`. */
export function key(k: unknown): string {
  if (typeof k === 'string') return k;
  fail(`Cannot use ${described(k)} as object key`);
}

// ---------------------------------------------------------------- builtins

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

function sortedOrder(keys: unknown[][]): number[] {
  return keys.map((_, i) => i).sort((i, j) => cmp(keys[i], keys[j]) || i - j);
}

export function sort(v: unknown): unknown[] {
  if (!Array.isArray(v)) fail1(v, 'cannot be sorted, as it is not an array');
  return v.map((x, i) => [x, i] as const).sort((a, b) => cmp(a[0], b[0]) || a[1] - b[1]).map((p) => p[0]);
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
  if (length(v) > 0) fail(`Cannot index ${type(v)} with number`);
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

/** `join($sep)` as defined in jq's builtin.jq. */
export function join(v: unknown, sep: unknown): unknown {
  let acc: unknown = null;
  for (const x of iter(v)) {
    const s = typeof x === 'boolean' || typeof x === 'number' ? tostring(x) : x ?? '';
    acc = add(acc === null ? '' : add(acc, sep), s);
  }
  return acc ?? '';
}

export function split(v: unknown, sep: unknown): string[] {
  if (typeof v !== 'string' || typeof sep !== 'string') fail('split input and separator must be strings');
  if (v === '') return [];
  return sep === '' ? Array.from(v) : v.split(sep);
}

export function startswith(v: unknown, p: unknown): boolean {
  if (typeof v !== 'string' || typeof p !== 'string') fail('startswith() requires string inputs');
  return v.startsWith(p);
}

export function endswith(v: unknown, p: unknown): boolean {
  if (typeof v !== 'string' || typeof p !== 'string') fail('endswith() requires string inputs');
  return v.endsWith(p);
}

export function ltrimstr(v: unknown, p: unknown): unknown {
  return typeof v === 'string' && typeof p === 'string' && v.startsWith(p) ? v.slice(p.length) : v;
}

export function rtrimstr(v: unknown, p: unknown): unknown {
  return typeof v === 'string' && typeof p === 'string' && v.endsWith(p) ? v.slice(0, v.length - p.length) : v;
}

export function asciiDowncase(v: unknown): string {
  if (typeof v !== 'string') fail('explode input must be a string');
  return v.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

export function asciiUpcase(v: unknown): string {
  if (typeof v !== 'string') fail('explode input must be a string');
  return v.replace(/[a-z]+/g, (s) => s.toUpperCase());
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

export { tonumber } from './tonumber.ts';
