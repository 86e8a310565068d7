// The array of records a lowered JSONPath target names (compiler/jsonpath/records.ts): found by its
// member names from the root, and put back with only the containers on the way copied, as the target
// rule (runtime/transforms/util/target.ts) rebuilds them. The specialised transforms and fused loops use
// these only where the answer is provably the engine's; `undefined` sends them to the general path.
import { MAX_DEPTH } from '../jsonpath/env.ts';
import { sliceIndexes } from '../jsonpath/ops.ts';
import { copyRecord, setOwn } from '../values/build.ts';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The array at `names` (own members of records from the root), or undefined: when a step is missing or
 *  not a record, the end is not an array, or a container on the way is also held under an earlier key
 *  (the target rule works on the first path to a node). With `deep` (`$..name…`), also undefined unless
 *  no record below the root has the first name: then `..` selects the same single place. */
export function listAt(d: unknown, names: readonly string[], deep: boolean): unknown[] | undefined {
  let cur = d;
  for (const n of names) {
    if (!isRec(cur) || !Object.hasOwn(cur, n)) return undefined;
    const v = cur[n];
    for (const k of Object.keys(cur)) if (cur[k] === v) { if (k !== n) return undefined; break; }
    cur = v;
  }
  if (!Array.isArray(cur)) return undefined;
  return deep && !soleAtRoot(d as Rec, names[0]!) ? undefined : cur;
}

/** No record below the root has own member `name`, and nothing nests as deep as `..` refuses to go.
 *  Recursive, at most MAX_DEPTH calls deep (a hostile value cannot overflow the stack); this walk is
 *  the whole extra cost of the `$..items[*]` form over `$.items[*]`, so it stays a plain recursion. */
function soleAtRoot(root: Rec, name: string): boolean {
  for (const k in root) {
    const v = root[k];
    if (v !== null && typeof v === 'object' && Object.hasOwn(root, k) && !noneBelow(v, name, 2)) return false;
  }
  return true;
}

/** `x`, at `depth` (the root is 1), and everything in it: no record with own member `name`, none as
 *  deep as MAX_DEPTH - 1. */
function noneBelow(x: object, name: string, depth: number): boolean {
  if (depth >= MAX_DEPTH - 1) return false;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const v: unknown = x[i];
      if (v !== null && typeof v === 'object' && !noneBelow(v, name, depth + 1)) return false;
    }
    return true;
  }
  if (Object.hasOwn(x, name)) return false;
  for (const k in x) {
    const v: unknown = (x as Rec)[k];
    if (v !== null && typeof v === 'object' && Object.hasOwn(x, k) && !noneBelow(v, name, depth + 1)) return false;
  }
  return true;
}

/** `d` with the array at `names` (found by listAt) replaced by `list`: each container on the way copied. */
export function withList(d: unknown, names: readonly string[], list: unknown[]): unknown {
  const put = (cur: Rec, i: number): Rec => {
    const out = copyRecord(cur);
    const n = names[i]!;
    setOwn(out, n, i === names.length - 1 ? list : put(cur[n] as Rec, i + 1));
    return out;
  };
  return put(d as Rec, 0);
}

/** The indices a union of indices and slices selects in an array of `len` (an index negative from the
 *  end, out of range none; a slice [start, stop, step] with null for an absent bound, as jp.slice). */
export function positions(len: number, parts: ReadonlyArray<number | readonly [number | null, number | null, number]>): Set<number> {
  const out = new Set<number>();
  for (const x of parts) {
    if (typeof x !== 'number') for (const i of sliceIndexes(len, x[0] ?? undefined, x[1] ?? undefined, x[2])) out.add(i);
    else {
      const j = x < 0 ? len + x : x;
      if (j >= 0 && j < len) out.add(j);
    }
  }
  return out;
}
