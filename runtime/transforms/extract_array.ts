// extract_array: { from, paths, flatten, dedupe } -> an array built from the array at `from`
// (the data itself when omitted; absent/null gives []). Steps, in order:
// paths: one path -> the value of each element; several -> an object per element keyed by each
//   path's last segment (null when absent, so every row has the same keys); none/[] -> elements as is.
// flatten: true splices array values in (one level). dedupe: true drops structurally equal
//   repeats (key order ignored), keeping the first.
import { TransformError, type TransformRun } from './types.ts';
import { fnArg, guard, objectArg, pathList } from './util/args.ts';
import { isObject, kindOf, lookup, MISSING, setOwn, type Rec } from './util/path.ts';

const W = 'extract_array';
const at = (el: unknown, p: string[]) => { const v = lookup(el, p); return v === MISSING ? null : v; };

/** JSON text with sorted keys: equal for structurally equal values. */
const canon = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(canon).join(',')}]`
  : isObject(v) ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`
  : JSON.stringify(v) ?? 'null';

export const run: TransformRun = (data, args) => {
  const a = objectArg(args, W);
  for (const f of ['flatten', 'dedupe'] as const)
    if (a[f] !== undefined && typeof a[f] !== 'boolean') throw new TransformError(`${W}: \`${f}\` must be true or false`);
  const paths = a.paths === undefined ? [] : pathList(a.paths, W);
  const names = paths.map((p) => p[p.length - 1]);
  if (new Set(names).size !== names.length) throw new TransformError(`${W}: two paths end in the same name`);
  const src = a.from === undefined ? data : guard(W, () => fnArg<(d: unknown) => unknown>(a.from, W)(data));
  if (src !== undefined && src !== null && !Array.isArray(src))
    throw new TransformError(`${W}: expected ${a.from === undefined ? 'the data' : '`from`'} to be an array, got ${kindOf(src)}`);
  let out: unknown[] = src ?? [];
  if (paths.length === 1) out = out.map((el) => at(el, paths[0]));
  else if (paths.length > 1)
    out = out.map((el) => { const o: Rec = {}; paths.forEach((p, i) => setOwn(o, names[i], at(el, p))); return o; });
  if (a.flatten === true) out = out.flatMap((v) => (Array.isArray(v) ? v : [v]));
  if (a.dedupe === true) {
    const seen = new Set<string>();
    out = out.filter((v) => { const k = canon(v); return seen.has(k) ? false : (seen.add(k), true); });
  }
  return out;
};
