// Indexing, slicing and iteration (`.a`, `.[k]`, `.[a:b]`, `.[]`, their `?` forms, object keys).
import { caught, described, fail } from './errors.ts';
import { eq } from './compare.ts';
import { type } from './text.ts';
import { isObject } from './values.ts';

const hasOwn = Object.hasOwn;

function indexError(v: unknown, k: unknown): never {
  fail(`Cannot index ${type(v)} with ${described(k)}`);
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
  if (isObject(k) && (v === null || Array.isArray(v) || typeof v === 'string')) {
    // An object key is a slice {start, end}; both members must be present (null means open).
    if (v !== null && !(hasOwn(k, 'start') && hasOwn(k, 'end'))) fail('Array/string slice indices must be integers');
    return slice(v, field(k, 'start'), field(k, 'end'));
  }
  indexError(v, k);
}

export function hasAstral(s: string): boolean {
  return /[\ud800-\udfff]/.test(s);
}

/** `.[from:to]` on arrays and strings (by code point); null gives null. */
export function slice(v: unknown, from: unknown, to: unknown): unknown {
  if (v === null || v === undefined) return null;
  const isStr = typeof v === 'string';
  if (!isStr && !Array.isArray(v)) indexError(v, { start: from, end: to });
  if ((from !== null && typeof from !== 'number') || (to !== null && typeof to !== 'number')) {
    fail('Array/string slice indices must be integers');
  }
  const chars = isStr && hasAstral(v) ? Array.from(v) : null;
  const [s, e] = sliceBounds(chars ? chars.length : (v as string | unknown[]).length, from as number | null, to as number | null);
  if (chars) return chars.slice(s, e).join('');
  return (v as string | unknown[]).slice(s, e);
}

/** jq 1.8's parse_slice for a value of length len: start rounds down, end rounds up, both clamped. */
export function sliceBounds(len: number, from: number | null, to: number | null): [number, number] {
  let ds = from === null || Number.isNaN(from) ? 0 : from;
  if (ds < 0) ds += len;
  if (ds < 0) ds = 0;
  if (ds > len) ds = len;
  const s = Math.trunc(ds);
  let de = to === null || Number.isNaN(to) ? len : to;
  if (de < 0) de += len;
  if (de < 0) de = s;
  let e = Math.trunc(Math.min(de, len));
  if (e < len && e < de) e += 1;
  if (e < s) e = s;
  return [s, e];
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
