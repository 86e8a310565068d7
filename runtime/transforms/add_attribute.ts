// add_attribute: { name: value } set on the record (each object element of an array). Values
// arrive already interpolated once per run, so every element gets the same value (one uuid per
// run, not per element). Dotted names create nested objects; existing values are overwritten.
import type { TransformRun } from './types.ts';
import { objectArg } from './util/args.ts';
import { eachRecord } from './util/each.ts';
import { setPath, splitPath } from './util/path.ts';

export const run: TransformRun = (data, args) => {
  const W = 'add_attribute';
  const adds = Object.entries(objectArg(args, W)).map(([k, v]) => [splitPath(k, W), v] as const);
  return eachRecord(data, W, (rec) => adds.reduce<unknown>((r, [p, v]) => setPath(r, p, v, W), rec));
};
