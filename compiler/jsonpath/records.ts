// A target's normal form: what it selects, whatever its spelling. `$.items`, `$['items']`, `items`,
// `$.a.b`, `$..items` name one array (`pick` undefined); `[*]` / `.*`, slices, indices and their unions, and
// filters (`[?@.price > 10]`) after it pick some of its elements. The specialised transforms and fused
// chains (compiler/codegen/specialise/) serve every spelling of one form with the same code; the
// places each form selects are still the engine's (json-p3) wherever the data has another shape:
// runtime/specialised/records.ts says when the fast code may run, and the general path runs otherwise.
import { jsonpath } from 'json-p3';
import { env, isJsonPath } from '../../runtime/jsonpath/env.ts';
import { dottedSegments } from '../../runtime/jsonpath/query.ts';
import type { Code } from '../emit/code.ts';
import { compileWhere, type Query } from './compile.ts';

const S = jsonpath.selectors;

export type Pick =
  | { k: 'all' }
  /** Indices and slices (`[0,2]`, `[1:4]`, `[:500,500:]`): an index, or [start, stop, step] with null for an absent bound. */
  | { k: 'positions'; parts: Position[] }
  /** `onRecord`: the same test for a candidate known to be a record (compileWhere's `record`). */
  | { k: 'where'; code: Code; onRecord: Code; usesRoot: boolean };

export type Position = number | [start: number | null, stop: number | null, step: number];

export interface RecordSet {
  /** Member names from the root to the array. */
  names: string[];
  /** The first name was reached by `..`: the same place only when no record below the root has it. */
  deep: boolean;
  /** Which elements; undefined: the array itself. */
  pick: Pick | undefined;
  /** The array's identity (names and deep), for fusing stages on the same array. */
  list: string;
}

/** The normal form of a target, or undefined for a form it does not cover (the engine serves it). */
export function recordSet(src: string): RecordSet | undefined {
  if (!isJsonPath(src)) {
    const segs = dottedSegments(src);
    // A numeric segment reads an array index in a dotted path: not a member name.
    if (segs.length === 0 || segs.some((s) => s === '' || /^-?\d+$/.test(s))) return undefined;
    return make(segs, false, undefined);
  }
  let q: Query;
  try {
    q = env.compile(src);
  } catch {
    return undefined;
  }
  const segs = q.segments;
  const names: string[] = [];
  let deep = false;
  let i = 0;
  for (; i < segs.length; i++) {
    const s = segs[i]!;
    const sel = s.selectors.length === 1 ? s.selectors[0] : undefined;
    if (!(sel instanceof S.NameSelector)) break;
    const descendant = s.constructor.name === 'DescendantSegment';
    if (descendant && i > 0) return undefined; // `$.a..b`: below a place, not from the root
    deep ||= descendant;
    names.push(sel.name);
  }
  if (names.length === 0) return undefined;
  if (i === segs.length) return make(names, deep, undefined);
  if (i !== segs.length - 1 || segs[i]!.constructor.name === 'DescendantSegment') return undefined;
  const sels = segs[i]!.selectors;
  const first = sels[0];
  let pick: Pick | undefined;
  if (sels.length === 1 && first instanceof S.WildcardSelector) pick = { k: 'all' };
  else if (sels.every((x) => x instanceof S.IndexSelector || x instanceof S.SliceSelector)) {
    pick = { k: 'positions', parts: sels.map((x) => (x instanceof S.SliceSelector ? [x.start ?? null, x.stop ?? null, x.step ?? 1] : (x as InstanceType<typeof S.IndexSelector>).index)) };
  }
  else if (sels.length === 1 && first instanceof S.FilterSelector) {
    const w = compileWhere(first);
    const r = compileWhere(first, { record: true });
    if (w && r) pick = { k: 'where', ...w, onRecord: r.code };
  }
  return pick && make(names, deep, pick);
}

const make = (names: string[], deep: boolean, pick: Pick | undefined): RecordSet =>
  ({ names, deep, pick, list: JSON.stringify([deep, names]) });
