// A transform's JSONPath `target`: the transform applies to EVERY node the path selects, and the
// whole data comes back with each of them replaced (copying only the containers on the way, so
// the input is never mutated). One mechanism for every transform with a `target` (math, filter,
// flatten). Rules (docs/decisions.md, "Semantics"):
// - no target: the transform applies to the data itself;
// - a target that selects nothing, or only nulls: the data comes back unchanged;
// - a selected scalar is refused (a target names an object or array to work on);
// - nested selections (`$..items`) apply innermost first; the outer one sees the inner results;
// - each selected place changes on its own, even when one object sits at several places (one
//   value interpolated into two fields): docs/decisions.md, "JSONPath targets".
import { TransformError } from '../types.ts';
import { guard } from './args.ts';
import { kindOf, setOwn } from './path.ts';

/** A 'jsonpath' field as the compiler hands it over: all matches (transforms/types.ts). */
export type Targets = (data: unknown) => unknown;

export function atTargets(who: string, data: unknown, target: Targets | undefined, apply: (node: object) => unknown): unknown {
  if (target === undefined) {
    if (data === null) return data; // nothing to work on
    if (typeof data !== 'object') throw new TransformError(`${who}: the data is ${kindOf(data)}, not an object or array`);
    return apply(data);
  }
  const nodes = select(who, data, target);
  // Stryker disable next-line ConditionalExpression: speed only; with nothing selected the walk finds no path and the rebuild returns the data
  if (nodes.size === 0) return data;
  let paths = locate(data, nodes);
  if (!paths) {
    // A selected object also sits elsewhere, so identity cannot tell which place the path chose:
    // select again in a copy where every place holds its own object.
    data = copyTree(data);
    paths = locate(data, select(who, data, target))!;
  }
  const root: Trie = { children: new Map(), selected: false };
  for (const path of paths) {
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
interface Entry { v: object; up: Entry | undefined; key: Key }

/** The objects and arrays the target selects (nulls skipped: nothing to work on). */
function select(who: string, data: unknown, target: Targets): Set<object> {
  const nodes = new Set<object>();
  for (const n of guard(who, () => target(data)) as unknown[]) {
    if (n === null) continue;
    if (typeof n !== 'object') throw new TransformError(`${who}: the target selects ${kindOf(n)}, not an object or array`);
    nodes.add(n);
  }
  return nodes;
}

/** The path of each selected node, or undefined when one of them is reached at two places. The
 *  whole data is walked: a second place of a selected object may lie anywhere. */
function locate(data: unknown, nodes: Set<object>): Key[][] | undefined {
  const paths: Key[][] = [];
  const met = new Set<object>();
  const stack: Entry[] = [];
  const push = (v: unknown, up: Entry | undefined, key: Key): void => {
    if (v !== null && typeof v === 'object') stack.push({ v, up, key });
  };
  push(data, undefined, 0); // the root's key is never read
  while (stack.length) {
    const e = stack.pop()!;
    const v = e.v;
    if (nodes.has(v)) {
      if (met.has(v)) return undefined;
      met.add(v);
      paths.push(pathOf(e));
    }
    if (Array.isArray(v)) v.forEach((x, i) => push(x, e, i));
    else for (const k of Object.keys(v)) push((v as Record<string, unknown>)[k], e, k);
  }
  return paths;
}

function pathOf(e: Entry): Key[] {
  const out: Key[] = [];
  for (let c = e; c.up; c = c.up) out.push(c.key);
  return out.reverse();
}

/** The data with a fresh object or array at every place (JSON values only). */
function copyTree(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(copyTree);
  const o = {};
  for (const [k, x] of Object.entries(v)) setOwn(o, k, copyTree(x));
  return o;
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
