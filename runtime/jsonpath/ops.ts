// JSONPath steps for compiled paths (compiler/jsonpath/compile.ts imports this module as `jp`) and for
// dotted paths. RFC 9535 semantics as in json-p3 (runtime/jsonpath/env.ts): names select own members of
// objects, indices select array elements (negative from the end); no match is undefined.
import { depthError, MAX_DEPTH } from './env.ts';
import { NOTHING } from './filter.ts';
export { cmp, numLt, numGt, numLe, numGe, truthyList, fnLength, fnCount, fnValue, fnMatch, fnSearch, unpack, NOTHING } from './filter.ts';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `.name` / `['name']` */
export function prop(v: unknown, name: string): unknown {
  return isObj(v) && Object.hasOwn(v, name) ? v[name] : undefined;
}

/** The places `$.a.b…` (member names only) selects in v: none or one, as jsonPathPlaces gives them. */
export function memberPlaces(v: unknown, names: readonly string[]): Array<{ v: unknown; at: string[] }> {
  for (const n of names) if ((v = prop(v, n)) === undefined) return [];
  return [{ v, at: names.slice() }];
}

/** The places `$.a[*].b…` (member names, and null for a wildcard) selects in v, in json-p3's order:
 *  array elements by index, object members in their key order. */
export function stepPlaces(v: unknown, steps: ReadonlyArray<string | null>): Array<{ v: unknown; at: Array<string | number> }> {
  let cur: Array<{ v: unknown; at: Array<string | number> }> = [{ v, at: [] }];
  for (const s of steps) {
    const next: typeof cur = [];
    for (const p of cur) {
      const x = p.v;
      if (s !== null) {
        const y = prop(x, s);
        if (y !== undefined) next.push({ v: y, at: [...p.at, s] });
      } else if (Array.isArray(x)) {
        for (let i = 0; i < x.length; i++) next.push({ v: x[i], at: [...p.at, i] });
      } else if (isObj(x)) {
        for (const k of Object.keys(x)) next.push({ v: x[k], at: [...p.at, k] });
      }
    }
    cur = next;
  }
  return cur;
}

/** `[i]` */
export function at(v: unknown, i: number): unknown {
  if (!Array.isArray(v)) return undefined;
  const j = i < 0 ? v.length + i : i;
  return j >= 0 && j < v.length ? v[j] : undefined;
}

/** `[*]` / `.*` and the candidates of a filter: array elements or object member values. */
export function values(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  return isObj(v) ? Object.values(v) : [];
}

/** `[start:stop:step]` (RFC 9535 2.3.4.2.2); absent bounds are undefined. */
export function slice(v: unknown, start: number | undefined, stop: number | undefined, step = 1): unknown[] {
  return Array.isArray(v) ? sliceIndexes(v.length, start, stop, step).map((i) => v[i]) : [];
}

/** The indices `[start:stop:step]` selects in an array of `len`, in selection order. */
export function sliceIndexes(len: number, start: number | undefined, stop: number | undefined, step = 1): number[] {
  if (step === 0 || len === 0) return [];
  const norm = (n: number) => (n >= 0 ? n : len + n);
  const out: number[] = [];
  if (step > 0) {
    const lo = Math.min(Math.max(start === undefined ? 0 : norm(start), 0), len);
    const hi = Math.min(Math.max(stop === undefined ? len : norm(stop), 0), len);
    for (let i = lo; i < hi; i += step) out.push(i);
  } else {
    const hi = Math.min(Math.max(start === undefined ? len - 1 : norm(start), -1), len - 1);
    const lo = Math.min(Math.max(stop === undefined ? -1 : norm(stop), -1), len - 1);
    for (let i = hi; i > lo; i += step) out.push(i);
  }
  return out;
}

/**
 * The nodes `..` visits, in document order (a node before its descendants), containers only: selectors
 * select nothing from a scalar. Iterative; deeper than MAX_DEPTH is an error, as in the interpreter.
 */
export function descend(v: unknown): unknown[] {
  const out: unknown[] = [];
  const stack: Array<[unknown, number]> = [[v, 1]];
  while (stack.length) {
    const [x, depth] = stack.pop()!;
    if (depth >= MAX_DEPTH) throw depthError();
    if (typeof x !== 'object' || x === null) continue;
    out.push(x);
    const kids = values(x);
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], depth + 1]);
  }
  return out;
}

/** A single-match path's node list. */
export function one(v: unknown): unknown[] {
  return v === undefined ? [] : [v];
}

/** One segment of a dotted path (`items.0.name`): array index if numeric, else an own member. */
export function dot(v: unknown, seg: string): unknown {
  if (Array.isArray(v)) {
    if (!/^-?\d+$/.test(seg)) return undefined;
    const i = Number(seg);
    return v[i < 0 ? v.length + i : i];
  }
  return typeof v === 'object' && v !== null && Object.hasOwn(v, seg) ? (v as Obj)[seg] : undefined;
}

/** A continuation or helper of compiled code: typed here so the generated code needs no annotations. */
export const step = (f: (x: unknown) => void): ((x: unknown) => void) => f;
export const query = (f: (x: unknown) => unknown[]): ((x: unknown) => unknown[]) => f;

/** A singular query's value for comparison: NOTHING when it selected nothing. */
export const some = (v: unknown): unknown => (v === undefined ? NOTHING : v);
