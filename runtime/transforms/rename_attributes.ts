// rename_attributes: { old: new } on the record's own top-level keys (each object element of an
// array). Renames apply simultaneously to the original (so a swap works), keep the key's
// position, and a renamed value wins over an existing key of the new name.
import type { TransformRun } from './types.ts';
import { stringPairs } from './util/args.ts';
import { eachRecord } from './util/each.ts';
import { setOwn, type Rec } from './util/path.ts';

/** Shared with rename_keys. Returns rec itself when no old name is present. */
export function rename(rec: Rec, pairs: Array<[string, string]>): Rec {
  const map = new Map(pairs.filter(([from, to]) => from !== to && Object.hasOwn(rec, from)));
  if (map.size === 0) return rec;
  const targets = new Set(map.values());
  const out: Rec = {};
  for (const k of Object.keys(rec)) {
    const to = map.get(k);
    if (to !== undefined) setOwn(out, to, rec[k]);
    else if (!targets.has(k)) setOwn(out, k, rec[k]);
  }
  return out;
}

export const run: TransformRun = (data, args) => {
  const pairs = stringPairs(args, 'rename_attributes');
  return eachRecord(data, 'rename_attributes', (rec) => rename(rec, pairs));
};
