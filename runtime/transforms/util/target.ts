// A transform's JSONPath `target`: the transform applies to EVERY node the path selects, and the
// whole data comes back with each of them replaced (copying only the containers on the way, so
// the input is never mutated). One mechanism for every transform with a `target` (math, filter,
// flatten). Rules (docs/decisions.md, "Semantics"):
// - no target: the transform applies to the data itself;
// - a target that selects nothing, or only nulls: the data comes back unchanged;
// - a selected scalar is refused (a target names an object or array to work on);
// - nested selections (`$..items`) apply innermost first; the outer one sees the inner results.
import { TransformError } from '../types.ts';
import { guard } from './args.ts';
import { kindOf, setOwn } from './path.ts';

/** A 'jsonpath' field as the compiler hands it over: all matches. */
export type Targets = (data: unknown) => unknown;

export function atTargets(who: string, data: unknown, target: Targets | undefined, apply: (node: object) => unknown): unknown {
  if (target === undefined) {
    if (data === null || data === undefined) return data; // nothing to work on
    if (typeof data !== 'object') throw new TransformError(`${who}: the data is ${kindOf(data)}, not an object or array`);
    return apply(data);
  }
  if (typeof target !== 'function') throw new TransformError(`${who}: \`target\` must be a path`);
  const found = guard(who, () => target(data));
  const nodes = new Set<object>();
  for (const n of Array.isArray(found) ? found : [found]) {
    if (n === null || n === undefined) continue; // a null field has nothing to work on
    if (typeof n !== 'object') throw new TransformError(`${who}: the target selects ${kindOf(n)}, not an object or array`);
    nodes.add(n);
  }
  if (nodes.size === 0) return data;
  if (nodes.size === 1 && nodes.has(data as object)) return apply(data as object); // `$`
  const done = new Map<object, unknown>();
  const out = rebuild(data, nodes, apply, done);
  if ([...nodes].some((n) => !done.has(n))) throw new TransformError(`${who}: the target could not be located in the data`);
  return out;
}

/** Bottom-up copy of `cur` with every selected node replaced by apply(its rebuilt self). */
function rebuild(cur: unknown, nodes: Set<object>, apply: (node: object) => unknown, done: Map<object, unknown>): unknown {
  if (cur === null || typeof cur !== 'object') return cur;
  if (done.has(cur)) return done.get(cur); // the same object reached twice is rebuilt once
  done.set(cur, cur); // guards a cycle (not JSON, but data is not always parsed JSON)
  let copy: Record<string, unknown> | unknown[] | undefined;
  const keys = Array.isArray(cur) ? cur.keys() : Object.keys(cur);
  for (const k of keys) {
    const v = (cur as Record<string, unknown>)[k as string];
    const next = rebuild(v, nodes, apply, done);
    if (next === v) continue;
    copy ??= Array.isArray(cur) ? [...cur] : { ...cur };
    setOwn(copy as Record<string, unknown>, String(k), next);
  }
  const self = copy ?? cur;
  const result = nodes.has(cur) ? apply(self) : self;
  done.set(cur, result);
  return result;
}
