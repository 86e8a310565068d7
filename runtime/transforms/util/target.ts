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
  const paths = locate(data, nodes);
  if (paths.size < nodes.size) throw new TransformError(`${who}: the target could not be located in the data`);
  const root: Trie = { children: new Map(), selected: false };
  for (const path of paths.values()) {
    let t = root;
    for (const k of path) {
      let c = t.children.get(k);
      if (!c) t.children.set(k, (c = { children: new Map(), selected: false }));
      t = c;
    }
    t.selected = true;
  }
  return rebuild(data, root, apply);
}

type Key = string | number;
interface Trie { children: Map<Key, Trie>; selected: boolean }
interface Entry { v: unknown; up: Entry | undefined; key: Key }

/** The path of each selected node, breadth first, stopping at the level where the last one is
 *  found: `$.items[*]` never looks inside the items. The same object reached twice keeps its first path. */
function locate(data: unknown, nodes: Set<object>): Map<object, Key[]> {
  const found = new Map<object, Key[]>();
  const seen = new Set<object>();
  let level: Entry[] = [{ v: data, up: undefined, key: '' }];
  while (level.length) {
    for (const e of level) {
      if (nodes.has(e.v as object) && !found.has(e.v as object)) found.set(e.v as object, pathOf(e));
    }
    if (found.size === nodes.size) break;
    const next: Entry[] = [];
    for (const e of level) {
      const v = e.v;
      if (v === null || typeof v !== 'object' || seen.has(v)) continue;
      seen.add(v);
      if (Array.isArray(v)) v.forEach((x, i) => next.push({ v: x, up: e, key: i }));
      else for (const k of Object.keys(v)) next.push({ v: (v as Record<string, unknown>)[k], up: e, key: k });
    }
    level = next;
  }
  return found;
}

function pathOf(e: Entry): Key[] {
  const out: Key[] = [];
  for (let c: Entry | undefined = e; c?.up; c = c.up) out.push(c.key);
  return out.reverse();
}

/** Copies the containers along the paths; selected nodes become apply(their rebuilt self), innermost first. */
function rebuild(cur: unknown, t: Trie, apply: (node: object) => unknown): unknown {
  let copy: Record<string, unknown> | unknown[] | undefined;
  for (const [k, child] of t.children) {
    const c = cur as Record<string, unknown>;
    copy ??= Array.isArray(cur) ? [...cur] : { ...c };
    setOwn(copy as Record<string, unknown>, String(k), rebuild(c[k as string], child, apply));
  }
  const self = copy ?? cur;
  return t.selected ? apply(self as object) : self;
}
