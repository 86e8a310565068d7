// nested_transforms: { key: [transforms...] } -> each chain runs on the value at `key` (dotted
// paths ok) of the record (each object element of an array) and its result replaces that value.
// Chains run in the listed order; an absent key is skipped (no chain runs on nothing). A failure
// inside names the key, so the author can find which chain broke.
import { TransformError, type TransformRun, type TransformSpec } from './types.ts';
import { eachRecord } from './util/each.ts';
import { kindOf, lookup, MISSING, setPath, splitPath } from './util/path.ts';

export const spec: TransformSpec = { self: 'chains' };

type Chain = (data: unknown, scope: unknown) => unknown;
const W = 'nested_transforms';

export const run: TransformRun = (data, args, scope) => {
  const ok = Array.isArray(args) && args.every((c) => Array.isArray(c) && typeof c[0] === 'string' && typeof c[1] === 'function');
  if (!ok) throw new TransformError(`${W}: expected a map of keys to transform lists, got ${kindOf(args)}`);
  const chains = (args as Array<[string, Chain]>).map(([k, f]) => [k, splitPath(k, W), f] as const);
  return eachRecord(data, W, (rec) =>
    chains.reduce<unknown>((r, [key, p, chain]) => {
      const v = lookup(r, p);
      if (v === MISSING) return r;
      let res: unknown;
      try {
        res = chain(v, scope);
      } catch (e) {
        throw new TransformError(`${W} "${key}": ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      return setPath(r, p, res ?? null, W);
    }, rec),
  );
};
