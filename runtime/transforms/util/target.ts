// A transform's JSONPath `target`: the transform applies to EVERY place the path selects, and the
// whole data comes back with each of them replaced (copying only the containers on the way, so
// the input is never mutated). One mechanism for every transform with a `target` (math, filter,
// flatten). Rules (docs/decisions.md, "JSONPath targets"):
// - no target: the transform applies to the data itself;
// - a target that selects nothing, or only nulls: the data comes back unchanged;
// - a selected scalar is refused (a target names an object or array to work on);
// - nested selections (`$..items`) apply innermost first; the outer one sees the inner results (an
//   apply that answers through a Promise, a filter awaiting a jq regex, is awaited before the next);
// - the target names places, not values: one object at two places (a value interpolated into two
//   fields) changes only where it is selected (docs/decisions.md, "JSONPath targets").
import type { Place } from '../../jsonpath/query.ts';
import { TransformError } from '../types.ts';
import { guard } from './args.ts';
import { kindOf, setOwn } from './path.ts';

/** A 'places' field as the compiler hands it over: every match with its location. */
export type Targets = (data: unknown) => Place[];

export function atTargets(who: string, data: unknown, target: Targets | undefined, apply: (node: object) => unknown): unknown {
  if (target === undefined) {
    if (data == null) return data; // nothing to work on
    if (typeof data !== 'object') throw new TransformError(`${who}: the data is ${kindOf(data)}, not an object or array`);
    return apply(data);
  }
  const root: Trie = { children: new Map(), selected: false };
  for (const { v, at } of guard(who, () => target(data))) {
    if (v === null) continue; // a null field has nothing to work on
    if (typeof v !== 'object') throw new TransformError(`${who}: the target selects ${kindOf(v)}, not an object or array`);
    let t = root;
    for (const k of at) {
      let c = t.children.get(k);
      if (!c) t.children.set(k, (c = { children: new Map(), selected: false }));
      t = c;
    }
    t.selected = true;
  }
  return rebuild(data, root, apply);
}

type Key = Place['at'][number];
interface Trie { children: Map<Key, Trie>; selected: boolean }

/** Copies the containers along the paths; selected nodes become apply(their rebuilt self), innermost
 *  first. Synchronous unless an apply answers through a Promise: from there on, each one is awaited. */
function rebuild(cur: unknown, t: Trie, apply: (node: object) => unknown): unknown {
  const kids = [...t.children];
  let copy: Record<string, unknown> | unknown[] | undefined;
  const from = (i: number): unknown => {
    for (; i < kids.length; i++) {
      const [k, child] = kids[i]!;
      const c = cur as Record<string, unknown>;
      copy ??= Array.isArray(cur) ? [...cur] : { ...c };
      const v = rebuild(c[k as string], child, apply);
      const into = copy as Record<string, unknown>;
      if (v instanceof Promise) return v.then((x: unknown) => { setOwn(into, String(k), x); return from(i + 1); });
      setOwn(into, String(k), v);
    }
    const self = copy ?? cur;
    return t.selected ? apply(self as object) : self;
  };
  return from(0);
}
