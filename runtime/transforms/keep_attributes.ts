// keep_attributes: [id, "user.name", ...] keeps only these in each record, in the listed order.
// A dotted name keeps just that nested value ({ user: { name } }); absent names are omitted
// rather than filled with null, so "keep" never invents fields.
import type { TransformRun } from './types.ts';
import { pathList } from './util/args.ts';
import { eachRecord } from './util/each.ts';
import { lookup, MISSING, setPath } from './util/path.ts';

export const run: TransformRun = (data, args) => {
  const paths = pathList(args, 'keep_attributes');
  return eachRecord(data, 'keep_attributes', (rec) => {
    let out: unknown = {};
    for (const p of paths) {
      const v = lookup(rec, p);
      if (v !== MISSING) out = setPath(out, p, v, 'keep_attributes');
    }
    return out;
  });
};
