// flatten: nested objects and arrays become one level of keys joined by `key_separator`
// ({a: {b: 1}, t: [x]} -> {"a.b": 1, "t.0": "x"} with "."), ready for to_csv or flat stores.
// Empty objects and arrays are kept as values so no field disappears. `prefix` is put before
// every key as a first segment ("user" -> "user.a.b"). `target` (a JSONPath) flattens each
// object it selects inside the data; a selected array (or array data) flattens each object element.
import { TransformError, type TransformRun } from './types.ts';
import { config, text } from './util/fields.ts';
import { isObject, setOwn, type Rec } from './util/path.ts';
import { atTargets, type Targets } from './util/target.ts';

const W = 'flatten';
const MAX_DEPTH = 512;

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  const sep = text(a, 'key_separator', W);
  const prefix = text(a, 'prefix', W, { optional: true });
  const flat = (o: Rec): Rec => {
    const out: Rec = {};
    const put = (v: unknown, path: string[]) => {
      if (path.length > MAX_DEPTH) throw new TransformError(`${W}: the data is nested deeper than ${MAX_DEPTH} levels`);
      const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : isObject(v) ? Object.entries(v) : [];
      if (entries.length > 0 || path.length === 0) return entries.forEach(([k, x]) => put(x, [...path, k]));
      const name = (prefix === '' ? path : [prefix, ...path]).join(sep);
      if (Object.hasOwn(out, name)) throw new TransformError(`${W}: two fields flatten to the same key ${JSON.stringify(name)}`);
      setOwn(out, name, v);
    };
    put(o, []);
    return out;
  };
  const apply = (v: unknown): unknown => (isObject(v) ? flat(v) : v);
  return atTargets(W, data, a.target as Targets | undefined, (node) => (Array.isArray(node) ? node.map(apply) : flat(node as Rec)));
};
